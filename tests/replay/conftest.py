"""Fixtures of the replay tests: pytester projects on the simulated phone, with a handle on the phone."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

_TESTS = Path(__file__).resolve().parents[1]
for _shared in (_TESTS / "plugin", _TESTS / "faults", Path(__file__).resolve().parent):
    # plugin_helpers (JUnit parsing) and fault_scripts (the phone handle, screen-reading operators)
    if str(_shared) not in sys.path:
        sys.path.insert(0, str(_shared))

import fault_scripts  # noqa: E402
from replay_project import PROJECT_CONFTEST  # noqa: E402

import pytest_artemis.sim  # noqa: E402


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    """A pytester project whose roles are scripted by ``replay_project.respond``; ``REPLAY_INJECT``
    changes the phone before each run (a crash dialog after N inputs, Wi-Fi off)."""
    monkeypatch.setattr(pytest_artemis.sim, "SimServer", fault_scripts.RecordingSimServer)
    fault_scripts.SERVERS.clear()
    monkeypatch.delenv("REPLAY_INJECT", raising=False)
    # xdist workers import the project's helpers (and this checkout of the package) too
    paths = [str(p) for p in (_TESTS / "plugin", _TESTS / "faults", Path(__file__).resolve().parent)]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([*paths, os.environ.get("PYTHONPATH", "")]))
    pytester.makeconftest(PROJECT_CONFTEST)
    pytester.makeini("[pytest]\njunit_logging = system-out\n")
    return pytester
