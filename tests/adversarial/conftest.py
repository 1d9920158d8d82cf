"""The adversarial suite: pytester projects on the simulated phone, sharing the fault matrix's harness."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

_TESTS = Path(__file__).resolve().parents[1]
for _shared in (_TESTS / "plugin", _TESTS / "faults", Path(__file__).resolve().parent):
    if str(_shared) not in sys.path:
        sys.path.insert(0, str(_shared))

from fault_harness import SCRIPTED_CONFTEST  # noqa: E402


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    """A pytester project whose test modules script every role with ``respond(request, device)``."""
    # Prepended, not replaced: a subprocess run must import the same pytest_artemis as this process.
    shared = [str(Path(__file__).resolve().parent), str(_TESTS / "faults"), os.environ.get("PYTHONPATH", "")]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in shared if p))
    pytester.makeconftest(SCRIPTED_CONFTEST)
    pytester.makeini("[pytest]\njunit_logging = system-out\n")
    return pytester


@pytest.fixture(scope="session")
def ocr_warm() -> None:
    """rapidocr loaded once before any in-process run: pytester unloads modules first imported inside a
    run, and onnxruntime cannot be loaded twice in one process."""
    from pytest_artemis.device.ocr import load_ocr

    load_ocr("rapidocr")
