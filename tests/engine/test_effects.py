"""The checking half's effects and the stop decision, on a run state built as run_task builds it."""

from __future__ import annotations

import time

import pytest
from engine_fakes import make_journal, script, setting_item

from pytest_artemis.checking.checkpoints import Attempt, Checkpoint, Harvest
from pytest_artemis.checking.findings import FindingKey, finding_text
from pytest_artemis.checking.harvest import harvest_effects
from pytest_artemis.checking.settlement import send_back
from pytest_artemis.checking.verdicts import make_verdict
from pytest_artemis.contracts import CheckItem, CheckVerdict, InfraFailure, TaskSpec
from pytest_artemis.engine import NullObserver, RunConfig
from pytest_artemis.engine.effects import AddFinding, FinalCheck, Record, Reopen, SendBack, apply
from pytest_artemis.engine.state import RunProgress, RunServices
from pytest_artemis.engine.stopping import Stop, StopReason, before_turn, run_stop
from pytest_artemis.models import CallLog, ModelSet
from pytest_artemis.plan import parse_plan, place_checks, subgoal_key
from pytest_artemis.store.reader import read_run

WIFI = "Turn on Wi-Fi"
LATER = "Look at the result"
VERIFY = setting_item(hint=WIFI)
ASSERT = setting_item("bluetooth_on", kind="assert", probe=False, text="no crash dialog", hint=WIFI)


def make_run(tmp_path, phone, plan: str, **config: object) -> tuple[RunServices, RunProgress]:
    spec = TaskSpec(goal="Turn on Wi-Fi", checks=(VERIFY, ASSERT))
    journal = make_journal(tmp_path, spec)
    svc = RunServices.start(spec, RunConfig(**config), phone, ModelSet.uniform(script(plan, [])),  # type: ignore[arg-type]
                            journal, observer=NullObserver(), calls=CallLog(journal.header.run_id))
    run = RunProgress.start(svc.config)
    run.set_plan(place_checks(parse_plan(plan), spec.checks), journal)
    return svc, run


def verdict(item: CheckItem, status: str, attempt: str = "1") -> CheckVerdict:
    evidence = f"wifi_on is {'1' if status == 'passed' else '0'}"
    return make_verdict(item, status=status, evidence=evidence, source="probe",  # type: ignore[arg-type]
                        attempt_id=f"{subgoal_key(WIFI)}#{attempt}", checkpoint_id=subgoal_key(WIFI),
                        anchor_step=1, started_at=time.time())


def harvest(run: RunProgress, *verdicts: CheckVerdict, current: bool = True) -> Harvest:
    checkpoint = Checkpoint(subgoal_key(WIFI), WIFI, (VERIFY, ASSERT), run.plan_text)
    return Harvest(Attempt(checkpoint, verdicts[0].attempt_id, 1, time.time()), verdicts, current)


def status_of(run: RunProgress, text: str) -> str:
    return next(s.status for s in run.plan.subgoals if s.text == text)


def test_a_failed_checkpoint_reopens_its_subgoal_with_the_finding(tmp_path, phone):
    svc, run = make_run(tmp_path, phone, f"- [x] {WIFI}\n- [ ] {LATER}\n")
    failed = verdict(VERIFY, "failed")
    effects = harvest_effects(svc, run, harvest(run, failed, verdict(ASSERT, "passed")))
    assert effects[2:] == [AddFinding(FindingKey.item(VERIFY.key), finding_text(failed)),
                           Reopen((subgoal_key(WIFI),), repair_of=subgoal_key(WIFI))]
    assert [type(e) for e in effects[:2]] == [Record, Record] and status_of(run, WIFI) == "done"
    version = run.plan_version
    apply(svc, run, effects)
    assert status_of(run, WIFI) == "reopened" and run.plan_version == version + 1
    assert list(run.findings) == [FindingKey.item(VERIFY.key)] and "wifi_on is 0" in run.last_finding
    assert run.repairs[subgoal_key(WIFI)] == 1 and len(run.ledger) == 2 and run.stop is None
    assert [v.status for v in read_run(svc.journal.dir).verdicts] == ["failed", "passed"]
    apply(svc, run, [Record(verdict(VERIFY, "passed", "2"))])
    assert run.findings == {}  # a later pass clears the item's finding


def test_a_spent_quota_or_a_stale_attempt_only_records(tmp_path, phone):
    svc, run = make_run(tmp_path, phone, f"- [x] {WIFI}\n", checkpoint_max_repairs=0)
    spent = harvest_effects(svc, run, harvest(run, verdict(VERIFY, "failed")))
    stale = harvest_effects(svc, run, harvest(run, verdict(VERIFY, "failed"), current=False))
    assert [type(e) for e in spent + stale] == [Record, Record]
    apply(svc, run, spent + stale)
    assert status_of(run, WIFI) == "done" and run.findings == {}
    events = [e.kind for e in read_run(svc.journal.dir).events]
    assert "repair_quota_spent" in events and "verdict_not_applied" in events


def test_a_failed_assert_halts_under_the_halt_policy_and_the_first_stop_wins(tmp_path, phone):
    svc, run = make_run(tmp_path, phone, f"- [x] {WIFI}\n", assert_policy="halt")
    effects = harvest_effects(svc, run, harvest(run, verdict(ASSERT, "failed")))
    assert effects[1:] == [Stop(StopReason.ASSERT_HALT, "assert failed (halt policy): no crash dialog")]
    apply(svc, run, [*effects, Stop(StopReason.TIME_BUDGET)])
    assert run.stop == effects[1] and run.stop.blocks
    assert before_turn(svc, run, first=True) == run.stop


def test_the_same_finding_three_times_trips_the_breaker(tmp_path, phone):
    svc, run = make_run(tmp_path, phone, f"- [x] {WIFI}\n", same_finding_limit=3)
    apply(svc, run, [Record(verdict(VERIFY, "failed", str(n))) for n in (1, 2)])
    assert run.stop is None
    apply(svc, run, [Record(verdict(VERIFY, "failed", "3"))])
    assert run.stop is not None and run.stop.reason is StopReason.BREAKER
    assert run.stop.text.startswith("circuit breaker: the same finding 3 times: wifi_on is 1")


def test_the_final_check_sends_the_operator_back_to_what_it_found_unmet(tmp_path, phone):
    svc, run = make_run(tmp_path, phone, f"- [x] {WIFI}\n- [x] {LATER}\n")
    apply(svc, run, [FinalCheck(1, (LATER,)), Record(verdict(VERIFY, "failed"))])
    effects = send_back(svc, run)
    assert effects[-2:] == [Reopen(tuple(sorted((subgoal_key(WIFI), subgoal_key(LATER))))),
                            SendBack((VERIFY.text,))]
    assert [e.key for e in effects[:-2]] == [FindingKey.item(VERIFY.key), FindingKey.goal(subgoal_key(LATER))]
    apply(svc, run, effects)
    assert (status_of(run, WIFI), status_of(run, LATER)) == ("reopened", "reopened")
    assert run.turn_kind == "final_repair" and not run.finish_claimed
    apply(svc, run, [FinalCheck(2, ())])  # the next final check replaces the goal's findings only
    assert list(run.findings) == [FindingKey.item(VERIFY.key)] and run.final_attempts == 2


def test_no_send_back_once_a_limit_is_reached(tmp_path, phone):
    svc, run = make_run(tmp_path, phone, f"- [x] {WIFI}\n", final_check_max_attempts=1)
    apply(svc, run, [FinalCheck(1, ()), Record(verdict(VERIFY, "failed"))])
    assert send_back(svc, run) == []


@pytest.mark.parametrize(("config", "first", "expected"), [
    ({"max_steps": 1}, True, StopReason.STEP_BUDGET),
    ({"deadline": 1.0}, True, StopReason.TIME_BUDGET),
    ({}, False, StopReason.ALL_DONE),
    ({}, True, None),
])
def test_before_turn(tmp_path, phone, config, first, expected):
    svc, run = make_run(tmp_path, phone, f"- [x] {WIFI}\n", **config)
    run.steps.append(None)  # type: ignore[arg-type]  # only their count matters here
    stop = before_turn(svc, run, first=first)
    assert (stop.reason if stop else None) is expected
    assert stop is None or stop.blocks == (expected is StopReason.TIME_BUDGET)


def test_the_outcome_reason_puts_a_crash_first_and_the_step_budget_last(tmp_path, phone):
    svc, run = make_run(tmp_path, phone, f"- [ ] {WIFI}\n")
    infra = InfraFailure(kind="device", error_class="DeviceUnavailable", message="gone")
    assert run_stop(run, "finished", None).text == "step budget exhausted"
    run.finish_claimed = True
    assert run_stop(run, "finished", None).text == "finish claimed"
    apply(svc, run, [Stop(StopReason.TIME_BUDGET)])
    assert run_stop(run, "finished", None).text == "time budget exhausted"
    assert run_stop(run, "interrupted", None).text == "interrupted"
    assert run_stop(run, "interrupted", None, "Timeout >5.0s").text == "interrupted (Timeout >5.0s)"
    assert run_stop(run, "crashed", infra).text == "crashed: device (DeviceUnavailable)"
