"""The whole suite: load the OCR stack before any in-process pytester run when slow tests are selected."""

from __future__ import annotations

import contextlib

import pytest


def pytest_collection_finish(session: pytest.Session) -> None:
    """pytester unloads the modules first imported inside an in-process run, and numpy and onnxruntime
    cannot be loaded twice in one process: the slow end-to-end runs use OCR (the examples' ``artemis_ocr``),
    so its libraries are imported here, once, before the first run, whichever slow test comes first."""
    if any(item.get_closest_marker("slow") for item in session.items):
        with contextlib.suppress(ImportError):
            from rapidocr import RapidOCR  # noqa: F401
