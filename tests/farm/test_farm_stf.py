"""End to end against the STF REST double: sessions book devices with --artemis-device=stf:N, two sessions
contend for them (never the same device twice), a killed worker's booking is released; the token is in
no artifact, report or log."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from plugin_helpers import parse_junit
from stf_double import StfDouble, overlapping_bookings

from pytest_artemis.sim import SimServer

TOKENS = {"runner-a-token-5f1c": "runner-a@example.com", "runner-b-token-9d2e": "runner-b@example.com"}

TESTS = '''
import pytest

@pytest.mark.parametrize("n", range({count}))
@pytest.mark.goal("Turn on Bluetooth{tag}")
@pytest.mark.verify("Bluetooth is on")
def test_thing(artemis, n):
    pass
'''


@pytest.fixture
def local():
    with SimServer(devices=0) as server:  # the runners' own adb server, which `adb connect` attaches to
        yield server


def _run(
    project: Path, stf: StfDouble, local: SimServer, token: str, name: str, *args: str
) -> subprocess.Popen:
    env = os.environ | {"ARTEMIS_STF_TOKEN": token}
    return subprocess.Popen(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "2", "--artemis-device=stf:2",
         f"--artemis-stf-url={stf.url}", f"--artemis-adb-server={local.address}",
         f"--artemis-artifacts={name}-artifacts", f"--junitxml={name}.xml", "--artemis-lease-timeout=120",
         *args], cwd=project, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


@pytest.mark.slow
def test_two_sessions_contend_for_the_devices_and_never_share_one(suite, local):
    suite.makepyfile(test_farm=TESTS.format(count=4, tag=""))
    with StfDouble(tokens=TOKENS, devices=3) as stf:
        runs = {name: _run(suite.path, stf, local, token, name)
                for name, token in zip(("a", "b"), TOKENS, strict=True)}
        outputs = {name: run.communicate(timeout=600)[0] for name, run in runs.items()}
        assert [run.returncode for run in runs.values()] == [0, 0], outputs
        assert overlapping_bookings(stf.log) == []
        assert stf.booked() == {}  # every booking released at the end
        assert local.remote.listing(False) == ""  # and every `adb connect` undone
        booked = {user: {e[2] for e in stf.log if e[1] == "book" and e[3] == user}
                  for user in TOKENS.values()}
        assert sum(len(serials) for serials in booked.values()) >= 4  # 4 workers, 3 devices: one waited
    for name, user in zip(("a", "b"), TOKENS.values(), strict=True):
        cases = parse_junit(suite.path / f"{name}.xml")
        assert len(cases) == 4 and all(case.result is None for case in cases.values())
        used = {case.props["artemis.device"].rpartition("/")[2] for case in cases.values()}
        assert used <= booked[user]  # a session ran only on devices it had booked
        assert all(case.props["artemis.device"].startswith("stf://127.0.0.1:") for case in cases.values())
    for token in TOKENS:
        for path in suite.path.rglob("*"):
            if path.is_file():
                assert token.encode() not in path.read_bytes(), path
        assert all(token not in out for out in outputs.values())


@pytest.mark.slow
def test_a_killed_worker_s_booking_is_released(suite, local):
    suite.makepyfile(test_farm=TESTS.format(count=1, tag=""),
                     test_die=TESTS.format(count=1, tag=" [die]").replace("test_thing", "test_dies"))
    with StfDouble(tokens=TOKENS, devices=3) as stf:
        token = next(iter(TOKENS))
        run = _run(suite.path, stf, local, token, "a", "-p", "no:randomly")
        out = run.communicate(timeout=600)[0]
        cases = parse_junit(suite.path / "a.xml")
        dead = cases["test_dies[0]"]
        assert dead.result == "error" and "WorkerCrashed on device stf://127.0.0.1:" in dead.message, out
        dead_serial = dead.props["artemis.device"].rpartition("/")[2]
        events = [e[1] for e in stf.log if e[2] == dead_serial]
        # released by the controller, which leased it
        assert events[:4] == ["book", "connect", "disconnect", "release"], stf.log
        assert stf.booked() == {} and overlapping_bookings(stf.log) == []
        assert cases["test_thing[0]"].result is None


def test_stf_needs_its_url_and_token(suite, local):
    suite.makepyfile(test_farm=TESTS.format(count=1, tag=""))
    result = suite.runpytest_subprocess("-p", "no:cacheprovider", "--artemis-device=stf:1")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: --artemis-device=stf:N needs --artemis-stf-url URL*"])
