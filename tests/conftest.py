"""The whole suite: modules that must outlive in-process pytester runs are loaded before the first one."""

from __future__ import annotations

import contextlib
import importlib
import pkgutil

import pytest

import pytest_artemis


def _load_the_package() -> None:
    """pytester unloads the modules first imported inside an in-process run: a class cached by a module
    that stays (a contract, a registered predicate) would then meet a re-imported twin in the next run.
    Every module of the package is imported here, once, before the first run."""
    for module in pkgutil.walk_packages(pytest_artemis.__path__, "pytest_artemis."):
        if not module.name.endswith("__main__"):
            importlib.import_module(module.name)


_load_the_package()


def pytest_collection_finish(session: pytest.Session) -> None:
    """pytester unloads the modules first imported inside an in-process run, and numpy and onnxruntime
    cannot be loaded twice in one process: the slow end-to-end runs use OCR (the examples' ``artemis_ocr``),
    so its libraries are imported here, once, before the first run, whichever slow test comes first."""
    if any(item.get_closest_marker("slow") for item in session.items):
        with contextlib.suppress(ImportError):
            from rapidocr import RapidOCR  # noqa: F401
