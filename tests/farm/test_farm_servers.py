"""End to end: one session over simulated phones behind separate adb servers on separate loopback
addresses; a dead or unusable device is quarantined and named, and never drains the queue."""

from __future__ import annotations

import threading

import pytest
from plugin_helpers import assert_words, run_junit

from pytest_artemis.farm.backend import DeviceLease
from pytest_artemis.farm.filelock import AdbSlot, FileLockBackend
from pytest_artemis.sim import SimServer

TESTS = '''
import pytest

@pytest.mark.parametrize("n", range({count}))
@pytest.mark.goal("Turn on Bluetooth")
@pytest.mark.verify("Bluetooth is on")
def test_thing(artemis, n):
    pass
'''

#: Kills the adb server host KILL_PID when the device in use is on KILL_SERVER, at that worker's 2nd test
#: (SIGSTOP instead with KILL_SIGNAL=STOP: a hung server).
KILLER = '''
import os, signal, time

_SEEN = []

@pytest.fixture(autouse=True)
def _kill_the_server(artemis_device):
    if not artemis_device.name.startswith(os.environ["KILL_SERVER"] + "/"):
        time.sleep(float(os.environ.get("HEALTHY_SLEEP", "0")))  # keep the healthy worker busy meanwhile
    else:
        _SEEN.append(1)
        if len(_SEEN) == 2:
            sig = signal.SIGSTOP if os.environ.get("KILL_SIGNAL") == "STOP" else signal.SIGKILL
            os.kill(int(os.environ["KILL_PID"]), sig)
'''


def _names(cases: dict) -> list[str]:
    return [case.props["artemis.device"] for case in cases.values()]


def test_one_session_over_two_servers(suite, hosts):
    a, b = hosts("127.0.0.2", "127.0.0.3")
    suite.makepyfile(test_farm=TESTS.format(count=4))
    result, cases = run_junit(suite, "-n", "2", f"--artemis-device={a.device()},{b.device()}",
                              subprocess=True)
    assert_words(result, passed=4)
    names = _names(cases)
    assert set(names) == {a.device(), b.device()}, names  # each worker its own device, server named


def test_localhost_and_its_address_are_one_device(suite, hosts):
    (a,) = hosts("127.0.0.1")
    port = a.server.rpartition(":")[2]
    suite.makepyfile(test_farm=TESTS.format(count=2))
    result = suite.runpytest_subprocess("-p", "no:cacheprovider", "-n", "2",
                                        f"--artemis-device=localhost:{port}/emulator-5554,"
                                        f"127.0.0.1:{port}/emulator-5554")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    errors = [line for line in result.stderr.lines if line.startswith("ERROR: ")]
    assert len(errors) == 1 and errors[0].endswith(
        f"two entries are one device, 127.0.0.1:{port}/emulator-5554 (the server's address resolved): "
        "list it once"), result.stderr.str()


@pytest.mark.slow
def test_an_offline_phone_at_start_is_quarantined_and_the_others_run(suite, hosts):
    a, b = hosts("127.0.0.2", "127.0.0.3")
    dead = "127.0.0.4:9/emulator-5554"  # nothing listens there
    suite.makepyfile(test_farm=TESTS.format(count=4))
    result, cases = run_junit(suite, "-n", "2", f"--artemis-device={a.device()},{dead},{b.device()}",
                              subprocess=True)
    assert_words(result, passed=4)
    result.stdout.fnmatch_lines([f"artemis: {dead} quarantined: cannot reach the adb server at 127.0.0.4:9*"])
    assert dead not in _names(cases)


@pytest.mark.parametrize("xdist", [pytest.param(True, marks=pytest.mark.slow), False],
                         ids=["xdist", "one-process"])
def test_a_server_killed_mid_session_is_quarantined_and_the_queue_is_not_drained(suite, hosts, monkeypatch,
                                                                                 xdist):
    a, b = hosts("127.0.0.2", "127.0.0.3")
    monkeypatch.setenv("KILL_SERVER", b.server)
    monkeypatch.setenv("KILL_PID", str(b.process.pid))
    suite.makeconftest(suite.path.joinpath("conftest.py").read_text() + KILLER)
    suite.makepyfile(test_farm=TESTS.format(count=10))
    # Without xdist, the dead device is the first one leased, so the process must switch to the other.
    order = f"{b.device()},{a.device()}" if not xdist else f"{a.device()},{b.device()}"
    args = ("-n", "2") if xdist else ()
    result, cases = run_junit(suite, *args, f"--artemis-device={order}", subprocess=True)
    assert_words(result, passed=9, errors=1)
    failed = [name for name, case in cases.items() if case.result == "error"]
    assert len(failed) == 1
    error = cases[failed[0]]
    assert b.device() in error.message and "infrastructure failure (device)" in error.message
    assert _names(cases).count(b.device()) == 2  # its first test passed, the second met the dead server
    out = result.stdout.str()
    assert f"artemis: {b.device()} quarantined: cannot reach the adb server at {b.server}" in out
    if xdist:
        assert "stopped taking tests" in out and "its tests go to the other workers" in out
    else:
        assert f"artemis: going on with {a.device()}" in out


@pytest.mark.slow
def test_a_hung_server_costs_one_test_its_timeout_not_every_test(suite, hosts, monkeypatch):
    a, b = hosts("127.0.0.2", "127.0.0.3")
    monkeypatch.setenv("KILL_SERVER", b.server)
    monkeypatch.setenv("KILL_PID", str(b.process.pid))
    monkeypatch.setenv("KILL_SIGNAL", "STOP")
    monkeypatch.setenv("HEALTHY_SLEEP", "2")  # the queue still holds tests when B is found hung
    suite.makeconftest(suite.path.joinpath("conftest.py").read_text() + KILLER)
    suite.makepyfile(test_farm=TESTS.format(count=8))
    # A smaller call timeout than the default 20 s proves the same: the hang costs one test that long.
    result, cases = run_junit(suite, "-n", "2", f"--artemis-device={a.device()},{b.device()}",
                              "--artemis-device-timeout=4", subprocess=True)
    assert_words(result, passed=7, errors=1)
    error = next(case for case in cases.values() if case.result == "error")
    assert b.device() in error.message and "no answer within 4s" in error.message
    out = result.stdout.str()
    assert f"artemis: {b.device()} quarantined: the adb server gave no answer within 3s" in out
    assert "its tests go to the other workers" in out
    assert _names(cases).count(b.device()) == 2  # one passed, one met the hung server: no other paid


def _hold_the_only_device(server) -> tuple[FileLockBackend, DeviceLease]:
    """Another runner on this machine holds the device (its lock, as a second session would)."""
    other = FileLockBackend([AdbSlot.on(server.host, server.port, "emulator-5554")])
    held = other.try_acquire("another-runner", frozenset())
    assert held is not None
    return other, held


def test_a_lease_waits_for_a_device_another_session_holds(suite):
    suite.makepyfile(test_farm=TESTS.format(count=2))
    with SimServer(devices=1) as server:
        other, held = _hold_the_only_device(server)
        threading.Timer(2.0, other.release, args=(held,)).start()  # the other session ends
        result, cases = run_junit(suite, f"--artemis-device={server.address}/emulator-5554",
                                  "--artemis-lease-timeout=60")
    assert_words(result, passed=2)


def test_no_free_device_within_the_lease_timeout_is_one_infrastructure_error(suite):
    suite.makepyfile(test_farm=TESTS.format(count=3))
    with SimServer(devices=1) as server:
        other, held = _hold_the_only_device(server)
        try:
            result, cases = run_junit(suite, f"--artemis-device={server.address}/emulator-5554",
                                      "--artemis-lease-timeout=1")
        finally:
            other.release(held)
    assert result.ret == pytest.ExitCode.INTERRUPTED
    assert_words(result, errors=1)  # the first test says why; the others do not drain as errors
    (error,) = cases.values()
    assert error.message.startswith("ERROR: infrastructure failure (device) LeaseError: main-")
    assert f"no free device in the pool {server.address}/emulator-5554 within 1s" in error.message
    result.stdout.fnmatch_lines(["*Interrupted: artemis: no usable device left: main-*"])


@pytest.mark.slow
def test_workers_with_their_own_lock_folders_still_get_different_devices(suite, hosts, tmp_path):
    """Workers on other machines do not share lock files (here: each its own TMPDIR, as two machines
    have); the controller leases for them, so they never take the same device."""
    (a,) = hosts("127.0.0.2", devices=2)
    suite.makepyfile(test_farm=TESTS.format(count=6))
    lock_dirs = [tmp_path / "machine-1", tmp_path / "machine-2"]
    for folder in lock_dirs:
        folder.mkdir()
    tx = [arg for folder in lock_dirs for arg in ("--tx", f"popen//env:TMPDIR={folder}")]
    result, cases = run_junit(suite, *tx, "--dist=load", f"--artemis-device={a.device('emulator-5554')},"
                              f"{a.device('emulator-5556')}", subprocess=True)
    assert_words(result, passed=6)
    assert set(_names(cases)) == {a.device("emulator-5554"), a.device("emulator-5556")}
