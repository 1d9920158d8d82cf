"""Run lifecycle on the in-memory phone: recorded turns, vacuity, breakers, crashes, deadline, observer."""

from __future__ import annotations

import signal
import time

import pytest
from engine_fakes import FakePhone, run, script, setting_item, step_marking

from pytest_artemis.agents.schemas import OperatorDecision
from pytest_artemis.checking.vacuity import VACUOUS_REASON
from pytest_artemis.contracts import Tap, TaskSpec, Wait
from pytest_artemis.engine import NullObserver
from pytest_artemis.models import ModelUnavailable
from pytest_artemis.store.reader import read_run
from pytest_artemis.testing import ScriptedModel

WIFI = "Turn on Wi-Fi"
LATER = "Look at the result"


def test_every_turn_is_recorded_refused_and_failed_ones_too(tmp_path, phone):
    refused = OperatorDecision(decision="tap a ghost", actions=[Tap(element=99), Tap(element=0)])
    truncated = lambda request: ScriptedModel.truncated('{"decision": "x", "actions": [')  # noqa: E731
    model = script(f"- [ ] {WIFI}\n", [refused, truncated])
    outcome, run_dir = run(tmp_path, TaskSpec(goal=WIFI), phone, model, final_check=False)
    steps = read_run(run_dir).steps
    assert [s.step for s in steps] == [1, 2, 3] and outcome.steps == 3
    assert "actions_refused" in steps[0].flags and phone.taps == []  # the later tap was not run either
    assert [r.refused for r in steps[0].results] == [True, True]
    assert "model_failed" in steps[1].flags and steps[1].actions == () and steps[1].pre_screen
    assert "finish_claimed" in steps[2].flags and outcome.stop_reason == "finish claimed"


def test_vacuous_probe_check_cannot_pass_unless_its_fact_changed(tmp_path):
    phone = FakePhone(wifi_on="1")  # already true before the agent does anything
    verify = setting_item(hint=WIFI)
    model = script(f"- [ ] {WIFI}\n", [step_marking(WIFI)])
    outcome, run_dir = run(tmp_path, TaskSpec(goal=WIFI, checks=(verify,)), phone, model)
    summary = next(i for i in outcome.tests.items if i.kind == "verify")
    assert (summary.status, summary.reason) == ("unchecked", VACUOUS_REASON)
    assert all(v.vacuous for v in read_run(run_dir).verdicts if v.kind == "verify")
    assert outcome.task.status != "completed"


def test_a_fact_toggled_and_restored_is_still_vacuous(tmp_path):
    phone = FakePhone(wifi_on="1")
    verify = setting_item(hint=WIFI)
    toggle = OperatorDecision(decision="switch off first", actions=[Tap(element=0)])
    model = script(f"- [ ] {WIFI}\n", [toggle, step_marking(WIFI, actions=(Tap(element=0),))])
    outcome, _ = run(tmp_path, TaskSpec(goal=WIFI, checks=(verify,)), phone, model, final_check=False)
    assert phone.settings["wifi_on"] == "1" and len(phone.taps) == 2
    assert next(i for i in outcome.tests.items if i.kind == "verify").status == "unchecked"
    assert outcome.task.status != "completed"


def test_same_finding_breaker_blocks_the_run(tmp_path, phone):
    verify = setting_item(hint=WIFI)

    def stubborn(request):
        if f"- [x] {WIFI}" in request.plan:
            return OperatorDecision(decision="wait", actions=[Wait(ms=20)])
        return OperatorDecision(decision="done", actions=[Wait(ms=20)],
                                plan=request.plan.replace(f"[/] {WIFI}", f"[x] {WIFI}")
                                .replace(f"[ ] {WIFI}", f"[x] {WIFI}"))

    model = script(f"- [ ] {WIFI}\n- [ ] {LATER}\n", [], after=stubborn)
    outcome, _ = run(tmp_path, TaskSpec(goal=WIFI, checks=(verify,)), phone, model, max_steps=30,
                     checkpoint_max_repairs=10, same_finding_limit=3, final_check=False)
    assert outcome.task.status == "blocked"
    assert outcome.stop_reason.startswith("circuit breaker: the same finding 3 times: wifi_on is 1")
    assert outcome.steps < 30


def test_no_effect_breaker_blocks_the_run(tmp_path, phone):
    phone.ignore_taps = True
    tap = OperatorDecision(decision="tap wifi", actions=[Tap(element=0)])
    model = script(f"- [ ] {WIFI}\n", [], after=tap)
    outcome, run_dir = run(tmp_path, TaskSpec(goal=WIFI), phone, model, no_effect_limit=3, max_steps=20)
    assert outcome.steps == 3 and outcome.task.status == "blocked"
    assert "repeated 3 times on an unchanged screen" in outcome.stop_reason
    assert all("no_effect" in s.flags for s in read_run(run_dir).steps)


def test_model_unavailable_ends_crashed_and_closes_the_journal(tmp_path, phone):
    def respond(request):
        if request.role == "planner":
            return {"plan": f"- [ ] {WIFI}\n"}
        raise ModelUnavailable("provider down", status="server_error", http_status=503)

    outcome, run_dir = run(tmp_path, TaskSpec(goal=WIFI), phone, ScriptedModel(respond))
    assert outcome.execution == "crashed" and outcome.infra is not None
    assert (outcome.infra.kind, outcome.infra.error_class) == ("model", "ModelUnavailable")
    record = read_run(run_dir)
    assert record.execution == "crashed" and record.outcome == outcome


class HardTimer(BaseException):
    """Like pytest's ``Failed`` from pytest-timeout's signal handler: not an Exception."""


def test_an_exception_raised_into_a_model_call_closes_the_run_interrupted_with_the_reason(tmp_path, phone):
    def respond(request):
        if request.role == "planner":
            return {"plan": f"- [ ] {WIFI}\n"}
        raise HardTimer("Timeout (>4.0s) from pytest-timeout.")

    with pytest.raises(HardTimer):
        run(tmp_path, TaskSpec(goal=WIFI), phone, ScriptedModel(respond))
    record = read_run(tmp_path / "run-1")
    assert record.execution == "interrupted" and record.outcome is not None
    assert record.outcome.stop_reason == "interrupted (HardTimer: Timeout (>4.0s) from pytest-timeout.)"


def test_a_signal_raising_while_the_loop_waits_closes_the_run_interrupted_with_the_reason(tmp_path, phone):
    def fire(signum, frame):
        raise HardTimer("the hard timer fired")

    def arm(request):
        signal.setitimer(signal.ITIMER_REAL, 0.2)  # fires while the run awaits the wait below
        return OperatorDecision(decision="wait", actions=[Wait(ms=5000)])

    previous = signal.signal(signal.SIGALRM, fire)
    try:
        with pytest.raises(HardTimer):
            run(tmp_path, TaskSpec(goal=WIFI), phone, script(f"- [ ] {WIFI}\n", [arm]))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    record = read_run(tmp_path / "run-1")
    assert record.execution == "interrupted" and record.outcome is not None
    assert record.outcome.stop_reason == "interrupted (HardTimer: the hard timer fired)"


def test_device_error_ends_crashed_with_the_step_recorded(tmp_path, phone):
    phone.offline_after = 2  # perceive, post screenshot, then the next perceive fails
    model = script(f"- [ ] {WIFI}\n", [], after=OperatorDecision(decision="w", actions=[Wait(ms=1)]))
    outcome, run_dir = run(tmp_path, TaskSpec(goal=WIFI), phone, model)
    assert outcome.execution == "crashed" and outcome.infra is not None and outcome.infra.kind == "device"
    assert len(read_run(run_dir).steps) == 1


def test_deadline_ends_blocked_by_time_budget(tmp_path, phone):
    model = script(f"- [ ] {WIFI}\n", [], after=OperatorDecision(decision="w", actions=[Wait(ms=1)]))
    outcome, _ = run(tmp_path, TaskSpec(goal=WIFI), phone, model, deadline=time.time() - 1)
    assert outcome.steps == 0 and outcome.task.status == "blocked"
    assert outcome.stop_reason == "time budget exhausted" and outcome.execution == "finished"


def test_observer_sees_start_steps_verdicts_and_finish(tmp_path, phone):
    class Recorder(NullObserver):
        def __init__(self):
            self.events = []

        def on_start(self, header):
            self.events.append(("start", header.run_id))

        def on_step(self, step):
            self.events.append(("step", step.step))

        def on_verdict(self, verdict):
            self.events.append(("verdict", verdict.status))

        def on_finish(self, outcome):
            self.events.append(("finish", outcome.task.status))

    recorder = Recorder()
    verify = setting_item(hint=WIFI)
    model = script(f"- [ ] {WIFI}\n", [step_marking(WIFI, actions=(Tap(element=0),))])
    outcome, _ = run(tmp_path, TaskSpec(goal=WIFI, checks=(verify,)), phone, model, observer=recorder)
    assert recorder.events[0] == ("start", "run-1") and recorder.events[-1] == ("finish", "completed")
    assert ("step", 1) in recorder.events and ("verdict", "passed") in recorder.events
    assert outcome.usage.roles["operator"].calls == 1 and outcome.usage.roles["planner"].calls == 1


def test_a_goal_nobody_checked_is_never_completed(tmp_path, phone):
    """No declared check and no final check: the finish claim is all there is, so the goal is reported
    as an unchecked item and the task as partial (the test reads UNCHECKED, never PASSED)."""
    model = script(f"- [ ] {WIFI}\n", [step_marking(WIFI, actions=(Tap(element=0),))])
    outcome, _ = run(tmp_path, TaskSpec(goal="Turn on Wi-Fi"), phone, model, final_check=False)
    assert outcome.task.status == "partial"
    assert outcome.tests.unchecked == 1 and outcome.tests.items[0].text == "Turn on Wi-Fi"
    assert "finish claim is not evidence" in outcome.tests.items[0].reason
