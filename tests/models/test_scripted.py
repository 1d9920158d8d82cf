"""ScriptedModel: typed and raw replies, the shared terminal-evidence path, per-role scripts, diagnostics."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time

import pytest
from model_test_schemas import Decision, Step

from pytest_artemis.contracts import Bounds, CheckItem, ModelCallRecord, ScreenView, UIElement
from pytest_artemis.models import (
    CallLog,
    ChatMessage,
    ModelOutputInvalid,
    ModelSet,
    ModelUnavailable,
    RequestContext,
)
from pytest_artemis.testing import ScriptedModel, ScriptedReply, ScriptedRequest, ScriptExhausted

MESSAGES = (ChatMessage(role="user", text="do it"),)
GOOD = '{"decision": "tap add", "actions": [{"kind": "tap", "target": "Add alarm"}]}'


def run(model, role="operator", schema=Decision, **kw):
    return asyncio.run(model.complete(role, MESSAGES, schema, **kw))


def screen() -> ScreenView:
    fab = UIElement(
        index=3,
        content_desc="Add alarm",
        resource_id="com.google.android.deskclock:id/fab",
        bounds=Bounds(left=400, top=1800, right=560, bottom=1960),
        clickable=True,
    )
    title = UIElement(index=1, text="Alarm", bounds=Bounds(left=0, top=0, right=1080, bottom=200))
    return ScreenView(
        width=1080, height=2400, foreground="com.google.android.deskclock", elements=(title, fab)
    )


def test_typed_reply_is_used_as_is_and_logged_as_scripted_with_zero_usage():
    decision = Decision(decision="done", actions=[Step(kind="finish")])
    sink: list[ModelCallRecord] = []
    calls = CallLog("run-1", sink.append)
    model = ScriptedModel(lambda request: decision)
    reply = run(model, calls=calls)
    second = run(model, calls=calls)
    assert reply.value is decision
    assert (reply.call_id, second.call_id) == ("run-1/1", "run-1/2")
    assert [r.seq for r in sink] == [1, 2]
    record = sink[0]
    assert (record.status, record.scripted, record.model, record.role) == ("ok", True, "scripted", "operator")
    assert (record.prompt_tokens, record.completion_tokens, record.cost_usd) == (0, 0, 0.0)
    assert calls.usage.cost_usd == 0.0 and calls.usage.roles["operator"].calls == 2


def test_request_exposes_the_typed_context():
    seen: list[ScriptedRequest] = []

    def respond(request: ScriptedRequest) -> str:
        seen.append(request)
        fab = request.screen.find(content_desc="add alarm")
        return f'{{"decision": "tap {fab.index}", "actions": [{{"kind": "tap", "target": "{fab.center}"}}]}}'

    item = CheckItem(kind="verify", text="an alarm for 7:30 exists")
    context = RequestContext(
        goal="set an alarm",
        plan="- [ ] open Clock",
        screen=screen(),
        checks=(item,),
        history=("1: launched Clock",),
        turn=4,
        entry="checkpoint",
    )
    reply = run(ScriptedModel(respond), role="checker", context=context)
    request = seen[0]
    assert (request.role, request.goal, request.plan, request.turn, request.entry) == (
        "checker",
        "set an alarm",
        "- [ ] open Clock",
        4,
        "checkpoint",
    )
    assert request.checks == (item,) and request.history == ("1: launched Clock",)
    assert request.schema is Decision and request.messages == MESSAGES and request.reask == 0
    assert request.screen.find(resource_id="fab").index == 3
    assert reply.value.actions[0].target == "(480, 1880)"


def test_async_reply_functions_and_dict_replies():
    async def respond(request):
        await asyncio.sleep(0)
        return {"decision": "x", "actions": []}

    assert run(ScriptedModel(respond)).value == Decision(decision="x", actions=[])


def test_a_slow_sync_reply_function_runs_off_the_event_loop_so_concurrent_calls_overlap():
    """A sync responder (a checker doing OCR) runs in a worker thread: two concurrent calls take about
    as long as one, and the event loop keeps ticking meanwhile."""
    def slow(request):
        time.sleep(0.6)
        return Decision(decision=f"checked {request.turn}", actions=[])

    model = ScriptedModel(slow)
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.05)
            ticks += 1

    async def both() -> tuple[list[str], float]:
        task = asyncio.create_task(ticker())
        started = time.perf_counter()
        replies = await asyncio.gather(*(model.complete("checker", MESSAGES, Decision) for _ in range(2)))
        task.cancel()
        return [r.value.decision for r in replies], time.perf_counter() - started

    decisions, elapsed = asyncio.run(both())
    assert decisions == ["checked 0", "checked 0"]
    assert elapsed < 1.1, elapsed  # not 2 × 0.6 s one after the other
    assert ticks >= 5  # the loop was not blocked while the responders slept


def test_from_replies_keeps_the_order_of_concurrent_calls():
    model = ScriptedModel.from_replies(checker=[Decision(decision=str(n), actions=[]) for n in range(6)])

    async def all_at_once() -> list[str]:
        replies = await asyncio.gather(*(model.complete("checker", MESSAGES, Decision) for _ in range(6)))
        return [r.value.decision for r in replies]

    assert asyncio.run(all_at_once()) == [str(n) for n in range(6)]


def test_fenced_json_is_accepted():
    assert run(ScriptedModel(lambda r: f"```json\n{GOOD}\n```")).value.decision == "tap add"


@pytest.mark.parametrize(
    "reply",
    [
        ScriptedModel.truncated('{"decision": "tap", "actions": [{"kind": "tap"'),
        ScriptedModel.truncated(GOOD),  # complete JSON does not excuse a stream with no finish reason
        ScriptedReply(GOOD, finish_reason=None),
        ScriptedReply('{"decision": "tap", "actions": [', finish_reason="length"),
        ScriptedReply(GOOD, finish_reason="stop", stream_complete=False),
    ],
)
def test_cut_off_output_fails_without_reask_and_returns_nothing(reply):
    model = ScriptedModel.from_replies(operator=[reply, GOOD])
    sink: list[ModelCallRecord] = []
    with pytest.raises(ModelOutputInvalid) as caught:
        run(model, calls=CallLog("r", sink.append))
    assert caught.value.status == "truncated"
    assert len(model.requests) == 1  # never re-asked: the next scripted reply is untouched
    assert sink == [caught.value.record]
    assert (sink[0].status, sink[0].reasks, sink[0].scripted) == ("truncated", 0, True)


def test_truncated_stream_record_says_stream_incomplete():
    model = ScriptedModel.from_replies(operator=[ScriptedModel.truncated('{"decision": "t')])
    with pytest.raises(ModelOutputInvalid) as caught:
        run(model)
    record = caught.value.record
    assert (record.stream, record.stream_complete, record.arguments_complete) == (True, False, False)


def test_invalid_reply_is_reasked_with_the_validation_error():
    model = ScriptedModel.from_replies(operator=['{"decision": "tap", "actions": [{"kind": "swipe"}]}', GOOD])
    reply = run(model)
    assert reply.value.decision == "tap add" and reply.record.reasks == 1
    reask = model.requests[1]
    assert reask.reask == 1 and reask.messages[:1] == MESSAGES
    assert reask.messages[1].role == "assistant"
    assert "actions.0.kind" in reask.messages[2].text and "Decision" in reask.messages[2].text


@pytest.mark.parametrize("bad", ['{"decision": "tap", "actions": [', "not json", "", '{"decision": 1}'])
def test_output_still_invalid_after_reasks_fails(bad):
    model = ScriptedModel(lambda request: bad, reasks=1)
    with pytest.raises(ModelOutputInvalid) as caught:
        run(model)
    assert caught.value.status == "invalid_output"
    assert len(model.requests) == 2 and caught.value.record.reasks == 1


def test_wrong_typed_object_takes_the_validation_path():
    model = ScriptedModel(lambda request: Step(kind="tap"), reasks=0)
    with pytest.raises(ModelOutputInvalid):
        run(model)


def test_from_replies_answers_per_role_and_reports_exhaustion():
    model = ScriptedModel.from_replies(planner=['{"kind": "finish"}'], operator=[GOOD])
    assert run(model, role="planner", schema=Step).value.kind == "finish"
    assert run(model, role="operator").value.decision == "tap add"
    with pytest.raises(ScriptExhausted, match="no checker reply left \\(0 given\\)"):
        run(model, role="checker")


def test_reply_function_may_simulate_a_provider_outage():
    sink: list[ModelCallRecord] = []
    down = ModelUnavailable("provider down", status="server_error", http_status=503)
    model = ScriptedModel.from_replies(operator=[down])
    with pytest.raises(ModelUnavailable) as caught:
        run(model, calls=CallLog("r", sink.append))
    assert caught.value.infra_kind == "model"
    assert (sink[0].status, sink[0].http_status, sink[0].scripted) == ("server_error", 503, True)


def test_model_set_routes_roles():
    planner, other = ScriptedModel(lambda r: GOOD, name="p"), ScriptedModel(lambda r: GOOD, name="o")
    models = ModelSet(planner=planner, operator=other, checker=other)
    assert models.for_role("planner") is planner and ModelSet.uniform(other).checker is other


def test_scripted_model_is_not_collected_as_a_test():
    assert ScriptedModel.__test__ is False


def test_importing_the_model_layer_or_plugin_does_not_import_litellm():
    code = (
        "import sys, pytest_artemis.models, pytest_artemis.testing, pytest_artemis.plugin\n"
        "assert 'litellm' not in sys.modules and 'openai' not in sys.modules, 'heavy import'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
