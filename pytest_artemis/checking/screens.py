"""The run's recorded screens as citations index them: hierarchy elements, then OCR text when OCR is on."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from pytest_artemis.contracts import EvidenceScreen, ScreenView, ScreenWhich, UIElement
from pytest_artemis.device.ocr import fuse_ocr
from pytest_artemis.device.ocr_cache import CachedOcr, read_screen
from pytest_artemis.store.journal import SCREENS_DIR

if TYPE_CHECKING:
    from pytest_artemis.device.ocr import OcrEngine


@dataclass
class _Entry:
    view: ScreenView
    ocr_done: bool


@dataclass
class RecordedScreens:
    """Every screen a checker may cite: each step's ``pre`` and ``post`` screen and the ``final`` ones.

    A screen's elements are its recorded hierarchy (the ``pre`` screen's as the operator saw it, the
    ``post`` screen's when that turn recorded one) with the OCR text of its screenshot fused in when the
    run has an OCR engine. OCR of a screen nobody cites is never paid for: it runs on first use, once.
    """

    run_dir: Path
    ocr: OcrEngine | None = None
    stored_png: Callable[[str], bytes | None] | None = None
    """How a screenshot's PNG is read by its name (the journal's ``screen_png``, which serves one whose
    write is still pending); without it, from ``run_dir``."""
    _entries: dict[tuple[int, ScreenWhich], _Entry] = field(default_factory=dict)
    _finals: list[_Entry] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, step: int, which: ScreenWhich, view: ScreenView, *, ocr_done: bool = False) -> None:
        """Keep a step's screen (``view.elements`` are its hierarchy elements, indexed as listed)."""
        with self._lock:
            self._entries[(step, which)] = _Entry(view, ocr_done or self.ocr is None)

    def record_final(self, view: ScreenView, *, ocr_done: bool = False) -> None:
        """Keep a screen perceived at the final check (the live screen then)."""
        with self._lock:
            self._finals.append(_Entry(view, ocr_done or self.ocr is None))

    def view(self, step: int, which: ScreenWhich) -> ScreenView | None:
        """A step's screen with OCR text fused in (blocking: may run OCR once); None if never recorded."""
        entry = self._entries.get((step, which))
        return None if entry is None else self._complete(entry)

    def finals(self) -> tuple[ScreenView, ...]:
        """The final screens, newest first (blocking: may run OCR once each)."""
        return tuple(self._complete(e) for e in reversed(self._finals))

    def hierarchy(self, step: int, which: ScreenWhich) -> ScreenView | None:
        """A step's screen as its hierarchy recorded it (no OCR is run for it)."""
        entry = self._entries.get((step, which))
        return None if entry is None else _without_ocr(entry.view)

    def timeline(self) -> list[tuple[float, str, ScreenView]]:
        """Every recorded screen as its hierarchy showed it, oldest first: (moment, where, view), step n's
        pre-screen at ``2n - 1``, its post-screen at ``2n``, the final screens last."""
        with self._lock:
            entries = sorted(self._entries.items())
            finals = list(self._finals)
        steps = [(2 * step - (1 if which == "pre" else 0), f"step {step} {which}-screen",
                  _without_ocr(e.view)) for (step, which), e in entries]
        last = max((m for m, _, _ in steps), default=0)
        return [*((float(m), w, v) for m, w, v in steps),
                *((float(last + 1 + i), "the final screen", _without_ocr(e.view))
                  for i, e in enumerate(finals))]

    def verified(self, view: ScreenView) -> ScreenView:
        """``view`` with its OCR text read again in this run when the reading it holds came from the disk
        cache: a kept reading says what the pixels were once read as, and a file can be edited."""
        if not isinstance(self.ocr, CachedOcr) or view.screenshot is None \
                or self.ocr.vouches(view.screenshot):
            return view
        png = self._png(view.screenshot)
        words = self.ocr.reread(png, view.screenshot) if png is not None else []
        fresh = view.model_copy(update={"elements": fuse_ocr(_without_ocr(view).elements, words)})
        with self._lock:
            for entry in (*self._entries.values(), *self._finals):
                if entry.view.screenshot == view.screenshot and entry.ocr_done:
                    entry.view = fresh
        return fresh

    def evidence(self, step: int | None, which: ScreenWhich) -> EvidenceScreen | None:
        """One citable screen as the checker is shown it (``final``: the newest final screen)."""
        if which == "final":
            finals = self.finals()
            return EvidenceScreen(step=step, screen="final", view=finals[0]) if finals else None
        view = None if step is None else self.view(step, which)
        return None if view is None else EvidenceScreen(step=step, screen=which, view=view)

    def _png(self, sha: str) -> bytes | None:
        if self.stored_png is not None:
            return self.stored_png(sha)
        path = self.run_dir / SCREENS_DIR / f"{sha}.png"
        return path.read_bytes() if path.exists() else None

    def _complete(self, entry: _Entry) -> ScreenView:
        with self._lock:
            view, sha, ocr = entry.view, entry.view.screenshot, self.ocr
            if entry.ocr_done or ocr is None or sha is None:
                return view
        # Read outside the lock: checks running side by side read their screens at the same time (two
        # reading one screen both read it, the same words).
        png = self._png(sha)
        words = read_screen(ocr, sha, lambda: png) if png is not None else []
        fused = view.model_copy(update={"elements": fuse_ocr(view.elements, words)})
        with self._lock:
            if not entry.ocr_done:
                entry.view, entry.ocr_done = fused, True
            return entry.view


def _without_ocr(view: ScreenView) -> ScreenView:
    if all(e.source == "hierarchy" for e in view.elements):
        return view
    return view.model_copy(update={"elements": tuple(e for e in view.elements if e.source == "hierarchy")})


def post_view(sha: str | None, like: ScreenView, elements: tuple[UIElement, ...] = ()) -> ScreenView:
    """A step's screen after its actions: its screenshot and (when dumped) its elements, sized like the
    screen before; its foreground app is the one most of its elements belong to (system UI aside)."""
    apps = Counter(e.package for e in elements if e.package and e.package != "com.android.systemui")
    foreground = apps.most_common(1)[0][0] if apps else ""
    return ScreenView(screenshot=sha, width=like.width, height=like.height, elements=elements,
                      foreground=foreground)
