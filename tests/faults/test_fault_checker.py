"""Checker faults: vague or missing evidence, stale evidence, timeouts, transient UI judged from history."""

from __future__ import annotations

import pytest
from fault_harness import run_matrix, statuses
from fault_scripts import SERVERS, load_ocr

VAGUE = '''
import pytest
from fault_scripts import SETTINGS, bluetooth_decision
from pytest_artemis import probes
from pytest_artemis.agents.schemas import CheckReport, ModelVerdict, PlanReply

EVIDENCE = {"[empty]": "", "[blank]": "   ", "[vague]": "The check passed successfully.",
            "[word]": "Confirmed, the condition is satisfied as required.", "[claim]": None}


def respond(request, device):
    if request.role == "planner":
        return PlanReply(plan="- [ ] Turn on Bluetooth\\n")
    if request.role == "operator":
        return bluetooth_decision(request)
    said = EVIDENCE[request.goal.rsplit(" ", 1)[-1]]
    # prose of any kind, the item text repeated included, but nothing cited
    return CheckReport(verdicts=[ModelVerdict(item=i.text, status="passed", evidence=i.text if said is None
                                              else said) for i in request.checks])


@pytest.fixture(autouse=True)
def bluetooth_off(artemis_device):
    """Each test starts from Bluetooth off and a fresh Settings task (the session shares one phone)."""
    artemis_device.check(["settings", "put", "global", "bluetooth_on", "0"])
    artemis_device.stop(SETTINGS)


def vague_test(tag):
    @pytest.mark.goal(f"Turn on Bluetooth {tag}", app=SETTINGS)
    @pytest.mark.verify("Bluetooth is on", probe=probes.setting("global", "bluetooth_on", equals=True))
    @pytest.mark.assert_("The Bluetooth switch shows ON")
    def test(artemis):
        pass
    return test


test_empty, test_blank, test_vague, test_word, test_claim = map(
    vague_test, ["[empty]", "[blank]", "[vague]", "[word]", "[claim]"])
'''


def test_a_pass_citing_nothing_is_unchecked_whatever_its_prose(project):
    project.makepyfile(test_vague=VAGUE)
    matrix = run_matrix(project)
    for name in ("test_empty", "test_blank", "test_vague", "test_word", "test_claim"):
        case = matrix.expect(name, "UNCHECKED")
        assert "The Bluetooth switch shows ON" in case.message
        record = matrix.journal(name)
        assert statuses(record, "Bluetooth is on")[-1] == "passed"  # the probe: real evidence
        judged = [v for v in record.verdicts if v.item_text == "The Bluetooth switch shows ON"]
        assert judged and {v.status for v in judged} == {"inconclusive"}, (name, judged)
        why = "passed, but [E1] no citation"
        assert all(v.source == "model" and why in v.reason for v in judged), judged


STALE = '''
import pytest
from fault_scripts import SETTINGS, bluetooth_decision, live_screen_only_checker, mark_done
from pytest_artemis import probes
from pytest_artemis.agents.schemas import OperatorDecision, PlanReply
from pytest_artemis.contracts import Launch


def respond(request, device):
    if request.role == "planner":
        return PlanReply(plan="- [ ] Turn on Bluetooth\\n")
    if request.role == "operator":
        if request.turn == 1:  # claims it before doing anything: the anchor holds no evidence
            return OperatorDecision(decision="on it", actions=[Launch(package=SETTINGS)],
                                    plan=mark_done(request.plan))
        return bluetooth_decision(request)
    return live_screen_only_checker(request)


@pytest.mark.goal("Turn on Bluetooth")
@pytest.mark.verify("Bluetooth is on", when="end",
                    probe=probes.setting("global", "bluetooth_on", equals=True))
@pytest.mark.assert_("The Bluetooth switch shows ON once it is flipped")
def test_stale(artemis):
    pass
'''


def test_stale_evidence_is_unchecked_although_the_current_state_is_fine(project):
    project.makepyfile(test_stale=STALE)
    matrix = run_matrix(project, "--artemis-no-midway-checks")
    case = matrix.expect("test_stale", "UNCHECKED")
    assert "The Bluetooth switch shows ON once it is flipped" in case.message
    record = matrix.journal("test_stale")
    assert record.outcome.task.status == "completed"
    assert SERVERS[-1].phone("emulator-5554").state.settings["global"]["bluetooth_on"] == "1"
    verdict = [v for v in record.verdicts if v.item_text.startswith("The Bluetooth switch")][-1]
    assert verdict.status == "inconclusive" and verdict.checkpoint_id == "final" and verdict.anchor_step == 1
    assert "never shows the Bluetooth page" in verdict.evidence
    assert "step 1 pre, step 1 post" in verdict.evidence  # judged on the anchor, not the live screen


TIMEOUT = '''
import asyncio

import pytest
from fault_scripts import SETTINGS, bluetooth_decision, verdicts
from pytest_artemis import probes
from pytest_artemis.agents.schemas import PlanReply


async def respond(request, device):
    if request.role == "planner":
        return PlanReply(plan="- [ ] Turn on Bluetooth\\n")
    if request.role == "operator":
        return bluetooth_decision(request)
    if request.checks:
        await asyncio.sleep(5)  # a checker that hangs
    return verdicts(request, "passed", "the switch widget reads ON in step 2 post")


@pytest.fixture(autouse=True)
def bluetooth_off(artemis_device):
    artemis_device.check(["settings", "put", "global", "bluetooth_on", "0"])
    artemis_device.stop(SETTINGS)


@pytest.mark.goal("Turn on Bluetooth", app=SETTINGS)
@pytest.mark.assert_("The Bluetooth switch shows ON")
@pytest.mark.assert_("No error dialog is shown", when="end")
def test_slow_checker(artemis):
    pass


@pytest.mark.goal("Turn on Bluetooth", app=SETTINGS)
@pytest.mark.verify("Bluetooth is on", probe=probes.setting("global", "bluetooth_on", equals=True))
@pytest.mark.assert_("The Bluetooth switch shows ON")
def test_slow_checker_and_a_probe(artemis):
    pass
'''
MODEL_ITEMS = ("The Bluetooth switch shows ON", "No error dialog is shown")


def test_a_checker_timeout_is_inconclusive_never_passed(project):
    project.makepyfile(test_timeout=TIMEOUT)
    matrix = run_matrix(project, "--artemis-check-timeout=0.4", "-k", "not probe")
    case = matrix.expect("test_slow_checker", "UNCHECKED")
    assert all(text in case.text for text in MODEL_ITEMS)  # the <skipped> body lists every item
    record = matrix.journal("test_slow_checker")
    for text in MODEL_ITEMS:
        judged = [v for v in record.verdicts if v.item_text == text]
        assert judged and judged[-1].status == "inconclusive" and "timeout" in judged[-1].reason, judged
        assert "passed" not in {v.status for v in judged}
    assert record.outcome.finished_at - record.outcome.started_at < 5  # nobody waited for the checker


def test_a_checker_timeout_keeps_the_probe_verdict(project):
    project.makepyfile(test_timeout=TIMEOUT)
    matrix = run_matrix(project, "--artemis-check-timeout=0.4", "-k", "probe")
    record = matrix.journal("test_slow_checker_and_a_probe")
    assert statuses(record, "The Bluetooth switch shows ON")[-1] == "inconclusive"
    assert statuses(record, "Bluetooth is on")[-1] == "passed"
    matrix.expect("test_slow_checker_and_a_probe", "UNCHECKED")


TOAST = '''
import pytest
from fault_scripts import CLOCK, alarm_decision, ocr_toast_checker, sim_phone
from pytest_artemis import probes
from pytest_artemis.agents.schemas import CheckReport, CitationClaim, ModelVerdict, PlanReply
from pytest_artemis.sim import Alarm


def respond(request, device):
    if request.role == "planner":
        return PlanReply(plan="- [ ] Create a 7:30 AM alarm\\n- [ ] Look at the alarm list\\n")
    if request.role == "operator":
        if "[no toast]" not in request.goal:
            return alarm_decision(request)
        decision = alarm_decision(request, save="Cancel")
        if "Cancel" in decision.decision:  # the alarm arrives by a path that shows no toast
            phone = sim_phone(device.serial)
            with phone.lock:
                phone.alarms.append(Alarm(7, 30, True, ""))
                phone.alarms.sort(key=lambda alarm: (alarm.hour, alarm.minute))
                phone.changed()
        return decision
    # The toast by OCR of the attached screenshots; the goal by the alarm listed on the final screen
    # (a toast has long gone by then, so judging the goal by it would depend on timing).
    report = ocr_toast_checker(request)
    goal = [ModelVerdict(item=i.text, status="passed", evidence="the alarm list shows 7:30 AM",
                         citation=CitationClaim(screen="final", quote="7:30 AM"))
            for i in request.checks if i.kind == "goal"]
    return CheckReport(verdicts=goal + [v for v in report.verdicts
                                        if v.item not in {g.item for g in goal}])


@pytest.mark.goal("Create an alarm for 7:30 AM", app=CLOCK)
@pytest.mark.verify("An enabled 7:30 AM alarm exists", probe=probes.alarm_set("07:30"))
@pytest.mark.assert_("A confirmation toast appears right after saving", subgoal="Create a 7:30 AM alarm")
def test_toast_shown(artemis):
    pass


@pytest.mark.goal("Create an alarm for 7:30 AM [no toast]", app=CLOCK)
@pytest.mark.verify("An enabled 7:30 AM alarm exists", probe=probes.alarm_set("07:30"))
@pytest.mark.assert_("A confirmation toast appears right after saving", subgoal="Create a 7:30 AM alarm")
def test_toast_never_shown(artemis):
    pass
'''


@pytest.mark.slow
def test_a_transient_toast_is_judged_from_the_anchored_history(project):
    pytest.importorskip("rapidocr")
    load_ocr()  # loaded here: numpy/onnxruntime cannot be re-imported after an in-process run unloads them
    project.makepyfile(test_toast=TOAST)
    # With OCR on, the recorded screens hold the toast's text as an element the checker can cite; without
    # it nothing recorded shows a toast, and the item is honestly unchecked.
    runs = {name: run_matrix(project, "--artemis-ocr=rapidocr", "-k", name)
            for name in ("test_toast_shown", "test_toast_never_shown")}
    shown, never = runs["test_toast_shown"].journal("test_toast_shown"), \
        runs["test_toast_never_shown"].journal("test_toast_never_shown")
    # The final screen is the same in both runs: only the anchored history can tell them apart.
    assert shown.steps[-1].post_screen == never.steps[-1].post_screen
    assert len(shown.steps) == len(never.steps) and shown.steps[-1].decision == never.steps[-1].decision
    runs["test_toast_shown"].expect("test_toast_shown", "PASSED")
    case = runs["test_toast_never_shown"].expect("test_toast_never_shown", "FAILED")
    toast = "A confirmation toast appears right after saving"
    assert toast in case.text
    passed = [v for v in shown.verdicts if v.item_text == toast]
    failed = [v for v in never.verdicts if v.item_text == toast]
    assert [v.status for v in passed] == ["passed"] and "Alarm set for 7:30" in passed[0].evidence
    assert [v.status for v in failed] == ["failed"] and "no 'Alarm set for' toast" in failed[0].evidence
    for verdict, record in ((passed[0], shown), (failed[0], never)):
        save = next(s for s in record.steps if s.completed)
        assert verdict.anchor_step == save.step and verdict.checkpoint_id != "final"
