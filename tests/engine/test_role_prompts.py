"""The planner's and the operator's requests say what the harness does: where declared checks go, how a
check is named, what ``type`` does, how to give up, the screenshot's scale; and they are laid out for
provider prompt caching (the same system prompt every turn, the turn's own content last)."""

from __future__ import annotations

import io
import itertools

import pytest
from engine_fakes import cited
from PIL import Image

from pytest_artemis import probes
from pytest_artemis.agents.prompts import OPERATOR_FINDINGS, Scenario, operator_system, planner_system
from pytest_artemis.agents.schemas import CheckReport, OperatorDecision, PlanReply
from pytest_artemis.agents.screen_facts import screenshot_scale
from pytest_artemis.contracts import CheckItem, Finish, Tap, TaskSpec, TypeText
from pytest_artemis.device import AdbDevice
from pytest_artemis.device.model_image import stored_jpeg
from pytest_artemis.engine import RunConfig, run_task
from pytest_artemis.models import ModelSet
from pytest_artemis.store.journal import RunHeader, RunJournal
from pytest_artemis.testing import ScriptedModel, ScriptedRequest

CLOCK = "com.google.android.deskclock"
PLAN = "- [ ] Open the Clock app\n- [ ] Create a 7:30 AM alarm\n"
SAVED = CheckItem(kind="verify", text="The alarm list shows 7:30 AM", subgoal_hint="Create a 7:30 AM alarm")
ALARM = CheckItem(kind="verify", text="An enabled alarm is set for 07:30", probe=probes.alarm_set("07:30"))
NO_CRASH = CheckItem(kind="assert", when="end", text="No 'app has stopped' dialog appears")


def _operator(request: ScriptedRequest) -> OperatorDecision:
    screen = request.screen
    assert screen is not None
    plan = request.plan.replace("- [ ] Open the Clock app", "- [x] Open the Clock app")
    hour = screen.find(resource_id="material_hour_text_input")
    if hour is not None:
        minute, ok = screen.find(resource_id="material_minute_text_input"), screen.find("OK")
        assert minute is not None and ok is not None
        actions = [TypeText(text="7", element=hour.index, clear=True),
                   TypeText(text="30", element=minute.index, clear=True), Tap(element=ok.index)]
        done = plan.replace("- [ ]", "- [x]").replace("- [/]", "- [x]")
        return OperatorDecision(decision="enter 7:30 and save", actions=actions, plan=done)
    if "[/]" in plan or screen.find("7:30 AM") is None:
        fab = screen.find(content_desc="Add alarm")
        assert fab is not None
        return OperatorDecision(decision="add an alarm", actions=[Tap(element=fab.index)], plan=plan)
    return OperatorDecision(decision="listed", actions=[Finish(summary="7:30 alarm created")])


def _flat(text: str) -> str:
    """A prompt's text with its line breaks as spaces (the prompts wrap at ~100 columns)."""
    return " ".join(text.split())


@pytest.fixture
def requests(tmp_path) -> list[ScriptedRequest]:
    """One run on the simulated phone whose model-judged verify fails once (a finding, a repair turn)."""
    sim = pytest.importorskip("pytest_artemis.sim")
    failures = itertools.count()

    def checker(request: ScriptedRequest) -> CheckReport:
        first = request.entry == "checkpoint" and next(failures) == 0
        status = {SAVED.text: "failed"} if first else {}
        return CheckReport(verdicts=[cited(request, i, status.get(i.text, "passed"), "the list shows it")
                                     for i in request.checks])

    def respond(request: ScriptedRequest) -> object:
        if request.role == "planner":
            return PlanReply(plan=PLAN)
        return _operator(request) if request.role == "operator" else checker(request)

    model = ScriptedModel(respond)
    spec = TaskSpec(goal="Create an alarm for 7:30 AM in the Clock app", app=CLOCK, max_steps=10,
                    checks=(SAVED, ALARM, NO_CRASH))
    with sim.SimServer(devices=1, seed=0) as server:
        device = AdbDevice(server.serials[0], host=server.host, port=server.port, timeout_s=10.0)
        header = RunHeader(run_id="prompts", goal=spec.goal, device=device.serial, checks=spec.checks)
        journal = RunJournal.create(tmp_path, header)
        run_task(spec, device, ModelSet.uniform(model), RunConfig(), journal)
    return model.requests


def test_the_planner_is_told_where_declared_checks_go_not_asked_to_place_them(requests):
    planner = next(r for r in requests if r.role == "planner")
    system, user = _flat(planner.messages[0].text), planner.messages[1].text
    assert "copy each declared check" not in system
    assert "the harness places the checks the test declares, by rule, whatever the plan says" in system
    assert "goes under the first subgoal whose text contains those words" in system
    assert "Any other check goes under the last subgoal" in system
    assert user.splitlines()[-3:] == [
        "- verify: The alarm list shows 7:30 AM  (belongs to: Create a 7:30 AM alarm)",
        "- verify: An enabled alarm is set for 07:30  (placed under the last subgoal; read from the device "
        "by a probe)",
        "- assert@end: No 'app has stopped' dialog appears  (task level, judged when the run ends)",
    ]


def test_the_operator_sees_each_declared_check_as_the_plan_names_it(requests):
    user = next(r for r in requests if r.role == "operator").messages[1].text
    assert "- assert@end: No 'app has stopped' dialog appears — task level, judged at the end of the run" \
        in user
    assert "- verify: An enabled alarm is set for 07:30 — under 'Create a 7:30 AM alarm', judged when" in user


def test_the_operator_request_states_the_screenshots_scale_against_the_bounds(requests):
    operator = next(r for r in requests if r.role == "operator")
    user = operator.messages[1].text
    assert "Current screen (1080x2400 device pixels" in user
    assert ("The screenshot is scaled down to 540x1200 pixels, 1/2 of the device's 1080x2400: element bounds "
            "are device pixels, so a point (x, y) on the screenshot is (2x, 2y) in bounds.") in user
    assert "Element bounds and the x/y of actions are device pixels." in _flat(operator.messages[0].text)


def test_screenshot_scale_is_the_size_the_model_image_really_has():
    for size, side in (((1080, 2400), 1280), ((1081, 2401), 640), ((720, 1280), 1280)):
        buffer = io.BytesIO()
        Image.new("RGB", size).save(buffer, format="PNG")
        with Image.open(io.BytesIO(stored_jpeg(buffer.getvalue(), f"{size}-{side}", side))) as sent:
            width, height = sent.size
        text = screenshot_scale(*size, side)
        assert (f"{width}x{height} pixels" in text) if sent.size != size else "the device's own size" in text


def test_the_operator_is_told_what_type_does_and_how_to_give_up():
    system = _flat(operator_system(Scenario(checks_enabled=True)))
    assert "types at the cursor of the focused field, as Android's `input text` does" in system
    assert "the text is added to what the field already holds" in system
    assert '"clear": true first empties the field' in system
    assert '{"kind": "give_up", "reason": "..."}: the goal cannot be reached on this device' in system
    assert "The run ends BLOCKED with your reason, with no repair rounds" in system
    assert "give_up" not in planner_system(Scenario(checks_enabled=True))


def test_the_operator_system_prompt_stays_the_same_every_turn_findings_go_with_the_turn(requests):
    operator = [r for r in requests if r.role == "operator"]
    assert len({r.messages[0].text for r in operator}) == 1  # one prefix for the provider's cache
    with_findings = [r.messages[1].text for r in operator if "Findings from checks:" in r.messages[1].text]
    assert with_findings, "the failed verify left no finding in any request"
    assert all(OPERATOR_FINDINGS in text for text in with_findings)
    user = operator[0].messages[1].text
    order = [user.index(head) for head in ("Goal:", "Checks declared by the test", "Plan:", "Turn 1 of",
                                           "Current screen (")]
    assert order == sorted(order)  # what changes least first, the turn's own content last
