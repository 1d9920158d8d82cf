"""Provider faults through LiteLLM against a loopback server: rate limits, outages, cut streams, key leaks."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest
from brain_server import Call, as_json, error, settings_brain, streamed
from fault_harness import run_matrix
from fault_scripts import SERVERS

SETTINGS_TEST = '''
import pytest
from pytest_artemis import probes


@pytest.mark.goal("Open the Settings app")
@pytest.mark.verify("Settings is in the foreground", probe=probes.foreground("com.android.settings"))
@pytest.mark.assert_("The Settings title is shown")
def test_open_settings(artemis):
    pass
'''


def model_args(api_base: str, key: str | None = "sk-fault-matrix") -> tuple[str, ...]:
    args = ("--artemis-model=openai/fault-matrix", f"--artemis-api-base={api_base}")
    return (*args, f"--artemis-api-key={key}") if key else args


def test_two_rate_limits_then_success_passes_with_the_retries_on_record(pytester, brain):
    def rate_limited(call: Call):
        return error(429, "rate limit reached", headers={"retry-after-ms": "20"}) if call.number <= 2 \
            else settings_brain(call)

    brain.brain = rate_limited
    pytester.makepyfile(test_settings=SETTINGS_TEST)
    matrix = run_matrix(pytester, *model_args(brain.api_base))
    matrix.expect("test_open_settings", "PASSED")
    record = matrix.journal("test_open_settings")
    first = record.model_calls[0]
    assert (first.role, first.status, first.retries, first.http_status) == ("planner", "ok", 2, 200)
    assert all(c.retries == 0 and c.status == "ok" for c in record.model_calls[1:])
    assert [c.schema for c in brain.calls[:3]] == ["PlanReply"] * 3
    assert record.outcome.usage.roles["planner"].calls == 1


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.parametrize("down", ["connection refused", "HTTP 500"])
def test_a_provider_that_is_down_is_an_infrastructure_error_not_blocked(pytester, brain, down):
    brain.brain = lambda call: error(500, "internal error", headers={"retry-after-ms": "20"})
    api_base = f"http://127.0.0.1:{_closed_port()}/v1" if down == "connection refused" else brain.api_base
    pytester.makepyfile(test_settings=SETTINGS_TEST)
    matrix = run_matrix(pytester, *model_args(api_base))
    case = matrix.expect("test_open_settings", "ERROR")
    assert "BLOCKED" not in case.message
    kind = "ModelConnectionRefused" if down == "connection refused" else "ModelUnavailable"
    assert f"ERROR: infrastructure failure (model) {kind}" in case.message
    record = matrix.journal("test_open_settings")
    assert record.execution == "crashed" and record.terminal is not None  # closed, with the reason
    assert record.outcome.infra.kind == "model" and record.steps == ()
    (planner,) = record.model_calls
    assert planner.role == "planner" and planner.status != "ok" and planner.retries == 2
    assert len(brain.calls) == (3 if down == "HTTP 500" else 0)


STREAM_CONFTEST = '''
import pytest
from pytest_artemis.models import LiteLLMModel, ModelSet
from pytest_artemis.plugin import artemis_options


@pytest.fixture
def artemis_model(pytestconfig):
    options = artemis_options(pytestconfig)
    return ModelSet.uniform(LiteLLMModel(options.model, api_base=options.api_base, api_key=options.api_key,
                                         stream=True))
'''

STREAM_TEST = '''
import pytest
from pytest_artemis import probes


@pytest.mark.goal("Add an alarm in the Clock app", app="com.google.android.deskclock")
@pytest.mark.verify("An enabled 7:30 AM alarm exists", probe=probes.alarm_set("07:30"))
def test_cut_stream(artemis):
    pass
'''

TAP_ADD_ALARM = {"decision": "open the time entry", "actions": [{"kind": "tap", "x": 930, "y": 2140}],
                 "plan": "- [x] Add the alarm\n"}


@pytest.mark.parametrize("cut", ["after the whole tool call", "mid JSON"])
def test_a_stream_cut_before_its_end_executes_no_action(project, brain, cut):
    content = json.dumps(TAP_ADD_ALARM)
    content = content if cut == "after the whole tool call" else content[: content.index('"y"')]
    clocks: list[int] = []

    def cutting(call: Call):
        if call.schema != "OperatorDecision":
            plan = {"plan": "- [ ] Add the alarm\n"}
            return as_json(plan if call.schema == "PlanReply" else {"verdicts": []}, stream=call.stream)
        clocks.append(SERVERS[-1].phone("emulator-5554").clock_ms)
        return streamed(content, finish_reason=None, done=False)  # the connection closes here

    brain.brain = cutting
    project.makeconftest(STREAM_CONFTEST)
    project.makepyfile(test_stream=STREAM_TEST)
    matrix = run_matrix(project, *model_args(brain.api_base), "--artemis-max-steps=2")
    matrix.expect("test_cut_stream", "BLOCKED")
    record = matrix.journal("test_cut_stream")
    assert len(record.steps) == 2
    for step in record.steps:
        assert step.results == () and step.actions == () and "model_failed" in step.flags
        assert step.pre_screen == step.post_screen
    operator = [c for c in record.model_calls if c.role == "operator"]
    assert len(operator) == 2
    assert all(c.status == "truncated" and c.stream_complete is False for c in operator)
    # The phone proves it: simulated time moves only on input, and none arrived after the app launch.
    phone = SERVERS[-1].phone("emulator-5554")
    assert clocks and set(clocks) == {phone.clock_ms}
    assert phone.state.foreground.startswith("com.google.android.deskclock/")


SECRET_TESTS = '''
import pytest


@pytest.mark.goal("Open the Settings app")
@pytest.mark.assert_("The Settings title is shown")
def test_leaky_model(artemis):
    pass


@pytest.mark.goal("Open the Settings app [auth]")
@pytest.mark.assert_("The Settings title is shown")
def test_leaky_provider_error(artemis):
    pass
'''

SENTINEL = "sk-artemis-SENTINEL-7f3a9c1e5b"
PROVIDER_SENTINEL = "sk-provider-SENTINEL-0d4e8b2a6c"


@pytest.mark.parametrize("via", ["--artemis-api-key", "ARTEMIS_API_KEY"])
def test_api_keys_reach_no_artifact_junit_or_terminal(pytester, brain, monkeypatch, via):
    def leaky(call: Call):
        echo = f" (sent with key {call.api_key}; provider env {PROVIDER_SENTINEL})"
        if "[auth]" in call.text:
            return error(401, f"Incorrect API key provided: {call.api_key}{echo}", code="invalid_api_key")
        return settings_brain(call, echo=echo)

    brain.brain = leaky
    monkeypatch.setenv("OPENAI_API_KEY", PROVIDER_SENTINEL)
    if via == "ARTEMIS_API_KEY":
        monkeypatch.setenv("ARTEMIS_API_KEY", SENTINEL)
    pytester.makepyfile(test_secret=SECRET_TESTS)
    pytester.makeini("[pytest]\njunit_logging = system-out\n")  # evidence lands in <system-out> too
    key = SENTINEL if via == "--artemis-api-key" else None
    matrix = run_matrix(pytester, *model_args(brain.api_base, key), "-rA")
    matrix.expect("test_leaky_model", "PASSED")
    matrix.expect("test_leaky_provider_error", "ERROR")
    assert {c.api_key for c in brain.calls} == {SENTINEL}  # it was really sent, and echoed back
    files = [p for p in Path(pytester.path, ".artemis").rglob("*") if p.is_file()]
    files.append(Path(pytester.path, "junit.xml"))
    assert len(files) > 10
    for secret in (SENTINEL, PROVIDER_SENTINEL):
        leaks = [str(p) for p in files if secret.encode() in p.read_bytes()]
        assert leaks == [], f"{secret} leaked into {leaks}"
        assert secret not in matrix.result.stdout.str() + matrix.result.stderr.str()
    # The echoes were recorded, redacted: the leak paths were really exercised.
    steps = next(p for p in files if p.name == "steps.jsonl").read_text()
    assert "sent with key [REDACTED]; provider env [REDACTED]" in steps
    assert "sent with key [REDACTED]" in Path(pytester.path, "junit.xml").read_text()
