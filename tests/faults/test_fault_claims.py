"""The agent's word is a claim: lying operators, contradicted claims, repeated findings, vacuous checks."""

from __future__ import annotations

from fault_harness import run_matrix, statuses
from fault_scripts import sim_phone

from pytest_artemis.checking.vacuity import VACUOUS_REASON

LYING = '''
import pytest
from fault_scripts import ALARM_PLAN, CLOCK, mark_done, verdicts
from pytest_artemis import probes
from pytest_artemis.agents.schemas import OperatorDecision, PlanReply
from pytest_artemis.contracts import Finish


def respond(request, device):
    if request.role == "planner":
        return PlanReply(plan=ALARM_PLAN)
    if request.role == "operator":
        plan = mark_done(request.plan) if "[ticks]" in request.goal else None
        return OperatorDecision(decision="the 7:30 AM alarm is created",
                                actions=[Finish(summary="Created the 7:30 AM alarm")], plan=plan)
    # A credulous checker: it would pass anything it is asked about.
    return verdicts(request, "passed", "the operator reports that the alarm was created")


@pytest.mark.goal("Create an alarm for 7:30 AM", app=CLOCK)
@pytest.mark.verify("An enabled 7:30 AM alarm exists", probe=probes.alarm_set("07:30"))
def test_finish_only(artemis):
    pass


@pytest.mark.goal("Create an alarm for 7:30 AM [ticks]", app=CLOCK)
@pytest.mark.verify("An enabled 7:30 AM alarm exists", probe=probes.alarm_set("07:30"))
def test_ticks_and_finish(artemis):
    pass
'''


def test_lying_operator_is_blocked(project):
    project.makepyfile(test_lying=LYING)
    matrix = run_matrix(project)
    for name in ("test_finish_only", "test_ticks_and_finish"):
        case = matrix.expect(name, "BLOCKED")
        assert "unmet criteria:" in case.text and "An enabled 7:30 AM alarm exists" in case.text
        record = matrix.journal(name)
        assert record.execution == "finished" and record.outcome.task.status == "blocked"
        assert "passed" not in statuses(record, "An enabled 7:30 AM alarm exists")
        assert all("finish_claimed" in s.flags for s in record.steps)
        assert all(r.action.kind == "finish" for s in record.steps for r in s.results)
        # The final check sent the liar back before giving up: every claim was re-examined.
        assert [e.kind for e in record.events].count("final_send_back") >= 1
    ticked = matrix.journal("test_ticks_and_finish")
    failed = [v for v in ticked.verdicts if v.status == "failed"]
    assert failed and all(v.source == "probe" and "no clock-app alarm at 07:30" in v.evidence for v in failed)
    finish_only = matrix.journal("test_finish_only")
    assert statuses(finish_only, "An enabled 7:30 AM alarm exists")[-1] == "unchecked"
    alarm = [v for v in finish_only.verdicts if v.item_text == "An enabled 7:30 AM alarm exists"]
    assert "never marked done" in alarm[-1].reason
    assert not any(a.hour == 7 and a.minute == 30 for a in sim_phone("emulator-5554").state.alarms)


CONTRADICTED = '''
import pytest
from fault_scripts import SETTINGS, mark_done, verdicts
from pytest_artemis import probes
from pytest_artemis.agents.schemas import OperatorDecision, PlanReply
from pytest_artemis.contracts import Finish, Tap


def respond(request, device):
    if request.role == "planner":
        return PlanReply(plan="- [ ] Turn on Bluetooth\\n")
    if request.role == "operator":
        row = request.screen.find("Network & internet")
        if row is not None:  # the wrong page, and it never flips anything
            return OperatorDecision(decision="Bluetooth is now on", plan=mark_done(request.plan),
                                    actions=[Tap(element=row.index), Finish(summary="Bluetooth is on")])
        return OperatorDecision(decision="Bluetooth is on", actions=[Finish(summary="Bluetooth is on")],
                                plan=mark_done(request.plan))
    return verdicts(request, "passed", "step 1 decision says Bluetooth is now on")


@pytest.mark.goal("Turn on Bluetooth", app=SETTINGS)
@pytest.mark.verify("Bluetooth is on", probe=probes.setting("global", "bluetooth_on", equals=True))
@pytest.mark.assert_("The Bluetooth switch shows ON")
def test_claimed_bluetooth(artemis):
    pass
'''


def test_a_claim_the_probe_contradicts_is_not_passed(project):
    project.makepyfile(test_contradicted=CONTRADICTED)
    matrix = run_matrix(project)
    case = matrix.expect("test_claimed_bluetooth", "BLOCKED")
    assert "settings get global/bluetooth_on -> '0'" in case.text
    record = matrix.journal("test_claimed_bluetooth")
    probe = [v for v in record.verdicts if v.source == "probe"]
    assert probe and {v.status for v in probe} == {"failed"}
    assert record.outcome.tests.failed == 1 and record.outcome.task.status == "blocked"
    assert sim_phone("emulator-5554").state.settings["global"]["bluetooth_on"] == "0"


SAME_FINDING = '''
import pytest
from fault_scripts import mark_done, verdicts
from pytest_artemis.agents.schemas import OperatorDecision, PlanReply
from pytest_artemis.contracts import Wait


def respond(request, device):
    if request.role == "planner":
        return PlanReply(plan="- [ ] Turn on Bluetooth\\n")
    if request.role == "operator":
        return OperatorDecision(decision="I believe it is on", actions=[Wait(ms=30)],
                                plan=mark_done(request.plan))
    if not request.checks:
        return verdicts(request, "passed", "")
    summary = request.history[-1] if request.history else "no step recorded"
    return verdicts(request, "failed", "the Bluetooth switch is never tapped: " + summary.split(":")[0]
                    + " only waited")


@pytest.mark.goal("Turn on Bluetooth")
@pytest.mark.verify("The Bluetooth switch shows ON")
def test_repeats_itself(artemis):
    pass
'''


def test_the_same_finding_three_times_blocks_with_that_reason(project):
    project.makepyfile(test_same=SAME_FINDING)
    matrix = run_matrix(project)
    case = matrix.expect("test_repeats_itself", "BLOCKED")
    assert "circuit breaker: the same finding 3 times" in case.message + case.text
    record = matrix.journal("test_repeats_itself")
    failed = [v for v in record.verdicts if v.status == "failed" and v.kind == "verify"]
    assert len(failed) == 3 and len({v.attempt_id for v in failed}) == 3
    assert record.outcome.task.status == "blocked"
    assert record.outcome.stop_reason.startswith("circuit breaker: the same finding 3 times")
    assert record.outcome.steps < 30  # stopped by the breaker, not by the step budget


VACUOUS = '''
import pytest
from fault_scripts import SETTINGS, mark_done, verdicts
from pytest_artemis import probes
from pytest_artemis.agents.schemas import OperatorDecision, PlanReply
from pytest_artemis.contracts import Finish


def respond(request, device):
    if request.role == "planner":
        return PlanReply(plan="- [ ] Turn on Wi-Fi\\n")
    if request.role == "operator":
        return OperatorDecision(decision="Wi-Fi is on", actions=[Finish(summary="Wi-Fi is on")],
                                plan=mark_done(request.plan))
    return verdicts(request, "passed", "nothing to judge here")


@pytest.mark.goal("Turn on Wi-Fi", app=SETTINGS)
@pytest.mark.verify("Wi-Fi is on", probe=probes.setting("global", "wifi_on", equals=True))
def test_wifi_already_on(artemis):
    pass


@pytest.mark.goal("Turn on Wi-Fi", app=SETTINGS)
@pytest.mark.assert_("Wi-Fi is on", when="end", probe=probes.setting("global", "wifi_on", equals=True))
def test_wifi_already_on_assert(artemis):
    pass
'''


def test_a_check_already_true_before_the_run_is_not_passed(project):
    project.makepyfile(test_vacuous=VACUOUS)
    matrix = run_matrix(project)
    for name in ("test_wifi_already_on", "test_wifi_already_on_assert"):
        matrix.expect(name, "UNCHECKED")
        record = matrix.journal(name)
        baseline = [e for e in record.events if e.kind == "vacuity_baseline"]
        assert baseline and baseline[0].fields["held"] is True
        current = [v for v in record.verdicts if v.item_text == "Wi-Fi is on"][-1]
        assert current.status == "unchecked" and current.vacuous
        assert current.reason == VACUOUS_REASON
        assert not [i for i in record.outcome.tests.items if i.status == "passed" and i.kind != "goal"]
