"""Setup mistakes found at session start: one usage error naming the fix, exit code 4, no test run."""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET

import pytest

from pytest_artemis.sim import SimServer

GOAL = '''
import pytest


@pytest.mark.goal("Do the thing")
def test_one(artemis):
    pass


@pytest.mark.goal("Do the other thing")
def test_two(artemis):
    pass
'''


def usage_error(pytester: pytest.Pytester, *args: str) -> str:
    """Run, expect exit code 4 with one ``ERROR:`` line on stderr and no test run; return that line."""
    result = pytester.runpytest("-p", "no:cacheprovider", *args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR, result.stdout.str()
    errors = [line for line in result.stderr.lines if line.startswith("ERROR:")]
    assert len(errors) == 1, result.stderr.str()
    assert " passed" not in result.stdout.str() and " error" not in result.stdout.str()
    return errors[0]


@pytest.fixture
def project(suite):
    suite.makepyfile(test_goal=GOAL)
    return suite


def test_no_device(project):
    line = usage_error(project)
    assert "no device configured: pass --artemis-device=" in line and "ARTEMIS_DEVICE" in line


def test_sim_zero(project):
    line = usage_error(project, "--artemis-device=sim:0")
    assert "--artemis-device=sim:0: N must be between 1 and 16" in line


@pytest.mark.parametrize(("spec", "says"), [
    ("emulator-5554;reboot", "'emulator-5554;reboot' is not a device"),
    ("emulator-5554,emulator-5554", "emulator-5554 listed twice"),
])
def test_malformed_device_lists(project, spec, says):
    assert says in usage_error(project, f"--artemis-device={spec}")


def test_a_serial_the_adb_server_does_not_have(project):
    with SimServer(devices=1) as server:
        line = usage_error(project, "--artemis-device=emulator-5999",
                           f"--artemis-adb-server={server.host}:{server.port}")
    assert "emulator-5999 is not attached to the adb server at" in line
    assert "attached: emulator-5554 (device)" in line and "adb devices" in line


def test_an_unreachable_adb_server(project, monkeypatch):
    monkeypatch.setenv("ADBUTILS_ADB_PATH", "/bin/true")  # adbutils must not start a real server
    line = usage_error(project, "--artemis-device=emulator-5554", "--artemis-adb-server=127.0.0.1:9")
    assert "cannot reach the adb server at 127.0.0.1:9" in line and "adb start-server" in line
    assert "0 usable device(s) in the pool 127.0.0.1:9/emulator-5554 for 1 worker(s)" in line


def test_an_artifacts_directory_that_cannot_be_written(project):
    blocker = project.path / "not-a-dir"
    blocker.write_text("a file where the directory should be")
    line = usage_error(project, "--artemis-device=sim", f"--artemis-artifacts={blocker / 'artifacts'}")
    assert "the artifacts directory is not writable" in line and "--artemis-artifacts=" in line


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes through read-only permissions")
def test_a_read_only_artifacts_directory(project):
    read_only = project.path / "ro"
    read_only.mkdir(mode=0o500)
    assert "not writable (Permission denied)" in usage_error(project, "--artemis-device=sim",
                                                              f"--artemis-artifacts={read_only}")


def test_no_model_without_a_fixture_override(pytester):
    pytester.makepyfile(test_goal=GOAL)
    line = usage_error(pytester, "--artemis-device=sim")
    assert "no model configured" in line and "--artemis-model" in line and "artemis_model" in line


@pytest.mark.parametrize(("option", "says"), [
    ("--artemis-model=open ai/gpt-4o", "is not a model name"),
    ("--artemis-api-base=localhost:8000", "is not an http(s) URL"),
])
def test_malformed_model_settings(project, option, says):
    assert says in usage_error(project, "--artemis-device=sim", option)


def test_no_check_runs_without_artemis_tests(pytester):
    pytester.makepyfile(test_plain="def test_plain():\n    pass\n")
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=1)
    assert not (pytester.path / ".artemis").exists()


def test_a_conftest_device_or_model_skips_those_checks(pytester):
    pytester.makeconftest('''
        import pytest

        @pytest.fixture(scope="session")
        def artemis_device():
            pytest.skip("this suite brings its own device")

        @pytest.fixture
        def artemis_model():
            return None
    ''')
    pytester.makepyfile(test_goal=GOAL)
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(skipped=2)


def xdist_usage_error(pytester: pytest.Pytester, *args: str) -> str:
    """Under ``-n 2``: exit code 4, the message printed once (one collection error of the session, not one
    per worker or test), no test run; return the message."""
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-n", "2", "--junitxml=junit.xml", *args)
    out = result.stdout.lines
    assert result.ret == pytest.ExitCode.USAGE_ERROR, result.stdout.str()
    assert "2 workers [0 items]" in out and "ERROR at setup" not in result.stdout.str()
    result.assert_outcomes(errors=1)
    message = out[out.index(next(line for line in out if "ERROR collecting test session" in line)) + 1]
    assert out.count(message) == 1, result.stdout.str()
    errors = ET.parse(pytester.path / "junit.xml").getroot().findall(".//testcase/error")
    shaped = [(e.get("type"), e.get("message")) for e in errors]
    assert shaped == [("artemis.usage", f"USAGE ERROR: {message}")]
    return message


def test_no_device_under_xdist(project):
    assert "no device configured: pass --artemis-device=" in xdist_usage_error(project)


def test_too_few_usable_devices_under_xdist_stop_the_controller_before_any_worker(project):
    """The controller checks every device before starting workers: one usable device for two workers is
    one line and exit code 4, naming the quarantined device; no worker starts."""
    with SimServer(devices=1) as server:
        where = f"{server.host}:{server.port}"
        result = project.runpytest_subprocess("-p", "no:cacheprovider", "-n", "2",
                                              f"--artemis-device={where}/emulator-5554,{where}/emulator-5999")
    assert result.ret == pytest.ExitCode.USAGE_ERROR, result.stdout.str()
    errors = [line for line in result.stderr.lines + result.stdout.lines if line.startswith("ERROR: ")]
    assert len(errors) == 1, result.stdout.str() + result.stderr.str()
    pool = f"{where}/emulator-5554, {where}/emulator-5999"
    assert f"1 usable device(s) in the pool {pool} for 2 worker(s)" in errors[0]
    assert f"{where}/emulator-5999: emulator-5999 is not attached to the adb server at {where}" in errors[0]
    assert "bringing up nodes" not in result.stdout.str()


def test_no_model_under_xdist(pytester):
    pytester.makepyfile(test_goal=GOAL)
    line = xdist_usage_error(pytester, "--artemis-device=sim")
    assert "no model configured" in line and "--artemis-model" in line


def test_an_unwritable_artifacts_directory_under_xdist(project):
    (project.path / "not-a-dir").write_text("a file where the directory should be")
    line = xdist_usage_error(project, "--artemis-device=sim", "--artemis-artifacts=not-a-dir/artifacts")
    assert "the artifacts directory is not writable" in line


def test_a_malformed_device_spec_under_xdist(project):
    result = project.runpytest_subprocess("-p", "no:cacheprovider", "-n", "2", "--artemis-device=sim:0")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert [line for line in result.stderr.lines if line.startswith("ERROR:")] == [
        "ERROR: --artemis-device=sim:0: N must be between 1 and 16"]
