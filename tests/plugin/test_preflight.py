"""Setup mistakes found at session start: one usage error naming the fix, exit code 4, no test run."""

from __future__ import annotations

import contextlib
import os
import re
import socket
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from plugin_helpers import run_junit

from pytest_artemis.sim import SimServer

GOAL = '''
import pytest


@pytest.mark.goal("Turn on Bluetooth")
def test_one(artemis):
    pass


@pytest.mark.goal("Turn on Bluetooth")
def test_two(artemis):
    pass
'''


def usage_error(pytester: pytest.Pytester, *args: str) -> str:
    """Run, expect exit code 4 with one ``ERROR:`` line on stderr, within seconds and no test run; return that
    line."""
    result = pytester.runpytest("-p", "no:cacheprovider", *args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR, result.stdout.str()
    assert result.duration < 15, result.duration  # found at the start, not after a first test or request
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


@pytest.mark.parametrize("server", ["127.0.0.1:9", "127.0.0.1:5037"])
def test_an_unreachable_adb_server_is_reported_and_no_adb_daemon_is_started(project, monkeypatch, server):
    """adbutils runs `adb start-server` when a connection is refused (and leaves the daemon running): the
    check looks first, so no adb binary is ever run by the plugin."""
    if server.endswith(":5037"):
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", 5037), timeout=1):
            pytest.skip("an adb server is running on this machine")
    called = project.path / "adb-was-run"
    adb = project.path / "fake-adb"
    adb.write_text(f"#!/bin/sh\necho \"$@\" >> {called}\n")
    adb.chmod(0o755)
    monkeypatch.setenv("ADBUTILS_ADB_PATH", str(adb))
    line = usage_error(project, "--artemis-device=emulator-5554", f"--artemis-adb-server={server}")
    assert f"cannot reach the adb server at {server}" in line and "adb start-server" in line
    assert f"0 usable device(s) in the pool {server}/emulator-5554 for 1 worker(s)" in line
    assert not called.exists(), called.read_text()


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


@pytest.mark.slow  # the same worker path as test_no_device_under_xdist
def test_no_model_under_xdist(pytester):
    pytester.makepyfile(test_goal=GOAL)
    line = xdist_usage_error(pytester, "--artemis-device=sim:2")
    assert "no model configured" in line and "--artemis-model" in line


@pytest.mark.slow  # the same worker path as test_no_device_under_xdist
def test_an_unwritable_artifacts_directory_under_xdist(project):
    (project.path / "not-a-dir").write_text("a file where the directory should be")
    line = xdist_usage_error(project, "--artemis-device=sim:2", "--artemis-artifacts=not-a-dir/artifacts")
    assert "the artifacts directory is not writable" in line


def test_a_malformed_device_spec_under_xdist(project):
    result = project.runpytest_subprocess("-p", "no:cacheprovider", "-n", "2", "--artemis-device=sim:0")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert [line for line in result.stderr.lines if line.startswith("ERROR:")] == [
        "ERROR: --artemis-device=sim:0: N must be between 1 and 16"]


@pytest.mark.parametrize(("where", "origin"), [
    (("--artemis-ocr=rapidocr",), "--artemis-ocr=rapidocr"),
    ((), "ini artemis_ocr = rapidocr"),
])
def test_ocr_configured_without_its_extra(project, monkeypatch, where, origin):
    project.makeini("[pytest]\nartemis_ocr = rapidocr\n")
    monkeypatch.setitem(sys.modules, "onnxruntime", None)  # what `import onnxruntime` finds uninstalled
    line = usage_error(project, "--artemis-device=sim", *where)
    assert line.startswith(f"ERROR: {origin}: OCR is configured but its extra is not installed")
    # This package runs from a clone, so the fix is the clone's editable install with the extra.
    clone = Path(__file__).resolve().parents[2]
    assert "no module onnxruntime" in line and f'pip install -e "{clone}[ocr]"' in line


def test_an_installed_package_names_the_extra_on_the_index(monkeypatch):
    from pytest_artemis.plugin import preflight

    monkeypatch.setattr(preflight, "_editable_checkout", lambda: None)
    advice = 'no module rapidocr: pip install "pytest-artemis[ocr]"'
    assert preflight._as_installed(advice) == advice


def test_more_xdist_workers_than_devices(project):
    """The controller counts the devices before starting any worker: one line and exit code 4, in
    seconds, not one error per worker or test."""
    result = project.runpytest_subprocess("-p", "no:cacheprovider", "-n", "2", "--artemis-device=sim",
                                          "--junitxml=junit.xml")
    assert result.ret == pytest.ExitCode.USAGE_ERROR, result.stdout.str()
    assert result.duration < 15, result.duration
    errors = [line for line in result.stderr.lines + result.stdout.lines if line.startswith("ERROR")]
    assert errors == ["ERROR: -n 2 starts 2 xdist workers but --artemis-device=sim gives 1 device: each "
                      "worker leases one device for the whole session; give a device per worker (e.g. "
                      "--artemis-device=sim:2) or start fewer workers (-n 1)"], result.stdout.str()
    assert "bringing up nodes" not in result.stdout.str() and "During handling" not in result.stderr.str()


@pytest.mark.slow  # test_xdist_timeout's two-worker runs pass the same way
def test_as_many_devices_as_workers_pass(project):
    result = project.runpytest_subprocess("-p", "no:cacheprovider", "-n", "2", "--artemis-device=sim:2")
    result.assert_outcomes(passed=2)


@pytest.fixture(scope="module")
def litellm_loaded():
    """litellm imported in this process before pytester's snapshot of the loaded modules (a module-scoped
    fixture is set up before it), so in-process runs do not unload it: it cannot be imported twice."""
    from pytest_artemis.models.loading import load_litellm

    load_litellm()


@pytest.fixture
def keyless(monkeypatch, litellm_loaded):
    for name in [n for n in os.environ if n.endswith("_API_KEY")] + ["ARTEMIS_MODEL", "ARTEMIS_API_BASE"]:
        monkeypatch.delenv(name, raising=False)


@pytest.mark.parametrize(("model", "says"), [
    ("opnai/gpt-4o", "'opnai' is not a provider litellm knows (did you mean openai/gpt-4o?)"),
    ("gpt-9000", "it names no provider"),
])
def test_a_model_litellm_cannot_route(project, keyless, model, says):
    line = usage_error(project, "--artemis-device=sim", f"--artemis-model={model}",
                       "--artemis-api-key=sk-test-0123456789")
    assert line.startswith(f"ERROR: --artemis-model={model}: litellm cannot route {model!r}: {says}")
    assert "sk-test-0123456789" not in line


def test_a_per_role_model_is_checked_too(project, keyless, monkeypatch):
    monkeypatch.setenv("ARTEMIS_CHECKER_MODEL", "anthropc/claude-3-5-sonnet-latest")
    line = usage_error(project, "--artemis-device=sim", "--artemis-model=openai/gpt-4o",
                       "--artemis-api-key=k")
    assert "ARTEMIS_CHECKER_MODEL=anthropc/claude-3-5-sonnet-latest: litellm cannot route" in line
    assert "did you mean anthropic/claude-3-5-sonnet-latest?" in line


def test_a_missing_api_key(project, keyless):
    line = usage_error(project, "--artemis-device=sim", "--artemis-model=openai/gpt-4o")
    assert line.startswith("ERROR: --artemis-model=openai/gpt-4o: its provider's API key is not in the "
                           "environment (OPENAI_API_KEY)")
    assert "--artemis-api-key" in line and "--artemis-no-credentials-check" in line


@pytest.mark.parametrize("setup", [
    ("--artemis-api-key=sk-test-0123456789",),         # the key is passed, not exported
    ("--artemis-api-base=http://127.0.0.1:9/v1",),     # a local OpenAI-compatible server needs no key
    ("ENV:ARTEMIS_NO_CREDENTIALS_CHECK=1",),           # the user's way out (a proxy adds the key, …)
    ("ENV:OPENAI_API_KEY=sk-test-0123456789",),
], ids=["api-key", "api-base", "opt-out", "exported"])
def test_set_ups_that_bring_their_key_otherwise_pass(project, keyless, monkeypatch, setup):
    args = []
    for item in setup:
        if item.startswith("ENV:"):
            monkeypatch.setenv(*item[4:].split("=", 1))
        else:
            args.append(item)
    # The project's conftest overrides artemis_model with a scripted one: the check still reads the options.
    result = project.runpytest("-p", "no:cacheprovider", "--artemis-device=sim",
                               "--artemis-model=openai/gpt-4o", *args)
    result.assert_outcomes(passed=2)


def test_the_kill_switch_with_a_model_configured(project, keyless, monkeypatch):
    monkeypatch.setenv("ARTEMIS_ALLOW_MODEL_REQUESTS", "0")
    line = usage_error(project, "--artemis-device=sim", "--artemis-model=openai/gpt-4o",
                       "--artemis-api-key=k")
    assert "--artemis-model=openai/gpt-4o configures a real model, but ARTEMIS_ALLOW_MODEL_REQUESTS=0 " \
        "blocks" in line


def test_the_kill_switch_in_a_run_is_a_configuration_refusal(pytester, keyless, monkeypatch):
    """A conftest that builds a real model itself is refused by the kill switch at its first call: a usage
    ERROR saying what blocked it, never a harness bug with a traceback."""
    monkeypatch.setenv("ARTEMIS_ALLOW_MODEL_REQUESTS", "0")
    pytester.makeconftest('''
        import pytest
        from pytest_artemis import LiteLLMModel, ModelSet

        @pytest.fixture
        def artemis_model():
            return ModelSet.uniform(LiteLLMModel("openai/gpt-4o", api_key="k"))
    ''')
    pytester.makepyfile(test_goal=GOAL)
    result, cases = run_junit(pytester, "--artemis-device=sim")
    first = cases["test_one"]
    assert first.result == "error" and first.props["artemis.infra"] == "usage/ModelRequestsBlocked"
    assert re.match(r"ERROR: usage error on device 127\.0\.0\.1:\d+/emulator-5554: real model requests are "
                    r"blocked \(ARTEMIS_ALLOW_MODEL_REQUESTS=0\)", first.message), first.message
    assert "harness" not in result.stdout.str() and "Traceback" not in first.text
