"""The checking half's effects and the stop decision, on a run state built as run_task builds it."""

from __future__ import annotations

import time

import pytest
from engine_fakes import make_journal, script, setting_item

from pytest_artemis.contracts import CheckItem, CheckVerdict, InfraFailure, TaskSpec
from pytest_artemis.engine import NullObserver, RunConfig
from pytest_artemis.engine.checkpoints import Attempt, Checkpoint, Harvest
from pytest_artemis.engine.effects import AddFinding, FinalCheck, Record, Reopen, SendBack, apply
from pytest_artemis.engine.findings import FindingKey, finding_text
from pytest_artemis.engine.harvest import harvest_effects
from pytest_artemis.engine.settlement import send_back
from pytest_artemis.engine.state import RunState
from pytest_artemis.engine.stopping import Stop, StopReason, before_turn, run_stop
from pytest_artemis.engine.verdicts import make_verdict
from pytest_artemis.models import CallLog, ModelSet
from pytest_artemis.plan import parse_plan, place_checks, subgoal_key
from pytest_artemis.store.reader import read_run

WIFI = "Turn on Wi-Fi"
LATER = "Look at the result"
VERIFY = setting_item(hint=WIFI)
ASSERT = setting_item("bluetooth_on", kind="assert", probe=False, text="no crash dialog", hint=WIFI)


def make_state(tmp_path, phone, plan: str, **config: object) -> RunState:
    spec = TaskSpec(goal="Turn on Wi-Fi", checks=(VERIFY, ASSERT))
    journal = make_journal(tmp_path, spec)
    state = RunState(spec=spec, config=RunConfig(**config), device=phone,  # type: ignore[arg-type]
                     models=ModelSet.uniform(script(plan, [])), journal=journal, observer=NullObserver(),
                     header=journal.header, calls=CallLog(journal.header.run_id))
    state.set_plan(place_checks(parse_plan(plan), spec.checks))
    return state


def verdict(item: CheckItem, status: str, attempt: str = "1") -> CheckVerdict:
    evidence = f"wifi_on is {'1' if status == 'passed' else '0'}"
    return make_verdict(item, status=status, evidence=evidence, source="probe",  # type: ignore[arg-type]
                        attempt_id=f"{subgoal_key(WIFI)}#{attempt}", checkpoint_id=subgoal_key(WIFI),
                        anchor_step=1, started_at=time.time())


def harvest(state: RunState, *verdicts: CheckVerdict, current: bool = True) -> Harvest:
    checkpoint = Checkpoint(subgoal_key(WIFI), WIFI, (VERIFY, ASSERT), state.plan_text)
    return Harvest(Attempt(checkpoint, verdicts[0].attempt_id, 1, time.time()), verdicts, current)


def status_of(state: RunState, text: str) -> str:
    return next(s.status for s in state.plan.subgoals if s.text == text)


def test_a_failed_checkpoint_reopens_its_subgoal_with_the_finding(tmp_path, phone):
    state = make_state(tmp_path, phone, f"- [x] {WIFI}\n- [ ] {LATER}\n")
    failed = verdict(VERIFY, "failed")
    effects = harvest_effects(state, harvest(state, failed, verdict(ASSERT, "passed")))
    assert effects[2:] == [AddFinding(FindingKey.item(VERIFY.key), finding_text(failed)),
                           Reopen((subgoal_key(WIFI),), repair_of=subgoal_key(WIFI))]
    assert [type(e) for e in effects[:2]] == [Record, Record] and status_of(state, WIFI) == "done"
    version = state.plan_version
    apply(state, effects)
    assert status_of(state, WIFI) == "reopened" and state.plan_version == version + 1
    assert list(state.findings) == [FindingKey.item(VERIFY.key)] and "wifi_on is 0" in state.last_finding
    assert state.repairs[subgoal_key(WIFI)] == 1 and len(state.ledger) == 2 and state.stop is None
    assert [v.status for v in read_run(state.journal.dir).verdicts] == ["failed", "passed"]
    apply(state, [Record(verdict(VERIFY, "passed", "2"))])
    assert state.findings == {}  # a later pass clears the item's finding


def test_a_spent_quota_or_a_stale_attempt_only_records(tmp_path, phone):
    state = make_state(tmp_path, phone, f"- [x] {WIFI}\n", checkpoint_max_repairs=0)
    spent = harvest_effects(state, harvest(state, verdict(VERIFY, "failed")))
    stale = harvest_effects(state, harvest(state, verdict(VERIFY, "failed"), current=False))
    assert [type(e) for e in spent + stale] == [Record, Record]
    apply(state, spent + stale)
    assert status_of(state, WIFI) == "done" and state.findings == {}
    events = [e.kind for e in read_run(state.journal.dir).events]
    assert "repair_quota_spent" in events and "verdict_not_applied" in events


def test_a_failed_assert_halts_under_the_halt_policy_and_the_first_stop_wins(tmp_path, phone):
    state = make_state(tmp_path, phone, f"- [x] {WIFI}\n", assert_policy="halt")
    effects = harvest_effects(state, harvest(state, verdict(ASSERT, "failed")))
    assert effects[1:] == [Stop(StopReason.ASSERT_HALT, "assert failed (halt policy): no crash dialog")]
    apply(state, [*effects, Stop(StopReason.TIME_BUDGET)])
    assert state.stop == effects[1] and state.stop.blocks
    assert before_turn(state, first=True) == state.stop


def test_the_same_finding_three_times_trips_the_breaker(tmp_path, phone):
    state = make_state(tmp_path, phone, f"- [x] {WIFI}\n", same_finding_limit=3)
    apply(state, [Record(verdict(VERIFY, "failed", str(n))) for n in (1, 2)])
    assert state.stop is None
    apply(state, [Record(verdict(VERIFY, "failed", "3"))])
    assert state.stop is not None and state.stop.reason is StopReason.BREAKER
    assert state.stop.text.startswith("circuit breaker: the same finding 3 times: wifi_on is 1")


def test_the_final_check_sends_the_operator_back_to_what_it_found_unmet(tmp_path, phone):
    state = make_state(tmp_path, phone, f"- [x] {WIFI}\n- [x] {LATER}\n")
    apply(state, [FinalCheck(1, (LATER,)), Record(verdict(VERIFY, "failed"))])
    effects = send_back(state)
    assert effects[-2:] == [Reopen(tuple(sorted((subgoal_key(WIFI), subgoal_key(LATER))))),
                            SendBack((VERIFY.text,))]
    assert [e.key for e in effects[:-2]] == [FindingKey.item(VERIFY.key), FindingKey.goal(subgoal_key(LATER))]
    apply(state, effects)
    assert (status_of(state, WIFI), status_of(state, LATER)) == ("reopened", "reopened")
    assert state.turn_kind == "final_repair" and not state.finish_claimed
    apply(state, [FinalCheck(2, ())])  # the next final check replaces the goal's findings only
    assert list(state.findings) == [FindingKey.item(VERIFY.key)] and state.final_attempts == 2


def test_no_send_back_once_a_limit_is_reached(tmp_path, phone):
    state = make_state(tmp_path, phone, f"- [x] {WIFI}\n", final_check_max_attempts=1)
    apply(state, [FinalCheck(1, ()), Record(verdict(VERIFY, "failed"))])
    assert send_back(state) == []


@pytest.mark.parametrize(("config", "first", "expected"), [
    ({"max_steps": 1}, True, StopReason.STEP_BUDGET),
    ({"deadline": 1.0}, True, StopReason.TIME_BUDGET),
    ({}, False, StopReason.ALL_DONE),
    ({}, True, None),
])
def test_before_turn(tmp_path, phone, config, first, expected):
    state = make_state(tmp_path, phone, f"- [x] {WIFI}\n", **config)
    state.steps.append(None)  # type: ignore[arg-type]  # only their count matters here
    stop = before_turn(state, first=first)
    assert (stop.reason if stop else None) is expected
    assert stop is None or stop.blocks == (expected is StopReason.TIME_BUDGET)


def test_the_outcome_reason_puts_a_crash_first_and_the_step_budget_last(tmp_path, phone):
    state = make_state(tmp_path, phone, f"- [ ] {WIFI}\n")
    infra = InfraFailure(kind="device", error_class="DeviceUnavailable", message="gone")
    assert run_stop(state, "finished", None).text == "step budget exhausted"
    state.finish_claimed = True
    assert run_stop(state, "finished", None).text == "finish claimed"
    apply(state, [Stop(StopReason.TIME_BUDGET)])
    assert run_stop(state, "finished", None).text == "time budget exhausted"
    assert run_stop(state, "interrupted", None).text == "interrupted"
    assert run_stop(state, "crashed", infra).text == "crashed: device (DeviceUnavailable)"
