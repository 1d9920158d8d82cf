"""Fixtures of the farm tests: pytester projects with the scripted model, simulated phones behind their own
adb servers (separate processes on separate loopback addresses, as separate device hosts are)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

_PLUGIN_TESTS = Path(__file__).resolve().parents[1] / "plugin"
if str(_PLUGIN_TESTS) not in sys.path:  # plugin_helpers: the scripted-model conftest and JUnit parsing
    sys.path.insert(0, str(_PLUGIN_TESTS))

from adb_hosts import AdbHost  # noqa: E402
from plugin_helpers import SCRIPTED_CONFTEST  # noqa: E402


@pytest.fixture
def suite(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makeconftest(SCRIPTED_CONFTEST)
    pytester.makeini("[pytest]\njunit_logging = system-out\nartemis_reset = full\n")
    return pytester


@pytest.fixture
def hosts():
    """Start ``AdbHost``s with ``hosts("127.0.0.2", "127.0.0.3")``; all are stopped at the end."""
    started: list[AdbHost] = []

    def start(*addresses: str, devices: int = 1) -> list[AdbHost]:
        made = [AdbHost(address, devices) for address in addresses]
        started.extend(made)
        return made

    yield start
    for host in started:
        host.stop()
