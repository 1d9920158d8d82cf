"""End to end on the simulated phone: SimServer + AdbDevice + ScriptedModel through run_task."""

from __future__ import annotations

import json

import pytest
from engine_fakes import cited

from pytest_artemis import probes
from pytest_artemis.agents.schemas import CheckReport, OperatorDecision, PlanReply
from pytest_artemis.contracts import CheckItem, Finish, Scroll, Tap, TaskSpec, TypeText, Wait
from pytest_artemis.device import AdbDevice
from pytest_artemis.engine import RunConfig, run_task
from pytest_artemis.models import ModelSet
from pytest_artemis.store.journal import RunHeader, RunJournal
from pytest_artemis.store.reader import read_run
from pytest_artemis.testing import ScriptedModel, ScriptedRequest

CLOCK = "com.google.android.deskclock"
PLAN = "- [ ] Open the Clock app\n- [ ] Create a 7:30 AM alarm\n"
VERIFY = CheckItem(kind="verify", text="The alarm list shows 7:30 AM and its switch is on",
                   subgoal_hint="Create a 7:30 AM alarm", probe=probes.alarm_set("07:30"))
TOAST = CheckItem(kind="assert", text="A confirmation toast appears right after saving",
                  subgoal_hint="Create a 7:30 AM alarm")
NO_CRASH = CheckItem(kind="assert", when="end", text="No 'app has stopped' dialog appears")


def mark(plan: str, subgoal: str) -> str:
    for box in ("- [ ]", "- [/]"):
        plan = plan.replace(f"{box} {subgoal}", f"- [x] {subgoal}")
    return plan


def alarm_operator(request: ScriptedRequest, *, idle_turns: int = 0) -> OperatorDecision:
    """Create a 7:30 AM alarm by reading the screen (after ``idle_turns`` turns of harmless actions)."""
    screen = request.screen
    assert screen is not None
    if request.turn <= idle_turns:
        action = Scroll(direction="down") if request.turn % 2 else Wait(ms=10)
        return OperatorDecision(decision="look around", actions=[action])
    plan = mark(request.plan, "Open the Clock app")
    hour = screen.find(resource_id="material_hour_text_input")
    if hour is not None:
        minute = screen.find(resource_id="material_minute_text_input")
        am, ok = screen.find("AM"), screen.find("OK")
        assert minute and am and ok
        return OperatorDecision(
            decision="enter 7:30 AM and save",
            actions=[TypeText(text="7", element=hour.index), TypeText(text="30", element=minute.index),
                     Tap(element=am.index), Tap(element=ok.index)],
            plan=mark(plan, "Create a 7:30 AM alarm"))
    if screen.find("7:30 AM") is not None:
        return OperatorDecision(decision="alarm is listed", actions=[Finish(summary="7:30 alarm created")])
    fab = screen.find(content_desc="Add alarm")
    assert fab is not None, "the scripted operator expects the Clock app"
    return OperatorDecision(decision="open the time entry", actions=[Tap(element=fab.index)], plan=plan)


def alarm_checker(request: ScriptedRequest) -> CheckReport:
    """Passes model-judged items, quoting the evidence it was given (step screenshots, final screen)."""
    verdicts = [cited(request, item, "passed", f"seen in the recorded steps: {len(request.history)} step "
                      f"summaries and {len(request.screens)} citable screens")
                for item in request.checks]
    return CheckReport(verdicts=verdicts)


def respond(request: ScriptedRequest, idle_turns: int = 0) -> object:
    if request.role == "planner":
        return PlanReply(plan=PLAN)
    if request.role == "operator":
        return alarm_operator(request, idle_turns=idle_turns)
    return alarm_checker(request)


def _run(server, tmp_path, spec: TaskSpec, model: ScriptedModel, **config: object):
    device = AdbDevice(server.serials[0], host=server.host, port=server.port, timeout_s=10.0)
    journal = RunJournal.create(tmp_path, RunHeader(run_id="alarm", goal=spec.goal, device=device.serial,
                                                    checks=spec.checks))
    outcome = run_task(spec, device, ModelSet.uniform(model), RunConfig(**config), journal)
    return outcome, journal.dir


@pytest.fixture
def server():
    sim = pytest.importorskip("pytest_artemis.sim")
    with sim.SimServer(devices=1, seed=0) as running:
        yield running


def test_create_alarm_scripted_run_passes(server, tmp_path):
    spec = TaskSpec(goal="Create an alarm for 7:30 AM in the Clock app", app=CLOCK,
                    checks=(VERIFY, TOAST, NO_CRASH))
    model = ScriptedModel(respond)
    outcome, run_dir = _run(server, tmp_path, spec, model)

    assert outcome.execution == "finished", outcome
    assert outcome.task.status == "completed", outcome.task
    assert (outcome.tests.passed, outcome.tests.failed, outcome.tests.unchecked) == (3, 0, 0)  # + the goal
    # a toast is drawn, never in the hierarchy: without OCR no recorded text shows it (honestly unchecked)
    toast = next(i for i in outcome.tests.items if i.text == TOAST.text)
    assert toast.status == "inconclusive" and "[E4]" in toast.reason and "not a toast" in toast.reason
    verify = next(i for i in outcome.tests.items if i.text == VERIFY.text)
    assert "07:30" in verify.evidence and "dumpsys alarm" in verify.evidence
    assert (7, 30, True, "") in server.phone(server.serials[0]).state.alarms
    record = read_run(run_dir)
    assert record.execution == "finished" and record.outcome == outcome
    probe_verdict = next(v for v in record.verdicts if v.item_text == VERIFY.text)
    assert probe_verdict.source == "probe" and probe_verdict.anchor_step == 2
    # the checkpoint checker judged the toast from the anchored history: screenshots, no live screen
    checkpoint = next(r for r in model.requests if r.role == "checker" and r.entry == "checkpoint")
    assert checkpoint.screen is None and checkpoint.messages[1].images
    assert "live_screen" not in checkpoint.messages[0].text


def test_thirty_step_run_leaves_complete_artifacts(server, tmp_path):
    spec = TaskSpec(goal="Create an alarm for 7:30 AM in the Clock app", app=CLOCK, max_steps=30,
                    checks=(VERIFY, TOAST, NO_CRASH))
    model = ScriptedModel(lambda request: respond(request, idle_turns=26))
    outcome, run_dir = _run(server, tmp_path, spec, model)

    assert outcome.steps == 30 or outcome.task.status == "completed", outcome
    record = read_run(run_dir)
    assert record.notices == ()
    assert record.terminal is not None and record.execution == "finished"
    assert len(record.steps) == outcome.steps >= 28
    assert [s.step for s in record.steps] == list(range(1, outcome.steps + 1))
    screens = {p.name for p in (run_dir / "screens").iterdir()}
    for step in record.steps:
        assert f"{step.pre_screen}.png" in screens and f"{step.post_screen}.png" in screens
        assert step.hierarchy in screens
    assert record.verdicts and len(record.plans) >= 3
    assert len(record.model_calls) == len(model.requests)
    assert json.loads((run_dir / "outcome.json").read_text())["run_id"] == "alarm"
    assert outcome.usage.roles["operator"].calls == outcome.steps


def test_launching_an_app_the_phone_does_not_have_is_a_refused_action_not_a_broken_device(server, tmp_path):
    """The operator asks for the Play Store the phone lacks (monkey exits 252): the action is refused and
    the operator is told so; it then gives up, and the run ends BLOCKED with its reason, not ERROR."""
    from pytest_artemis.contracts import GiveUp, Launch

    def operate(request: ScriptedRequest) -> OperatorDecision:
        if request.turn == 1:
            return OperatorDecision(decision="open the Play Store",
                                    actions=[Launch(package="com.android.vending")])
        assert any("cannot launch com.android.vending" in line for line in request.history), request.history
        return OperatorDecision(decision="no store here",
                                actions=[GiveUp(reason="this phone has no Play Store")])

    model = ScriptedModel(lambda r: PlanReply(plan="- [ ] Install Spotify\n") if r.role == "planner"
                          else operate(r) if r.role == "operator" else CheckReport())
    outcome, run_dir = _run(server, tmp_path, TaskSpec(goal="Install Spotify from the Play Store"), model)
    assert outcome.execution == "finished" and outcome.infra is None, outcome
    assert outcome.task.status == "blocked" and "this phone has no Play Store" in outcome.task.reason
    (first, _) = read_run(run_dir).steps
    assert first.results[0].refused and "cannot launch com.android.vending" in first.results[0].detail
