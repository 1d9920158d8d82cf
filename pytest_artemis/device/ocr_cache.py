"""OCR readings kept by screenshot content hash, so the same pixels are never read twice.

A reading is a pure function of the image's pixels and the engine (its version and settings, the
engine's ``fingerprint``): the reading kept from an earlier run of byte-for-byte the same screenshot (the
same frame from the device: the screen's name, ``Capture.sha256``) is that screenshot's reading, not a
replayed judgement. Checks are still judged afresh from it. A changed
pixel (a clock tick in the status bar, an animation frame) is a new image and is read again.

Readings are kept in memory for the process and, when a directory is given (the plugin uses pytest's
cache directory, ``.pytest_cache/d/artemis-ocr``, cleared by ``--cache-clear``), on disk, shared by
sessions and xdist workers. A reading that holds a secret the run knows is never written to disk.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path

from pytest_artemis.contracts import Bounds

from .ocr import OcrEngine, OcrWord

MEMORY_SIZE = 256
DISK_LIMIT = 4096
"""Readings kept on disk per engine; beyond it the least recently used quarter is removed."""

_memory: OrderedDict[tuple[str, str], tuple[tuple[OcrWord, ...], bool]] = OrderedDict()
"""Readings by (engine fingerprint, screenshot hash), each marked whether it came from disk (unverified)."""
_memory_lock = threading.Lock()
_pruned: set[Path] = set()


def _remember(key: tuple[str, str], words: tuple[OcrWord, ...], from_disk: bool) -> None:
    with _memory_lock:
        _memory[key] = (words, from_disk)
        _memory.move_to_end(key)
        while len(_memory) > MEMORY_SIZE:
            _memory.popitem(last=False)


def _recall(key: tuple[str, str]) -> tuple[tuple[OcrWord, ...], bool] | None:
    with _memory_lock:
        kept = _memory.get(key)
        if kept is not None:
            _memory.move_to_end(key)
        return kept


def _encode(words: tuple[OcrWord, ...]) -> str:
    return json.dumps([[w.text, w.bounds.left, w.bounds.top, w.bounds.right, w.bounds.bottom, w.score]
                       for w in words])


def _decode(text: str) -> tuple[OcrWord, ...] | None:
    """The words of a kept reading; None when the file is not one (torn, hand-edited, another format)."""
    try:
        rows = json.loads(text)
        return tuple(OcrWord(text=str(t), bounds=Bounds(left=int(a), top=int(b), right=int(c), bottom=int(d)),
                             score=float(s)) for t, a, b, c, d, s in rows)
    except (ValueError, TypeError):
        return None


def _prune(directory: Path, limit: int) -> None:
    """At most ``limit`` readings: the least recently used beyond it go (once per directory and process)."""
    if directory in _pruned:
        return
    _pruned.add(directory)
    files = list(directory.glob("*.json"))
    if len(files) <= limit:
        return
    dated = []
    for path in files:
        with contextlib.suppress(OSError):  # another worker may be pruning the same directory
            dated.append((path.stat().st_mtime, path))
    dated.sort()
    for _, path in dated[:len(dated) - limit * 3 // 4]:
        path.unlink(missing_ok=True)


class CachedOcr:
    """``engine`` with its readings kept by screenshot hash (in memory; on disk under ``directory``).

    ``shareable(text)`` says whether a read text may be written to disk (the plugin refuses any text
    holding a secret it redacts). Disk failures only cost a fresh read.
    """

    def __init__(
        self, engine: OcrEngine, directory: Path | None = None, *,
        shareable: Callable[[str], bool] = lambda text: True, limit: int = DISK_LIMIT,
    ) -> None:
        self.engine = engine
        self.name = engine.name
        self.fingerprint = engine.fingerprint
        self._shareable = shareable
        self._dir = None
        if directory is not None:
            self._dir = directory / hashlib.sha256(engine.fingerprint.encode()).hexdigest()[:16]
            with contextlib.suppress(OSError):
                self._dir.mkdir(parents=True, exist_ok=True)
                _prune(self._dir, limit)

    def read(self, png: bytes) -> list[OcrWord]:
        """The words of a PNG, kept under the hash of its bytes."""
        return self.read_screen(hashlib.sha256(png).hexdigest(), lambda: png)

    def read_screen(self, sha: str, png: Callable[[], bytes]) -> list[OcrWord]:
        """The words of the screenshot named ``sha``: kept ones when it was read before, else ``png()``
        read now."""
        key = (self.fingerprint, sha)
        kept = _recall(key)
        if kept is not None:
            return list(kept[0])
        words = self._load(sha)
        from_disk = words is not None
        if words is None:
            words = tuple(self.engine.read(png()))
            self._store(sha, words)
        _remember(key, words, from_disk)
        return list(words)

    def vouches(self, sha: str) -> bool:
        """Whether the reading kept for the screenshot with this hash was read by the engine in this process
        (a reading loaded from disk is a claim about the pixels, not a reading of them: it may have been
        edited)."""
        kept = _recall((self.fingerprint, sha))
        return kept is not None and not kept[1]

    def reread(self, png: bytes, sha: str) -> list[OcrWord]:
        """The screenshot named ``sha`` read by the engine now, replacing what was kept for it (in memory and
        on disk)."""
        words = tuple(self.engine.read(png))
        self._store(sha, words)
        _remember((self.fingerprint, sha), words, False)
        return list(words)

    def _load(self, sha: str) -> tuple[OcrWord, ...] | None:
        if self._dir is None:
            return None
        path = self._dir / f"{sha}.json"
        try:
            words = _decode(path.read_text(encoding="utf-8"))
            if words is not None:
                os.utime(path)  # recently used: kept by the next prune
            return words
        except OSError:
            return None

    def _store(self, sha: str, words: tuple[OcrWord, ...]) -> None:
        if self._dir is None or not all(self._shareable(w.text) for w in words):
            return
        try:
            fd, temp = tempfile.mkstemp(dir=self._dir, prefix=".", suffix=".tmp")
        except OSError:
            return
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(_encode(words))
            os.replace(temp, self._dir / f"{sha}.json")  # readers see a whole file or none
        except OSError:
            Path(temp).unlink(missing_ok=True)


def read_screen(ocr: OcrEngine, sha: str, png: Callable[[], bytes]) -> list[OcrWord]:
    """The words of the screenshot named ``sha`` (its PNG is asked for only when it must be read)."""
    if isinstance(ocr, CachedOcr):
        return ocr.read_screen(sha, png)
    return ocr.read(png())
