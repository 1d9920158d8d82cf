"""How long a model call may take: the model's own timeouts, else the run's (per role), else 45 s / 40 s;
a timeout names the setting that gives the call more time. And a local server needs no key."""

from __future__ import annotations

import asyncio

import pytest
from fake_openai_server import ok
from model_test_schemas import Decision

from pytest_artemis.contracts import ModelTimeouts, Role
from pytest_artemis.models import ChatMessage, LiteLLMModel, ModelTimeout, call_timeouts

GOOD = '{"decision": "tap add", "actions": [{"kind": "tap", "target": "Add alarm"}]}'
MESSAGES = (ChatMessage(role="system", text="You operate a phone."), ChatMessage(role="user", text="go"))


def ask(model: LiteLLMModel, timeouts: ModelTimeouts | None = None, role: Role = "operator") -> Decision:
    async def go() -> Decision:
        with call_timeouts(timeouts):
            return (await model.complete(role, MESSAGES, Decision)).value

    return asyncio.run(go())


def local(server, **kw) -> LiteLLMModel:
    return LiteLLMModel("openai/test-model", api_base=server.api_base, api_key="sk-test", **kw)


def test_the_runs_call_timeout_bounds_a_model_given_none_and_is_named(server):
    server.script(ok(GOOD, delay_s=5))
    with pytest.raises(ModelTimeout) as caught:
        ask(local(server, max_retries=0), ModelTimeouts(call_s=0.6, attempt_s=0.6))
    message = str(caught.value)
    assert "no answer within the operator call timeout of 0.6s" in message
    assert "raise --artemis-model-timeout" in message and "--artemis-time-budget" not in message


def test_a_role_of_its_own_has_its_own_timeout_and_option(server):
    server.script(ok(GOOD, delay_s=5))
    timeouts = ModelTimeouts(call_s=60, attempt_s=60, roles={"checker": 0.6})
    with pytest.raises(ModelTimeout) as caught:
        ask(local(server, max_retries=0), timeouts, role="checker")
    assert "checker call timeout of 0.6s" in str(caught.value)
    assert "raise --artemis-checker-model-timeout" in str(caught.value)


def test_an_attempt_that_keeps_timing_out_names_the_attempt_timeout(server):
    server.script(ok(GOOD, delay_s=5))
    with pytest.raises(ModelTimeout) as caught:
        ask(local(server, max_retries=1), ModelTimeouts(call_s=30, attempt_s=0.3))
    assert caught.value.record is None or caught.value.record.retries == 1
    assert len(server.requests) == 2
    message = str(caught.value)
    assert "an attempt's 0.3s, within the call timeout of 30s, after 1 retries" in message
    assert "raise --artemis-model-attempt-timeout or --artemis-model-timeout" in message


def test_the_models_own_timeouts_win_and_are_named(server):
    server.script(ok(GOOD, delay_s=5))
    with pytest.raises(ModelTimeout) as caught:
        ask(local(server, max_retries=0, budget_s=0.6, timeout_s=0.6), ModelTimeouts(call_s=600))
    assert "call timeout of 0.6s" in str(caught.value) and "LiteLLMModel(budget_s=…)" in str(caught.value)


def test_a_hung_call_with_the_default_split_names_the_call_timeout(server):
    server.script(ok(GOOD, delay_s=5))
    with pytest.raises(ModelTimeout) as caught:  # attempts of 1 s within 1.2 s: the second is cut short
        ask(local(server, max_retries=2), ModelTimeouts(call_s=1.2, attempt_s=1.0))
    assert "no answer within the operator call timeout of 1.2s" in str(caught.value)


def test_a_slow_model_answers_once_its_timeout_is_raised(server):
    server.script(ok(GOOD, delay_s=1.5))
    with pytest.raises(ModelTimeout):
        ask(local(server, max_retries=0), ModelTimeouts(call_s=1))
    assert ask(local(server, max_retries=0), ModelTimeouts(call_s=10)).decision == "tap add"


def test_a_local_server_without_a_key_is_called_with_none_needed(server, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    server.script(ok(GOOD))
    assert ask(LiteLLMModel("openai/test-model", api_base=server.api_base)).decision == "tap add"
    assert server.request_headers[-1]["authorization"] == "Bearer no-key"
    monkeypatch.setenv("OPENAI_API_KEY", "sk-from-the-environment")  # the provider's variable still wins
    ask(LiteLLMModel("openai/test-model", api_base=server.api_base))
    assert server.request_headers[-1]["authorization"] == "Bearer sk-from-the-environment"
