"""The whole suite: modules that must outlive in-process pytester runs are loaded before the first one."""

from __future__ import annotations

import contextlib

import pytest

# The built-in predicates register when this module is imported: loaded here, before any in-process
# pytester run, it is never unloaded between two runs in one test (the registry would be left empty).
import pytest_artemis.probes  # noqa: F401


def pytest_collection_finish(session: pytest.Session) -> None:
    """pytester unloads the modules first imported inside an in-process run, and numpy and onnxruntime
    cannot be loaded twice in one process: the slow end-to-end runs use OCR (the examples' ``artemis_ocr``),
    so its libraries are imported here, once, before the first run, whichever slow test comes first."""
    if any(item.get_closest_marker("slow") for item in session.items):
        with contextlib.suppress(ImportError):
            from rapidocr import RapidOCR  # noqa: F401
