"""LiteLLMModel against a real OpenAI-compatible HTTP server on loopback (LITELLM_OFFLINE_MODE=true)."""

from __future__ import annotations

import asyncio
import base64
import time

import pytest
from fake_openai_server import error, ok, streamed
from model_test_schemas import Decision

from pytest_artemis.contracts import ModelCallRecord
from pytest_artemis.models import (
    CallLog,
    ChatMessage,
    ImagePart,
    LiteLLMModel,
    ModelContextExceeded,
    ModelOutputInvalid,
    ModelUnavailable,
)
from pytest_artemis.testing import ModelRequestsBlocked, block_model_requests

GOOD = '{"decision": "tap add", "actions": [{"kind": "tap", "target": "Add alarm"}]}'
MESSAGES = (ChatMessage(role="system", text="You operate a phone."), ChatMessage(role="user", text="go"))


def model(server, **kw) -> LiteLLMModel:
    kw.setdefault("timeout_s", 5)
    return LiteLLMModel("openai/test-model", api_base=server.api_base, api_key="sk-test", **kw)


def call(m: LiteLLMModel, messages=MESSAGES, role="operator"):
    sink: list[ModelCallRecord] = []
    try:
        reply = asyncio.run(m.complete(role, messages, Decision, calls=CallLog("run-9", sink.append)))
    except Exception as failure:
        assert len(sink) == 1 and failure.record == sink[0]  # failures are logged too, exactly once
        raise
    assert sink == [reply.record]
    return reply


def test_json_reply_is_validated_with_usage_and_unknown_cost(server):
    server.script(ok(GOOD, usage=(120, 30)))
    reply = call(model(server))
    assert reply.value.actions[0].target == "Add alarm"
    r = reply.record
    assert (r.status, r.http_status, r.finish_reason, r.retries, r.reasks, r.stream) == (
        "ok",
        200,
        "stop",
        0,
        0,
        False,
    )
    assert (r.prompt_tokens, r.completion_tokens, r.scripted) == (120, 30, False)
    assert r.cost_usd is None  # unknown model, no prices given: unknown, never zero
    assert reply.call_id == "run-9/1" and r.latency_ms > 0
    sent = server.requests[0]
    assert sent["model"] == "test-model" and sent["temperature"] == 0.0
    assert sent["response_format"]["type"] == "json_schema"
    assert sent["response_format"]["json_schema"]["schema"] == Decision.model_json_schema()
    assert sent["messages"] == [
        {"role": "system", "content": "You operate a phone."},
        {"role": "user", "content": "go"},
    ]


def test_given_prices_give_a_cost(server):
    server.script(ok(GOOD, usage=(1000, 200)))
    record = call(model(server, input_cost_per_token=1e-6, output_cost_per_token=4e-6)).record
    assert record.cost_usd == pytest.approx(1000 * 1e-6 + 200 * 4e-6)


def test_images_are_sent_as_data_url_parts(server):
    server.script(ok(GOOD))
    jpeg = b"\xff\xd8\xff\xe0fake-jpeg"
    messages = (ChatMessage(role="user", text="what is on screen?", images=(ImagePart(jpeg),)),)
    call(model(server), messages=messages)
    content = server.requests[0]["messages"][0]["content"]
    assert content[0] == {"type": "text", "text": "what is on screen?"}
    url = content[1]["image_url"]["url"]
    assert (
        content[1]["type"] == "image_url"
        and url == "data:image/jpeg;base64," + base64.b64encode(jpeg).decode()
    )


def test_streamed_reply_is_assembled_from_chunks(server):
    server.script(streamed(GOOD, usage=(50, 9)))
    reply = call(model(server, stream=True))
    assert reply.value.decision == "tap add"
    r = reply.record
    assert (r.stream, r.stream_complete, r.arguments_complete, r.finish_reason) == (True, True, True, "stop")
    assert (r.prompt_tokens, r.completion_tokens) == (50, 9)
    assert server.requests[0]["stream"] is True
    assert server.requests[0]["stream_options"] == {"include_usage": True}


def test_stream_cut_before_any_finish_reason_fails_and_is_not_retried(server):
    server.script(streamed(GOOD[:40], finish_reason=None, done=False), ok(GOOD))
    with pytest.raises(ModelOutputInvalid) as caught:
        call(model(server, stream=True))
    r = caught.value.record
    assert caught.value.status == "truncated" == r.status
    assert (r.stream, r.stream_complete, r.arguments_complete, r.finish_reason) == (True, False, False, None)
    assert (r.retries, r.reasks) == (0, 0) and len(server.requests) == 1
    assert r.cost_usd is None  # tokens were spent but never reported


def test_stream_ending_with_length_is_truncated_even_when_the_json_parses(server):
    server.script(streamed(GOOD, finish_reason="length"))
    with pytest.raises(ModelOutputInvalid) as caught:
        call(model(server, stream=True))
    assert caught.value.record.finish_reason == "length" and caught.value.status == "truncated"


def test_missing_finish_reason_in_a_plain_reply_is_truncated(server):
    server.script(ok(GOOD, finish_reason=None))
    with pytest.raises(ModelOutputInvalid) as caught:
        call(model(server))
    assert caught.value.status == "truncated"


def test_malformed_json_is_reasked_once_then_fails(server):
    server.script(ok('{"decision": "tap", "actions": [{"kind": "tap"'))
    with pytest.raises(ModelOutputInvalid) as caught:
        call(model(server, input_cost_per_token=1e-6, output_cost_per_token=1e-6))
    r = caught.value.record
    assert (r.status, r.reasks, r.arguments_complete, r.retries) == ("invalid_output", 1, False, 0)
    assert (r.prompt_tokens, r.completion_tokens) == (22, 14)  # both asks are counted
    assert len(server.requests) == 2
    reask = server.requests[1]["messages"]
    assert reask[-2]["role"] == "assistant" and reask[-1]["role"] == "user"
    assert "not complete valid JSON" in reask[-1]["content"]


def test_schema_violation_then_valid_reply_succeeds_after_one_reask(server):
    server.script(ok('{"decision": "tap", "actions": [{"kind": "jump"}]}'), ok(GOOD))
    reply = call(model(server))
    assert reply.value.decision == "tap add" and reply.record.reasks == 1
    assert "actions.0.kind" in server.requests[1]["messages"][-1]["content"]


def test_rate_limit_then_success_counts_the_retry(server):
    server.script(error(429, "slow down"), ok(GOOD))
    reply = call(model(server, max_retries=2))
    assert reply.record.retries == 1 == len(server.requests) - 1
    assert reply.record.http_status == 200


def test_streamed_request_rejected_then_served_counts_the_retry(server):
    server.script(error(503), streamed(GOOD))
    reply = call(model(server, stream=True))
    assert (reply.record.retries, reply.record.stream_complete) == (1, True) and len(server.requests) == 2


def test_server_errors_until_retries_run_out(server):
    server.script(error(500))
    with pytest.raises(ModelUnavailable) as caught:
        call(model(server, max_retries=2))
    r = caught.value.record
    assert (r.status, r.http_status, r.retries) == ("server_error", 500, 2)
    assert len(server.requests) == 3 and caught.value.infra_kind == "model"


def test_timeout_is_retried_then_unavailable(server):
    server.script(ok(GOOD, delay_s=1.0))
    with pytest.raises(ModelUnavailable) as caught:
        call(model(server, timeout_s=0.2, max_retries=1))
    r = caught.value.record
    assert (r.status, r.retries, r.http_status) == ("timeout", 1, None)
    assert len(server.requests) == 2


@pytest.mark.filterwarnings(
    "ignore:coroutine .* was never awaited:RuntimeWarning"
)  # litellm, cancelled mid-call
def test_budget_bounds_the_whole_call(server):
    server.script(error(503, headers={"retry-after-ms": "150"}))
    started = time.monotonic()
    with pytest.raises(ModelUnavailable) as caught:
        call(model(server, max_retries=50, budget_s=0.5))
    assert time.monotonic() - started < 2.0
    assert caught.value.record.retries < 50 and caught.value.record.status in ("server_error", "timeout")


def test_auth_error_is_unavailable_and_not_retried(server):
    server.script(error(401, "Incorrect API key", code="invalid_api_key"))
    with pytest.raises(ModelUnavailable) as caught:
        call(model(server, max_retries=2))
    assert (caught.value.status, caught.value.record.http_status, caught.value.record.retries) == (
        "auth_error",
        401,
        0,
    )
    assert len(server.requests) == 1


def test_context_exceeded(server):
    server.script(
        error(400, "This model's maximum context length is 8192 tokens", code="context_length_exceeded")
    )
    with pytest.raises(ModelContextExceeded) as caught:
        call(model(server, max_retries=2))
    assert caught.value.record.status == "context_exceeded" and len(server.requests) == 1


def test_kill_switch_refuses_before_any_request(server, monkeypatch):
    server.script(ok(GOOD))
    with block_model_requests(), pytest.raises(ModelRequestsBlocked):
        asyncio.run(model(server).complete("operator", MESSAGES, Decision))
    monkeypatch.setenv("ARTEMIS_ALLOW_MODEL_REQUESTS", "0")
    with pytest.raises(ModelRequestsBlocked):
        asyncio.run(model(server).complete("planner", MESSAGES, Decision))
    assert server.requests == []
