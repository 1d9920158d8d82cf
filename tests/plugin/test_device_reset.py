"""The device reset policy between tests, end to end on the simulated phone (one phone, tests in order)."""

from __future__ import annotations

import pytest
from plugin_helpers import assert_words, run_junit

from pytest_artemis.store import read_run

ORDERED = '''
import pytest

CLOCK = "com.google.android.deskclock"


@pytest.mark.goal("Turn on Bluetooth", app=CLOCK)
@pytest.mark.verify("PASS: Bluetooth on")
def test_1_leaves_leftovers(artemis):
    artemis.device.check(["settings", "put", "global", "airplane_mode_on", "1"])
    artemis.device.check(["am", "start", "-n", CLOCK + "/com.android.deskclock.DeskClock"])


@pytest.mark.goal("Turn on Bluetooth", app=CLOCK)
@pytest.mark.verify("PASS: Bluetooth on")
def test_2_sees(artemis):
    print("airplane=" + artemis.device.check(["settings", "get", "global", "airplane_mode_on"]).strip())
    assert False, "show the output"
'''


@pytest.mark.parametrize(("reset", "airplane"), [
    pytest.param("none", "1", marks=pytest.mark.slow), ("app", "1"), ("full", "0"),
])
def test_reset_policy(suite, reset, airplane):
    suite.makepyfile(test_order=ORDERED)
    result, cases = run_junit(suite, "--artemis-device=sim", f"--artemis-reset={reset}")
    assert_words(result, passed=1, failed=1)
    assert f"airplane={airplane}" in result.stdout.str()
    events = read_run(cases["test_2_sees"].props["artemis.artifacts"]).events
    steps = [e.fields["step"] for e in events if e.kind == "setup_step"]
    resets = [(s["args"]["scope"], s["args"].get("app")) for s in steps if s["action"] == "reset"]
    assert resets == ([] if reset == "none" else [(reset, "com.google.android.deskclock")])
    assert [s["action"] for s in steps] == (["reset"] if reset != "none" else []) + ["isolate"]


def test_a_full_reset_a_device_cannot_do_is_an_error_naming_the_policy(suite):
    suite.makeconftest(suite.path.joinpath("conftest.py").read_text() + '''

class NoFullReset:
    def __init__(self, device):
        self._device = device

    def __getattr__(self, name):
        return getattr(self._device, name)

    def reset(self, scope, package=None):
        from pytest_artemis.contracts import UsageError
        raise UsageError("this phone has no full reset")


@pytest.fixture(scope="session")
def artemis_device(artemis_device):
    return NoFullReset(artemis_device)
''')
    suite.makepyfile(test_one='''
        import pytest

        @pytest.mark.goal("Turn on Bluetooth")
        def test_one(artemis):
            pass
    ''')
    result, cases = run_junit(suite, "--artemis-device=sim", "--artemis-reset=full")
    assert_words(result, errors=1)
    message = cases["test_one"].message
    assert "/emulator-5554 failed: this phone has no full reset" in message
    assert "device reset (full) on 127.0.0.1:" in message  # the server is part of the device's name
