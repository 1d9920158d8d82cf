"""Check semantics through run_task on the in-memory phone: checkpoints, repairs, policies, switches."""

from __future__ import annotations

import asyncio
import threading

import pytest
from engine_fakes import cited, mark, passing_checker, run, script, setting_item, step_marking

from pytest_artemis.agents.schemas import CheckReport, OperatorDecision
from pytest_artemis.contracts import CheckItem, Tap, TaskSpec, Wait, outcome_word
from pytest_artemis.plan import subgoal_key
from pytest_artemis.store.reader import read_run

WIFI = "Turn on Wi-Fi"
BT = "Turn on Bluetooth"
LATER = "Look at the result"
WAIT = OperatorDecision(decision="wait", actions=[Wait(ms=20)])


def verdicts_of(run_dir, text: str):
    return [v for v in read_run(run_dir).verdicts if v.item_text == text]


def test_checkpoint_is_anchored_to_the_step_that_marked_the_subgoal_done(tmp_path, phone):
    verify = setting_item(hint=WIFI)
    spec = TaskSpec(goal="Turn on Wi-Fi", checks=(verify,))
    model = script(f"- [ ] {WIFI}\n- [ ] {LATER}\n",
                   [WAIT, step_marking(WIFI, actions=(Tap(element=0),)), WAIT, step_marking(LATER)])
    outcome, run_dir = run(tmp_path, spec, phone, model)
    (verdict,) = verdicts_of(run_dir, verify.text)
    assert (verdict.anchor_step, verdict.checkpoint_id, verdict.source) == (2, subgoal_key(WIFI), "probe")
    assert verdict.attempt_id == f"{subgoal_key(WIFI)}#1" and verdict.status == "passed"
    assert read_run(run_dir).steps[1].completed == (subgoal_key(WIFI),)
    assert outcome.task.status == "completed"


def test_every_same_turn_completion_is_checkpointed(tmp_path, phone):
    wifi, bt = setting_item(hint=WIFI), setting_item("bluetooth_on", hint=BT)
    spec = TaskSpec(goal="Turn on Wi-Fi and Bluetooth", checks=(wifi, bt))
    model = script(f"- [ ] {WIFI}\n- [ ] {BT}\n",
                   [step_marking(WIFI, BT, actions=(Tap(element=0), Tap(element=1)))])
    outcome, run_dir = run(tmp_path, spec, phone, model)
    got = {(v.checkpoint_id, v.anchor_step, v.status) for v in read_run(run_dir).verdicts if v.kind != "goal"}
    assert got == {(subgoal_key(WIFI), 1, "passed"), (subgoal_key(BT), 1, "passed")}
    assert outcome.tests.passed == 3 and outcome.task.status == "completed"  # the goal's verdict too


def remark_when_reopened(request):
    """A stubborn operator: marks Wi-Fi done whenever it is not, never touches the switch."""
    if f"- [x] {WIFI}" in request.plan:
        return WAIT
    return OperatorDecision(decision="Wi-Fi is done", actions=[Wait(ms=20)], plan=mark(request.plan, WIFI))


def test_verify_failure_reopens_up_to_the_quota_then_stays_failed(tmp_path, phone):
    verify = setting_item(hint=WIFI)
    spec = TaskSpec(goal="Turn on Wi-Fi", checks=(verify,))
    model = script(f"- [ ] {WIFI}\n- [ ] {LATER}\n", [], after=remark_when_reopened)
    outcome, run_dir = run(tmp_path, spec, phone, model, max_steps=20, checkpoint_max_repairs=2,
                           same_finding_limit=10, final_check=False)
    record = read_run(run_dir)
    assert [v.status for v in verdicts_of(run_dir, verify.text)] == ["failed"] * 3
    assert sum(f"- [/] {WIFI}" in plan for plan in record.plans) == 2  # reopened twice, not a third time
    assert any(e.kind == "repair_quota_spent" for e in record.events)
    assert any("wifi_on" in request.messages[1].text and "Findings" in request.messages[1].text
               for request in model.requests if request.role == "operator")
    assert outcome.task.status == "blocked" and outcome.task.unmet == (verify.text,)


def test_assert_failure_is_recorded_only(tmp_path, phone):
    verify = setting_item(hint=WIFI)
    check = setting_item("bluetooth_on", kind="assert", text="Bluetooth stays on", hint=WIFI)
    spec = TaskSpec(goal="Turn on Wi-Fi", checks=(verify, check))
    model = script(f"- [ ] {WIFI}\n", [step_marking(WIFI, actions=(Tap(element=0),))])
    outcome, run_dir = run(tmp_path, spec, phone, model)
    assert [v.status for v in verdicts_of(run_dir, check.text)] == ["failed"]
    assert not any("[/]" in plan for plan in read_run(run_dir).plans)
    assert outcome.task.status == "completed" and outcome.tests.failed == 1 and outcome.tests.passed == 2


def test_halt_policy_stops_the_run_on_a_failed_assert(tmp_path, phone):
    check = setting_item("bluetooth_on", kind="assert", text="Bluetooth stays on", hint=WIFI)
    spec = TaskSpec(goal="Turn on Wi-Fi", checks=(check,))
    turns = [step_marking(WIFI, actions=(Tap(element=0),))]
    model = script(f"- [ ] {WIFI}\n- [ ] {LATER}\n", turns, after=WAIT)
    outcome, _ = run(tmp_path, spec, phone, model, assert_policy="halt", max_steps=10)
    assert outcome.stop_reason == "assert failed (halt policy): Bluetooth stays on"
    assert outcome.task.status == "blocked" and outcome.tests.failed == 1 and outcome.steps < 10


def test_a_stale_verdict_is_recorded_but_not_applied(tmp_path, phone):
    item = CheckItem(kind="verify", text="The Wi-Fi switch reads ON", subgoal_hint=WIFI)

    async def slow_failing(request):
        await asyncio.sleep(0.4)
        return CheckReport(verdicts=[cited(request, item, "failed", "step 1 post screen shows it OFF")])

    reword = lambda request: OperatorDecision(  # noqa: E731
        decision="reword", actions=[Wait(ms=150)],
        plan=request.plan.replace(f"[x] {WIFI}", f"[ ] {WIFI} now"))
    slow_wait = OperatorDecision(decision="wait", actions=[Wait(ms=150)])
    plan = f"- [ ] {WIFI}\n- [ ] {LATER}\n"
    acted = step_marking(WIFI, actions=(Tap(element=1),))
    model = script(plan, [acted, reword], slow_failing, after=slow_wait)
    outcome, run_dir = run(tmp_path, TaskSpec(goal=WIFI, checks=(item,)), phone, model, max_steps=6,
                           final_check=False)
    record = read_run(run_dir)
    assert [v.status for v in verdicts_of(run_dir, item.text)] == ["failed"]  # on record ...
    assert not any("[/]" in plan for plan in record.plans)  # ... but the subgoal was not reopened
    reasons = [e.fields["reason"] for e in record.events if e.kind == "verdict_not_applied"]
    assert reasons == ["subgoal changed"]


def test_fail_open_checker_timeout_leaves_the_verdict_inconclusive(tmp_path, phone):
    item = CheckItem(kind="verify", text="The Wi-Fi switch reads ON", subgoal_hint=WIFI)

    async def hanging(request):
        await asyncio.sleep(5)

    model = script(f"- [ ] {WIFI}\n- [ ] {LATER}\n",
                   [step_marking(WIFI, actions=(Tap(element=0),)), WAIT, WAIT, step_marking(LATER)], hanging)
    outcome, run_dir = run(tmp_path, TaskSpec(goal=WIFI, checks=(item,)), phone, model,
                           check_timeout_s=0.2, final_check=False)
    (verdict,) = verdicts_of(run_dir, item.text)
    assert (verdict.status, verdict.reason) == ("inconclusive", "timeout after 0.2s")
    assert outcome.steps == 4 and outcome.execution == "finished"  # the run went on
    assert outcome.tests.inconclusive == 1 and outcome.task.status == "partial"


def test_lying_operator_ends_blocked_never_completed(tmp_path, phone):
    verify = setting_item(hint=WIFI)
    spec = TaskSpec(goal="Turn on Wi-Fi", checks=(verify,))
    liar = lambda request: OperatorDecision(  # noqa: E731
        decision="all done", actions=[{"kind": "finish", "summary": "done"}],
        plan=request.plan.replace("[ ]", "[x]").replace("[/]", "[x]"))
    model = script(f"- [ ] {WIFI}\n- [ ] {LATER}\n", [], after=liar)
    outcome, _ = run(tmp_path, spec, phone, model)
    assert outcome.task.status == "blocked" and outcome.task.unmet == (verify.text,)
    assert phone.settings["wifi_on"] == "0" and phone.taps == []


def test_guard_restores_check_lines_the_operator_deleted(tmp_path, phone):
    verify = setting_item(hint=WIFI)
    drop = lambda request: OperatorDecision(  # noqa: E731
        decision="tidy the plan", actions=[Tap(element=0)], plan=f"- [x] {WIFI}\n")
    model = script(f"- [ ] {WIFI}\n", [drop])
    outcome, run_dir = run(tmp_path, TaskSpec(goal=WIFI, checks=(verify,)), phone, model)
    record = read_run(run_dir)
    assert "guard_restored" in record.steps[0].flags
    assert f"verify: {verify.text}" in record.plans[-1] and f"- [x] {WIFI}" in record.plans[-1]
    assert outcome.tests.passed == 2


def test_complete_item_true_now_but_without_history_is_not_passed(tmp_path, phone):
    item = CheckItem(kind="assert", text="The Wi-Fi switch reads ON", subgoal_hint=WIFI)
    # the operator turns Wi-Fi on but never marks the subgoal done: there is no anchored evidence
    model = script(f"- [ ] {WIFI}\n", [OperatorDecision(decision="tap", actions=[Tap(element=0)])])
    outcome, _ = run(tmp_path, TaskSpec(goal=WIFI, checks=(item,)), phone, model)
    assert phone.settings["wifi_on"] == "1"
    summary = next(i for i in outcome.tests.items if i.kind == "assert")
    assert summary.status == "unchecked" and "never marked done" in summary.reason
    assert not any(item in r.checks for r in model.requests if r.role == "checker")


VERIFY = setting_item(hint=WIFI)
TOAST = CheckItem(kind="assert", text="The Wifi switch is on", subgoal_hint=WIFI)
END = CheckItem(kind="assert", when="end", text="No crash dialog is shown")


@pytest.mark.parametrize(("midway", "final", "expected"), [
    (False, False, {VERIFY.text: "unchecked", TOAST.text: "unchecked", END.text: "unchecked",
                    "Turn on Wi-Fi": "unchecked"}),
    (False, True, {VERIFY.text: "passed", TOAST.text: "passed", END.text: "passed",
                   "Turn on Wi-Fi": "passed"}),
    (True, False, {VERIFY.text: "passed", TOAST.text: "passed", END.text: "unchecked"}),
    (True, True, {VERIFY.text: "passed", TOAST.text: "passed", END.text: "passed",
                  "Turn on Wi-Fi": "passed"}),
])
def test_four_switch_combinations(tmp_path, phone, midway, final, expected):
    spec = TaskSpec(goal="Turn on Wi-Fi", checks=(VERIFY, TOAST, END))
    model = script(f"- [ ] {WIFI}\n", [step_marking(WIFI, actions=(Tap(element=0),))], passing_checker)
    outcome, run_dir = run(tmp_path, spec, phone, model, midway_checks=midway, final_check=final)
    assert {i.text: i.status for i in outcome.tests.items} == expected
    checker_requests = [r for r in model.requests if r.role == "checker"]
    # an end item is never judged midway; complete items are never judged on the live screen
    assert all(END not in r.checks for r in checker_requests if r.entry == "checkpoint")
    assert all(r.screen is None for r in checker_requests if r.entry == "checkpoint")
    assert any(r.entry == "final" for r in checker_requests) is final
    if not midway and not final:
        assert checker_requests == [] and phone.probes == []
        assert outcome.tests.items[0].reason == "checks disabled"
        for request in model.requests:
            text = "\n".join(m.text for m in request.messages)
            assert not any(word in text for word in ("verify:", "assert:", "@end")), request.role
    if midway and not final:
        end = next(i for i in outcome.tests.items if i.text == END.text)
        assert end.reason == "never judged"


def test_final_check_sends_the_operator_back_for_unmet_verify_but_never_for_asserts(tmp_path, phone):
    verify = setting_item(hint=WIFI)
    check = setting_item("bluetooth_on", kind="assert", when="end", text="Bluetooth is on at the end")

    def operator(request):
        if "final check" not in request.messages[1].text:  # first claim: nothing done yet
            return OperatorDecision(decision="done", actions=[{"kind": "finish"}],
                                    plan=mark(request.plan, WIFI))
        return OperatorDecision(decision="repair", actions=[Tap(element=0), {"kind": "finish"}],
                                plan=mark(request.plan, WIFI))

    model = script(f"- [ ] {WIFI}\n", [], after=operator)
    outcome, run_dir = run(tmp_path, TaskSpec(goal=WIFI, checks=(verify, check)), phone, model)
    record = read_run(run_dir)
    assert [s.turn for s in record.steps] == ["act", "final_repair"]
    assert [v.status for v in verdicts_of(run_dir, verify.text)] == ["failed", "passed"]
    assert [e.kind for e in record.events].count("final_send_back") == 1  # the failed assert sent nobody back
    assert outcome.task.status == "completed" and outcome.tests.failed == 1


def _claim_then_repair(request):
    """Claims Wi-Fi done without touching it; once sent back by the final check, taps the switch."""
    if "final check" not in request.messages[1].text:
        return OperatorDecision(decision="done", actions=[{"kind": "finish"}], plan=mark(request.plan, WIFI))
    return OperatorDecision(decision="repair", actions=[Tap(element=0), {"kind": "finish"}],
                            plan=mark(request.plan, WIFI))


def test_a_final_check_that_can_only_send_the_operator_back_is_not_judged(tmp_path, phone):
    """The probe already failed the verify item: final check #1 sends the operator back whatever it would
    find, so it asks the checker nothing; the exit's final check judges the goal on the repaired state."""
    verify = setting_item(hint=WIFI)
    model = script(f"- [ ] {WIFI}\n", [], after=_claim_then_repair)
    outcome, run_dir = run(tmp_path, TaskSpec(goal="Turn on Wi-Fi", checks=(verify,)), phone, model)
    record = read_run(run_dir)
    finals = [r for r in model.requests if r.role == "checker" and r.entry == "final"]
    assert len(finals) == 1 and [s.turn for s in record.steps] == ["act", "final_repair"]
    cut = [e for e in record.events if e.kind == "final_check_cut_short"]
    assert len(cut) == 1 and cut[0].fields["attempt"] == 1 and cut[0].fields["unmet"] == [verify.text]
    (goal,) = [v for v in record.verdicts if v.kind == "goal"]
    assert goal.attempt_id == "final#2" and goal.status == "passed"
    assert [v.status for v in verdicts_of(run_dir, verify.text)] == ["failed", "passed"]
    assert outcome.task.status == "completed" and outcome_word(outcome) == "PASSED"


@pytest.mark.parametrize("limit", ["attempts", "steps"])
def test_the_last_final_check_is_judged_even_when_a_verify_item_failed(tmp_path, phone, limit):
    """No send-back is possible (attempts or steps spent): the final check judges the goal, which fails."""
    verify = setting_item(hint=WIFI)
    model = script(f"- [ ] {WIFI}\n", [], after=_claim_then_repair)
    budget = {"final_check_max_attempts": 1} if limit == "attempts" else {"max_steps": 1}
    outcome, run_dir = run(tmp_path, TaskSpec(goal="Turn on Wi-Fi", checks=(verify,)), phone, model,
                           **budget)
    record = read_run(run_dir)
    assert not any(e.kind in ("final_check_cut_short", "final_send_back") for e in record.events)
    assert [r.entry for r in model.requests if r.role == "checker"] == ["final"]
    (goal,) = [v for v in record.verdicts if v.kind == "goal"]
    assert goal.attempt_id == "final#1"
    assert outcome.task.status == "blocked" and outcome_word(outcome) == "BLOCKED"


def test_the_final_state_is_judged_while_a_checkpoint_check_still_runs(tmp_path, phone):
    """The goal and the end items do not wait for a running checkpoint check: the checkpoint's checker
    call is held until the final check has asked (a settlement in series would never release it), and
    both verdicts count, the checkpoint's recorded before the final check's."""
    final_asked = threading.Event()

    def checker(request):
        if request.entry == "final":
            final_asked.set()
        elif not final_asked.wait(timeout=20):
            return CheckReport(verdicts=[])  # in series: the checkpoint is silent, the item inconclusive
        return passing_checker(request)

    spec = TaskSpec(goal=WIFI, checks=(setting_item(hint=WIFI, probe=False, text="The Wi-Fi switch is on"),))
    model = script(f"- [ ] {WIFI}\n", [step_marking(WIFI, actions=(Tap(element=0),))], checker)
    outcome, run_dir = run(tmp_path, spec, phone, model)
    assert final_asked.is_set()
    assert outcome_word(outcome) == "PASSED", outcome
    record = read_run(run_dir)
    statuses = [(v.checkpoint_id == "final", v.kind, v.status) for v in record.verdicts]
    assert statuses == [(False, "verify", "passed"), (True, "goal", "passed")]


def test_a_checkpoint_failure_that_arrives_after_the_final_check_passed_still_fails_the_test(tmp_path, phone):
    """Late evidence against a pass: the final check (judged side by side with the running checkpoint)
    passes the goal first; the checkpoint's failed assertion, harvested after it, still decides."""
    final_answered = threading.Event()
    assertion = CheckItem(kind="assert", text="The Wi-Fi switch is on", subgoal_hint=WIFI)

    def checker(request):
        if request.entry == "final":
            report = passing_checker(request)
            final_answered.set()
            return report
        final_answered.wait(timeout=20)
        return CheckReport(verdicts=[cited(request, i, "failed", "the switch reads off")
                                     for i in request.checks])

    spec = TaskSpec(goal=WIFI, checks=(assertion,))
    model = script(f"- [ ] {WIFI}\n", [step_marking(WIFI, actions=(Tap(element=0),))], checker)
    outcome, run_dir = run(tmp_path, spec, phone, model)
    assert final_answered.is_set()
    assert outcome_word(outcome) == "FAILED", outcome
    assert [v.status for v in verdicts_of(run_dir, assertion.text)] == ["failed"]
    assert [v.status for v in verdicts_of(run_dir, WIFI) if v.kind == "goal"] == ["passed"]


def test_the_agents_own_check_lines_are_judged_but_the_outcome_rests_on_the_tests_items_and_the_goal(
        tmp_path, phone):
    """The planner adds a verify line of its own that the checker cannot confirm: it is judged and recorded,
    but a goal confirmed with evidence still passes (one the checker finds unmet sends the agent back to
    repair, as any verify line does)."""
    own = "inconclusive"
    mine = "The Wi-Fi switch reads ON after having been OFF"

    def checker(request):
        return CheckReport(verdicts=[cited(request, i, own if i.text == mine else "passed", "seen")
                                     for i in request.checks])

    model = script(f"- [ ] {WIFI}\n  - verify: {mine}\n", [step_marking(WIFI, actions=(Tap(element=0),))],
                   checker, after=step_marking(WIFI))
    outcome, run_dir = run(tmp_path, TaskSpec(goal=WIFI), phone, model, checkpoint_max_repairs=1)
    record = read_run(run_dir)
    assert {v.status for v in record.verdicts if v.item_text == mine} == {own}
    assert outcome_word(outcome) == "PASSED", outcome.task
    assert [i.text for i in outcome.tests.items] == [WIFI]  # the goal only: the test declared no items
