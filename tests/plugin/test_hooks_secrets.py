"""Our hooks fire in order, a farm plugin can lease the device, and an API key never leaks."""

from __future__ import annotations

from pathlib import Path

from plugin_helpers import run_junit

HOOKS_CONFTEST = '''
import json
from pathlib import Path

EVENTS = []


def pytest_artemis_run_start(item, spec, device, artifacts):
    EVENTS.append(["start", item.name, spec.goal, device.serial, Path(artifacts).is_dir()])


def pytest_artemis_step(item, step):
    EVENTS.append(["step", step.step])


def pytest_artemis_verdict(item, verdict):
    EVENTS.append(["verdict", verdict.status, verdict.item_text])


def pytest_artemis_run_finish(item, outcome, artifacts, word):
    EVENTS.append(["finish", word, outcome.task.status])


def pytest_sessionfinish(session):
    Path("events.json").write_text(json.dumps(EVENTS))
'''

FARM_CONFTEST = '''
import pytest
from pytest_artemis import DeviceLease, Survey
from pytest_artemis.sim import SimServer

SERVER = SimServer(devices=1, seed=3)


class OneDeviceFarm:
    """A farm of one: leases the simulated phone, records every call (a user's own backend)."""

    renew_interval = None

    def __init__(self):
        self.free = True

    def describe(self):
        return "my farm"

    def survey(self):
        return Survey((f"{SERVER.address}/{SERVER.serials[0]}",))

    def try_acquire(self, holder, exclude):
        if not self.free:
            return None
        self.free = False
        CALLS.append("acquire")
        return DeviceLease(f"myfarm/{SERVER.serials[0]}", SERVER.host, SERVER.port, SERVER.serials[0],
                           holder, "myfarm")

    def renew(self, lease):
        pass

    def release(self, lease):
        self.free = True
        CALLS.append("release")


CALLS = []


def pytest_artemis_lease_backend(config):
    SERVER.start()
    config.add_cleanup(SERVER.stop)
    config.add_cleanup(lambda: open("calls.txt", "w").write(",".join(CALLS)))
    return OneDeviceFarm()
'''


def test_run_hooks_fire_in_order(suite):
    suite.makeconftest(suite.path.joinpath("conftest.py").read_text() + HOOKS_CONFTEST)
    suite.makepyfile(test_h='''
        import pytest

        @pytest.mark.goal("Turn on Bluetooth")
        @pytest.mark.verify("PASS: Bluetooth on")
        @pytest.mark.assert_("FAIL: toast")
        def test_hooked(artemis):
            pass
    ''')
    run_junit(suite, "--artemis-device=sim")[0].assert_outcomes(failed=1)
    import json

    events = json.loads(suite.path.joinpath("events.json").read_text())
    assert events[0] == ["start", "test_hooked", "Turn on Bluetooth", "emulator-5554", True]
    assert ["step", 1] in events
    assert ["verdict", "failed", "FAIL: toast"] in events \
        and ["verdict", "passed", "PASS: Bluetooth on"] in events
    assert events[-1] == ["finish", "FAILED", "completed"]


def test_a_farm_plugin_leases_the_device(suite):
    suite.makeconftest(suite.path.joinpath("conftest.py").read_text() + FARM_CONFTEST)
    suite.makepyfile(test_f='''
        import pytest

        @pytest.mark.goal("Turn on Bluetooth")
        @pytest.mark.verify("PASS: Bluetooth on")
        def test_on_farm(artemis):
            assert artemis.device.serial == "emulator-5554"
    ''')
    # No --artemis-device: the hook's backend is used; the plugin acquires and releases through it.
    result, cases = run_junit(suite)
    result.assert_outcomes(passed=1)
    assert cases["test_on_farm"].props["artemis.device"] == "myfarm/emulator-5554"
    assert suite.path.joinpath("calls.txt").read_text() == "acquire,release"


def test_the_api_key_reaches_no_report_junit_terminal_or_artifact(suite, monkeypatch):
    sentinel = "sk-SENTINEL-7f3a9c1e5b"
    # The scripted checker echoes this variable into its evidence, as a leaky model might.
    monkeypatch.setenv("LEAK_VALUE", sentinel)
    suite.makeconftest(suite.path.joinpath("conftest.py").read_text().replace(
        'evidence=f"the item says {said}"',
        'evidence="the screen shows " + os.environ["LEAK_VALUE"]'))
    suite.makepyfile(test_s='''
        import pytest

        @pytest.mark.goal("Turn on Bluetooth")
        @pytest.mark.assert_("FAIL: the key is not shown")
        def test_secret(artemis):
            pass
    ''')
    result, cases = run_junit(suite, "-v", "-rA", "--artemis-device=sim", f"--artemis-api-key={sentinel}")
    result.assert_outcomes(failed=1)
    assert "[REDACTED]" in cases["test_secret"].text
    assert "api_key=***" in result.stdout.str()
    assert sentinel not in result.stdout.str() + result.stderr.str()
    assert sentinel not in Path(suite.path, "junit.xml").read_text()
    files = [p for p in Path(suite.path, ".artemis").rglob("*") if p.is_file()]
    assert files
    for path in files:
        assert sentinel.encode() not in path.read_bytes(), path


def test_no_secret_in_a_collection_error_a_failure_or_its_captured_output(suite, monkeypatch):
    sentinel = "sk-SENTINEL-0c4e8d2a9b"
    monkeypatch.setenv("OPENAI_API_KEY", sentinel)
    suite.makepyfile(test_leaky=f'''
        import os
        import pytest

        @pytest.mark.goal("Turn on Bluetooth", app="{sentinel}")
        def test_bad_marker(artemis):
            pass

        @pytest.mark.goal("Turn on Bluetooth")
        @pytest.mark.verify("PASS: Bluetooth on")
        def test_leaky_body(artemis):
            print("the key is", os.environ["OPENAI_API_KEY"])
            assert os.environ["OPENAI_API_KEY"] == "something else"
    ''')
    result, cases = run_junit(suite, "-rA", "--continue-on-collection-errors", "--artemis-device=sim")
    assert "artemis marker error" in result.stdout.str()  # the collection error is still reported
    assert cases["test_leaky_body"].text  # the leaky test ran and failed
    assert "[REDACTED]" in result.stdout.str()
    assert sentinel not in result.stdout.str() + result.stderr.str()
    assert sentinel not in Path(suite.path, "junit.xml").read_text()
