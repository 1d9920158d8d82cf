"""docs/device-farms.md's lease backend, run as written: its ``conftest.py`` block leases the simulated
phones of a device host through a shared folder, for a two-worker session; the plugin acquires and
releases through it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pytest_artemis.sim import SimServer

PAGE = Path(__file__).resolve().parents[2] / "docs" / "device-farms.md"

MODEL_STAND_IN = '''
import pytest
from pytest_artemis.testing import finish, on_screen, scripted_agent, tap


@pytest.fixture
def artemis_model():
    return scripted_agent(tap("Settings"), finish(), goal=on_screen("Network & internet"))
'''

TESTS = '''
import pytest


@pytest.mark.parametrize("n", range(4))
@pytest.mark.goal("Open Settings")
def test_home(artemis, n):
    pass
'''


def _block(name: str) -> str:
    blocks = re.findall(r"^```python\n(.*?)^```", PAGE.read_text(encoding="utf-8"), re.MULTILINE | re.DOTALL)
    return next(b for b in blocks if b.startswith(f"# {name}\n"))


def test_the_shared_folder_backend_leases_each_device_once(pytester: pytest.Pytester, monkeypatch):
    project = pytester.mkdir("project")
    pytester.makeconftest(MODEL_STAND_IN)  # the directory above the user's project brings the model
    project.joinpath("conftest.py").write_text(_block("conftest.py"), encoding="utf-8")
    project.joinpath("test_home.py").write_text(TESTS, encoding="utf-8")
    leases = pytester.path / "leases"
    with SimServer(devices=2) as server:
        monkeypatch.setenv("FARM_LEASES", str(leases))
        monkeypatch.setenv("FARM_DEVICES", ",".join(f"{server.address}/{s}" for s in server.serials))
        result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-n", "2", "--artemis-reset=full",
                                             str(project))
    result.assert_outcomes(passed=4)
    assert leases.is_dir() and list(leases.iterdir()) == []  # every lease released
