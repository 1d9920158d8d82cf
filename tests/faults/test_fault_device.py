"""Device faults injected through ``simctl`` over adb: offline mid-run, failing screencap, a crash dialog."""

from __future__ import annotations

import re

import pytest
from fault_harness import run_matrix, statuses
from fault_scripts import SERVERS

BLUETOOTH = '''
import pytest
from fault_scripts import SETTINGS, bluetooth_decision, verdicts
from pytest_artemis import probes
from pytest_artemis.agents.schemas import PlanReply


def respond(request, device):
    if request.role == "planner":
        return PlanReply(plan="- [ ] Turn on Bluetooth\\n")
    if request.role == "operator":
        if request.turn == 2:  # the fault arrives while the switch is being tapped
            device.check(["simctl", "fault", *request.goal.split("[", 1)[1].rstrip("]").split()])
        return bluetooth_decision(request)
    return verdicts(request, "passed", "the step 2 post screenshot shows the switch reading ON")


@pytest.fixture(autouse=True)
def fresh_phone(artemis_device):
    artemis_device.check(["simctl", "fault", "clear"])
    artemis_device.check(["settings", "put", "global", "bluetooth_on", "0"])
    artemis_device.stop(SETTINGS)


def bluetooth_test(fault):
    @pytest.mark.goal(f"Turn on Bluetooth [{fault}]", app=SETTINGS)
    @pytest.mark.verify("Bluetooth is on", probe=probes.setting("global", "bluetooth_on", equals=True))
    def test(artemis):
        pass
    return test


test_offline = bluetooth_test("offline")
test_screencap_fails_once = bluetooth_test("screencap-fail 1")
test_screencap_fails_twice = bluetooth_test("screencap-fail 2")
'''


def test_a_device_going_offline_mid_run_is_an_error_with_a_closed_journal(project):
    project.makepyfile(test_device=BLUETOOTH)
    matrix = run_matrix(project, "-k", "offline")
    case = matrix.expect("test_offline", "ERROR")
    assert re.search(r"ERROR: infrastructure failure \(device\) DeviceUnavailable on device "
                     r"127\.0\.0\.1:\d+/emulator-5554: device offline", case.message), case.message
    record = matrix.journal("test_offline")
    assert record.execution == "crashed" and record.terminal is not None and record.notices == ()
    assert record.outcome.infra.kind == "device"
    assert [s.step for s in record.steps] == [1, 2]  # the turn that met the fault is on record
    assert "DeviceUnavailable" in record.steps[-1].error and not record.steps[-1].results[0].ok
    phone = SERVERS[-1].phone("emulator-5554")
    assert not phone.state.online and phone.state.settings["global"]["bluetooth_on"] == "0"


def test_a_failing_screencap_is_retried_then_an_error(project):
    project.makepyfile(test_device=BLUETOOTH)
    matrix = run_matrix(project, "-k", "screencap")
    phone = SERVERS[-1].phone("emulator-5554")
    # Once: the retry hides it. Twice: both attempts were spent (the sim's counter is at 0), then ERROR.
    matrix.expect("test_screencap_fails_once", "PASSED")
    case = matrix.expect("test_screencap_fails_twice", "ERROR")
    assert "ERROR: infrastructure failure (device) DeviceCommandFailed" in case.message
    assert "screencap" in case.message
    assert phone.faults.describe()["screencap_fail"] == 0
    record = matrix.journal("test_screencap_fails_twice")
    assert record.execution == "crashed" and record.terminal is not None
    assert record.outcome.infra.kind == "device" and record.outcome.infra.error_class == "DeviceCommandFailed"
    # The tap of step 2 ran (Bluetooth is on) before its post screenshot failed: that turn is on record.
    assert phone.state.settings["global"]["bluetooth_on"] == "1"
    assert [s.step for s in record.steps] == [1, 2], "a turn whose actions ran was dropped from the journal"
    assert record.steps[1].results[0].ok and "screencap" in record.steps[1].error
    assert statuses(matrix.journal("test_screencap_fails_once"), "Bluetooth is on") == ["passed"]


CRASH = '''
import pytest
from fault_scripts import CLOCK, crash_dialog_checker, mark_done
from pytest_artemis.agents.schemas import OperatorDecision, PlanReply
from pytest_artemis import probes
from pytest_artemis.contracts import Finish, Tap

NO_DIALOG = probes.no_error_dialog()


def respond(request, device):
    if request.role == "planner":
        return PlanReply(plan="- [ ] Open the alarm editor\\n")
    if request.role == "operator":
        if request.turn == 1:
            if "healthy" not in request.goal:
                device.check(["simctl", "fault", "crash", CLOCK, "1"])  # Clock dies on the next input
            fab = request.screen.find(content_desc="Add alarm")
            return OperatorDecision(decision="open the editor", actions=[Tap(element=fab.index)])
        return OperatorDecision(decision="the editor is open", actions=[Finish(summary="done")],
                                plan=mark_done(request.plan))
    return crash_dialog_checker(request)


@pytest.mark.goal("Open the alarm editor", app=CLOCK)
@pytest.mark.assert_("No 'keeps stopping' dialog appears", when="end", probe=NO_DIALOG)
def test_crash_probe(artemis):
    pass


@pytest.mark.goal("Open the alarm editor", app=CLOCK)
@pytest.mark.assert_("No 'keeps stopping' dialog appears", when="end")
def test_crash_model(artemis):
    pass


@pytest.mark.goal("Open the 'Set alarm' editor (healthy run)", app=CLOCK)
@pytest.mark.assert_("No 'keeps stopping' dialog appears", when="end", probe=NO_DIALOG)
def test_healthy_probe(artemis):
    pass
'''


@pytest.mark.parametrize(("name", "source"), [("test_crash_probe", "probe"), ("test_crash_model", "model")])
def test_a_crash_dialog_fails_the_end_assertion(project, name, source):
    project.makepyfile(test_crash=CRASH)
    matrix = run_matrix(project, "-k", name)
    case = matrix.expect(name, "FAILED")
    assert "No 'keeps stopping' dialog appears" in case.text and "(when=end)" in case.text
    record = matrix.journal(name)
    # the goal failed too, so the final check sent the operator back once more: judged at each attempt
    judged = [v for v in record.verdicts if v.item_text == "No 'keeps stopping' dialog appears"]
    assert judged and {v.status for v in judged} == {"failed"}
    verdict = judged[-1]
    assert (verdict.status, verdict.source, verdict.checkpoint_id) == ("failed", source, "final")
    expected = "crash/ANR dialog of com.google.android.deskclock" if source == "probe" else "keeps stopping"
    assert expected in verdict.evidence
    assert SERVERS[-1].phone("emulator-5554").state.dialog is not None


def test_an_invariant_probe_that_held_before_the_run_still_passes(project):
    """"No crash dialog" holds before every healthy run: an invariant is exempt from the vacuity rule."""
    project.makepyfile(test_crash=CRASH)
    matrix = run_matrix(project, "-k", "test_healthy_probe")
    matrix.expect("test_healthy_probe", "PASSED")
    record = matrix.journal("test_healthy_probe")
    (verdict,) = [v for v in record.verdicts if v.item_text == "No 'keeps stopping' dialog appears"]
    assert (verdict.status, verdict.vacuous) == ("passed", False)
    assert "no crash or ANR dialog" in verdict.evidence
