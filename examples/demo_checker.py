"""The demo checker: judges model-judged items only from the screenshots in its request, read by OCR.

An item can be confirmed only through the on-screen text it quotes ('…' or "…"):

* a positive item passes when every quoted text is read in one of the attached screenshots (the
  anchored history at a checkpoint; the final screen at exit), and fails — naming what OCR did read —
  when one is not there;
* an item about something NOT appearing ("No 'keeps stopping' dialog appears") is judged only at the
  final entry, on the final live screen: it passes when the quoted text is absent there;
* an item that quotes nothing ("The screen looks darker"), or any item when OCR is not installed,
  is ``inconclusive`` with evidence saying why — never a guess.

rapidocr is imported lazily (``pip install 'pytest-artemis[ocr]'``); without it the demo still runs.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Protocol

from pytest_artemis.agents.schemas import CheckReport, ModelVerdict, ToolRequest
from pytest_artemis.contracts import CheckItem
from pytest_artemis.testing import ScriptedRequest

_QUOTE = re.compile(r"(?<!\w)'([^']+?)'(?!\w)|\"([^\"]+?)\""
                    r"|\u2018([^\u2019]+)\u2019|\u201c([^\u201d]+)\u201d")
_NEGATED = re.compile(r"^\s*(no|never|none)\b|\b(not|never|doesn't|does not|without)\b", re.IGNORECASE)
_CAPTIONS = re.compile(r"Attached screenshots, in order: ([^.]*)\.")


class _Reader(Protocol):
    def __call__(self, image: bytes) -> tuple[str, ...]: ...


@dataclass(frozen=True)
class Shot:
    """One screenshot of the request, with what it is (``step 2 post``, ``final screen``)."""

    caption: str
    lines: tuple[str, ...]


@cache
def _ocr_engine() -> _Reader | None:
    """rapidocr, or None when the ``ocr`` extra is not installed."""
    try:
        from rapidocr import RapidOCR
    except ImportError:
        return None
    engine = RapidOCR(params={"Global.log_level": "critical"})

    def read(image: bytes) -> tuple[str, ...]:
        return tuple(engine(image).txts or ())

    return read


_READ: dict[str, tuple[str, ...]] = {}


def _read(reader: _Reader, image: bytes) -> tuple[str, ...]:
    """OCR lines of an image (cached by content: the same screenshot is attached to several requests)."""
    key = hashlib.sha256(image).hexdigest()
    if key not in _READ:
        _READ[key] = reader(image)
    return _READ[key]


def _norm(text: str) -> str:
    """Letters and digits only, casefolded: OCR spacing and punctuation do not decide a match."""
    return re.sub(r"[\W_]+", "", text.replace("\u2011", "-")).casefold()


def quotes(text: str) -> tuple[str, ...]:
    """The on-screen texts an item quotes."""
    return tuple(next(g for g in m.groups() if g) for m in _QUOTE.finditer(text))


def _shots(request: ScriptedRequest, reader: _Reader) -> list[Shot]:
    """Every screenshot in the request, captioned from the engine's note (or the tool answer)."""
    shots: list[Shot] = []
    for message in request.messages:
        if message.role != "user" or not message.images:
            continue
        found = _CAPTIONS.search(message.text)
        names = [n.strip() for n in found.group(1).split(",")] if found else []
        if not names:
            names = ["final screen" if request.entry == "final" else "screenshot"] * len(message.images)
        for name, image in zip(names, message.images, strict=False):
            shots.append(Shot(name, _read(reader, image.data)))
    return shots


def _where(needle: str, shots: Sequence[Shot]) -> Shot | None:
    return next((s for s in shots if _norm(needle) in _norm(" ".join(s.lines))), None)


def _seen(shots: Sequence[Shot]) -> str:
    lines = [line for s in shots for line in s.lines]
    return "; ".join(lines[:12]) + (" …" if len(lines) > 12 else "") if lines else "no text at all"


def judge_item(item: CheckItem, entry: str | None, shots: Sequence[Shot]) -> ModelVerdict:
    """One item's verdict from the OCR'd screenshots (see the module docstring for the rules)."""
    said = quotes(item.text)

    def verdict(status: str, evidence: str) -> ModelVerdict:
        return ModelVerdict(item=item.text, status=status, evidence=evidence)  # type: ignore[arg-type]

    if not said:
        return verdict("inconclusive", "the item quotes no on-screen text, and the demo checker can only "
                                       "confirm text it reads in the screenshots; not judged")
    if not shots:
        return verdict("inconclusive", "no screenshot was attached to this check; nothing to read")
    names = ", ".join(s.caption for s in shots)
    if _NEGATED.search(item.text):
        if entry != "final":
            return verdict("inconclusive", "an absence can only be judged on the final screen; this "
                                           f"checkpoint only has {names}")
        final = shots[-1]
        present = [q for q in said if _where(q, [final])]
        if present:
            return verdict("failed", f"OCR reads {present[0]!r} on the {final.caption}: {_seen([final])}")
        return verdict("passed",
                       f"OCR of the {final.caption} has no {said[0]!r} (it reads: {_seen([final])})")
    missing = [q for q in said if _where(q, shots) is None]
    if missing:
        return verdict("failed", f"OCR of {names} does not read {missing[0]!r} (it reads: {_seen(shots)})")
    places = "; ".join(f"{q!r} in the {_where(q, shots).caption} screenshot" for q in said)  # type: ignore[union-attr]
    return verdict("passed", f"OCR reads {places}")


def check(request: ScriptedRequest) -> CheckReport:
    """The checker role: verdicts for the request's items (or, at exit, first ask for the live screen)."""
    if not request.checks:
        return CheckReport()
    reader = _ocr_engine()
    if reader is None:
        return CheckReport(verdicts=[
            ModelVerdict(item=i.text, status="inconclusive",
                         evidence="OCR is not installed (pip install 'pytest-artemis[ocr]'): the demo "
                                  "checker cannot read the screenshots it was given; not judged")
            for i in request.checks])
    shots = _shots(request, reader)
    asked = any(m.role == "assistant" for m in request.messages)
    if request.entry == "final" and not shots and not asked:
        return CheckReport(requests=[ToolRequest(tool="live_screen")])
    return CheckReport(verdicts=[judge_item(i, request.entry, shots) for i in request.checks])
