"""Every contract survives JSON losslessly: ``validate_json(dump_json(original)) == original``."""

import dataclasses
import inspect

import pytest
from pydantic import TypeAdapter

import pytest_artemis.contracts as contracts
from pytest_artemis.contracts import (
    Action,
    ActionResult,
    Bounds,
    CheckItem,
    CheckVerdict,
    Citation,
    EvidenceScreen,
    Finish,
    GiveUp,
    InfraFailure,
    ItemSummary,
    Key,
    Launch,
    LongPress,
    ModelCallRecord,
    ModelTimeouts,
    Point,
    ProbeCheck,
    ProbeResult,
    ProbeSpec,
    ResolvedElement,
    RoleUsage,
    RunOutcome,
    ScreenView,
    Scroll,
    StepRecord,
    Swipe,
    Tap,
    TaskResult,
    TaskSpec,
    TestTally,
    TypeSecret,
    TypeText,
    UIElement,
    Usage,
    Wait,
)
from pytest_artemis.contracts._base import Contract
from pytest_artemis.contracts.probe_outputs import AlarmsOutput, PendingAlarm, SettingOutput, Unreadable

T0 = 1764493200.123456
SHA = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"

PROBE_SPEC = ProbeSpec(kind="settings_get", params={"namespace": "global", "key": "wifi_on"})
PROBE_CHECK = ProbeCheck(
    probe=PROBE_SPEC,
    name="equals",
    args={"value": "1", "strict": True, "n": 3, "none": None},
    description="Wi-Fi on",
)
ACTIONS = (
    Tap(element=3),
    Tap(x=540, y=1210),
    LongPress(element=7, duration_ms=1200),
    Swipe(x1=540, y1=1800, x2=540, y2=400, duration_ms=250),
    Scroll(direction="down"),
    TypeText(text='Wake up ☀ "now"\n', element=2),
    TypeText(text="06", clear=True),
    TypeSecret(name="password", element=4, clear=True),
    Key(key="BACK"),
    Launch(package="com.google.android.deskclock", activity=".DeskClock"),
    Wait(ms=1500),
    Finish(summary="Alarm created for 7:30 AM"),
    GiveUp(reason="no Clock app on this device"),
)
ELEMENT = UIElement(
    index=4,
    text="7:30 AM",
    resource_id="com.google.android.deskclock:id/digital_clock",
    class_name="android.widget.TextView",
    package="com.google.android.deskclock",
    content_desc="Alarm 7:30 AM",
    bounds=Bounds(left=0, top=210, right=1080, bottom=390),
    clickable=True,
    checkable=True,
    checked=True,
    focused=True,
    source="ocr",
)
CALL = ModelCallRecord(
    run_id="run-1",
    seq=3,
    role="checker",
    model="openai/gpt-4o-mini",
    status="truncated",
    finish_reason=None,
    stream=True,
    stream_complete=False,
    arguments_complete=False,
    http_status=200,
    retries=1,
    reasks=1,
    latency_ms=1834.25,
    prompt_tokens=5120,
    completion_tokens=87,
    cost_usd=0.00081,
)
VERDICT = CheckVerdict(
    item_key="a1b2c3d4e5f6",
    item_text="The alarm list shows 7:30 AM and its switch is on",
    kind="verify",
    when="complete",
    status="failed",
    evidence="step 6 screenshot: list shows 7:00 AM (element 4 text '7:00 AM')",
    suggestion="Edit the alarm time to 7:30",
    reason="",
    source="model",
    attempt_id="cp-1f2e#2",
    checkpoint_id="cp-1f2e",
    anchor_step=6,
    vacuous=False,
    citation=Citation(
        step=6, element=4, attribute="text=7:00 AM", found=True, found_in="hierarchy",
        bounds=(40, 300, 1040, 420),
    ),
    started_at=T0,
    finished_at=T0 + 4.5,
)
USAGE = Usage(
    roles={
        "planner": RoleUsage(calls=1, prompt_tokens=900, completion_tokens=120, cost_usd=0.0004),
        "checker": RoleUsage(calls=2, prompt_tokens=10240, completion_tokens=170, cost_usd=None),
    }
)

INSTANCES = [
    *ACTIONS,
    ModelTimeouts(call_s=600, attempt_s=300, roles={"checker": 900}),
    ActionResult(action=Tap(element=3), ok=True, detail="tap 540,300 on 'Add alarm'"),
    ActionResult(
        action=TypeText(text="07", element=2, clear=True),
        ok=True,
        detail="cleared 1 chars, typed 2 chars into 540,300 on [2] 'Hour'",
        at=Point(x=540, y=300),
        element=ResolvedElement(
            index=2, label="Hour", bounds=Bounds(left=400, top=250, right=680, bottom=350)
        ),
        typed="07",
        cleared=1,
    ),
    ActionResult(action=Scroll(direction="down"), ok=True, at=Point(x=540, y=1680), to=Point(x=540, y=720)),
    Point(x=0, y=0),
    ResolvedElement(index=0, bounds=Bounds(left=0, top=0, right=1, bottom=1)),
    ActionResult(action=Launch(package="com.x"), ok=False, detail="package not installed", refused=True),
    Bounds(left=10, top=20, right=30, bottom=40),
    ELEMENT,
    ScreenView(
        screenshot=SHA,
        width=1080,
        height=2400,
        foreground="com.google.android.deskclock",
        elements=(ELEMENT,),
    ),
    ScreenView(width=720, height=1280),
    PROBE_SPEC,
    PROBE_CHECK,
    Citation(step=3, quote="Alarm set for 7:30 AM", found=False),
    Citation(step=4, screen="pre", element=2, attribute="checked=true", found=True, found_in="hierarchy",
             screenshot=SHA, bounds=(0, 0, 10, 10)),
    EvidenceScreen(step=4, screen="post", view=ScreenView(width=720, height=1280)),
    Citation(probe="alarms", found=True, found_in="probe"),
    ProbeResult(
        spec=PROBE_SPEC,
        argv=("settings", "get", "global", "wifi_on"),
        raw="1\n",
        exit_code=0,
        parsed=SettingOutput(namespace="global", key="wifi_on", value="1"),
    ),
    ProbeResult(spec=PROBE_SPEC, argv=("content", "query"), raw="Error while accessing provider:x\n",
                parsed=Unreadable(reason="Error while accessing provider:x")),
    ProbeResult(spec=ProbeSpec(kind="alarms"), argv=("dumpsys", "alarm"), raw="…", parsed=AlarmsOutput(
        alarms=(PendingAlarm(type="RTC_WAKEUP", when_ms=1, package="com.android.deskclock",
                             tag="*walarm*:a b", time="2026-01-16 07:30:00", hhmm="07:30",
                             alarm_clock=True),))),
    CheckItem(
        kind="assert",
        text="Wi-Fi is on",
        when="end",
        origin="user",
        subgoal="0123456789ab",
        subgoal_hint="Turn Wi-Fi on",
        probe=PROBE_CHECK,
    ),
    VERDICT,
    CALL,
    RoleUsage(calls=4, prompt_tokens=1, completion_tokens=2, cost_usd=0.25),
    USAGE,
    ItemSummary(text="Toast shown", kind="assert", when="complete", status="inconclusive", reason="timeout"),
    TestTally(
        passed=1,
        failed=1,
        inconclusive=1,
        unchecked=1,
        items=(
            ItemSummary(
                text="x", kind="verify", when="end", status="unchecked", evidence="", reason="timeout"
            ),
        ),
    ),
    TaskResult(status="partial", reason="step budget", unmet=("Alarm is enabled",)),
    InfraFailure(kind="device", error_class="DeviceUnavailable", message="emulator-5554 went offline"),
    RunOutcome(
        run_id="run-1",
        execution="crashed",
        task=TaskResult(status="blocked", reason="device offline"),
        tests=TestTally(failed=1),
        usage=USAGE,
        steps=7,
        stop_reason="infrastructure",
        infra=InfraFailure(kind="model", error_class="ModelUnavailable", message="429"),
        device="emulator-5554",
        started_at=T0,
        finished_at=T0 + 61.75,
    ),
    StepRecord(
        step=6,
        turn="repair",
        pre_screen=SHA,
        post_screen=SHA[::-1],
        hierarchy=f"{SHA}.xml",
        foreground="com.google.android.deskclock",
        decision="Fix the alarm time",
        actions=ACTIONS,
        results=tuple(ActionResult(action=a, ok=True) for a in ACTIONS),
        plan_version=3,
        completed=("0123456789ab",),
        flags=("guard_restored", "finish_claimed"),
        error="",
        started_at=T0,
        finished_at=T0 + 2.0625,
    ),
    TaskSpec(
        goal="Create a 7:30 AM alarm",
        app="com.google.android.deskclock",
        max_steps=20,
        checks=(CheckItem(kind="verify", text="The alarm is listed"),),
        test_id="tests/test_clock.py::test_alarm",
    ),
]


@pytest.mark.parametrize("original", INSTANCES, ids=lambda i: type(i).__name__)
def test_contract_roundtrips_through_json(original):
    # A TypeAdapter: probe checks are dataclasses that pydantic validates (pydantic-free to import).
    adapter = TypeAdapter(type(original))
    assert adapter.validate_json(adapter.dump_json(original)) == original


def test_action_union_roundtrips_every_kind_by_discriminator():
    adapter = TypeAdapter(tuple[Action, ...])
    assert adapter.validate_json(adapter.dump_json(ACTIONS)) == ACTIONS


def test_every_public_contract_has_a_roundtrip_instance():
    public = {
        obj
        for obj in (getattr(contracts, name) for name in contracts.__all__)
        if inspect.isclass(obj) and (issubclass(obj, Contract) or dataclasses.is_dataclass(obj))
        and not obj.__name__.startswith("_")
    }
    covered = {type(i) for i in INSTANCES}
    assert public - covered == set()
