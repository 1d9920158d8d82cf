"""The pytester project of the replay tests: a screen-reading alarm operator, a checker of the final
screen, and the changes ``REPLAY_INJECT`` makes to the phone before a run."""

from __future__ import annotations

from fault_scripts import ALARM_PLAN, CLOCK, alarm_decision, verdicts

from pytest_artemis.agents.schemas import (
    CheckReport,
    CitationClaim,
    ModelVerdict,
    OperatorDecision,
    PlanReply,
)
from pytest_artemis.contracts import Launch, Tap
from pytest_artemis.testing import ScriptedRequest, citations_for

PROJECT_CONFTEST = '''
import os

import pytest
from fault_scripts import CLOCK, sim_phone
from replay_project import respond

from pytest_artemis.models import ModelSet
from pytest_artemis.testing import ScriptedModel


@pytest.fixture(autouse=True)
def inject(artemis_setup):
    """On ``artemis_setup``: after the reset and the isolation (whose HOME is an input), before the run."""
    what = os.environ.get("REPLAY_INJECT", "")
    if what == "crash-after-1":
        sim_phone(artemis_setup.device.serial).faults.crash_dialog(CLOCK, after_inputs=1)
    elif what == "wifi-off":
        sim_phone(artemis_setup.device.serial).put_setting("global", "wifi_on", "0")


@pytest.fixture
def artemis_model():
    return ModelSet.uniform(ScriptedModel(respond))
'''

TWO_TESTS = '''
import pytest
from fault_scripts import CLOCK
from pytest_artemis import probes


@pytest.mark.parametrize("label", ["first", "second"])
@pytest.mark.goal("Create an alarm for 7:30 AM", app=CLOCK)
@pytest.mark.verify("An enabled 7:30 AM alarm exists", probe=probes.alarm_set("07:30"))
def test_alarm(artemis, label):
    pass
'''

TESTS = '''
import pytest
from fault_scripts import CLOCK
from pytest_artemis import probes


@pytest.mark.goal("Create an alarm for 7:30 AM", app=CLOCK)
@pytest.mark.verify("An enabled 7:30 AM alarm exists", probe=probes.alarm_set("07:30"))
@pytest.mark.assert_("No 'keeps stopping' dialog is on the final screen", when="end")
@pytest.mark.assert_("The status bar still shows Wi-Fi at the end", when="end")
def test_alarm(artemis):
    pass
'''

DIALOG = "keeps stopping"


def operator(request: ScriptedRequest) -> OperatorDecision:
    """Close a crash dialog, reopen the Clock app if it is gone, else create the alarm from the screen."""
    screen = request.screen
    assert screen is not None
    if screen.find(DIALOG) is not None:
        close = screen.find("Close app")
        assert close is not None
        return OperatorDecision(decision="close the crash dialog", actions=[Tap(element=close.index)])
    if screen.foreground != CLOCK:
        return OperatorDecision(decision="reopen the Clock app", actions=[Launch(package=CLOCK)])
    return alarm_decision(request)


def checker(request: ScriptedRequest) -> CheckReport:
    """Judge the final-screen items from the live screen it is given, and nothing else."""
    screen = request.screen
    if screen is None:
        return verdicts(request, "inconclusive", "no final screen was given")
    out = []
    first = next((e for e in screen.elements if e.label), None)
    for item in request.checks:
        if item.kind == "goal":  # what shows the alarm on the recorded screens
            claims = citations_for(item, request.screens)
            out.append(ModelVerdict(item=item.text, status="passed" if claims else "inconclusive",
                                    evidence="the final screen lists the alarm", citations=claims))
            continue
        if "Wi-Fi" in item.text:
            wifi = screen.find(resource_id="wifi_combo")
            status, evidence = ("passed", f"status bar element [{wifi.index}] reads {wifi.text!r}") if wifi \
                else ("failed", "the final screen's status bar has no Wi-Fi element")
            shown = wifi or first
        else:
            dialog = screen.find(DIALOG)
            count = len(screen.elements)
            status, evidence = ("failed", f"element [{dialog.index}] reads {dialog.text!r}") if dialog \
                else ("passed", f"none of the {count} final-screen elements mentions {DIALOG!r}")
            shown = dialog or first
        # cite the final screen's element the verdict rests on (the harness checks it is there)
        citation = CitationClaim(screen="final", element=shown.index, quote=shown.label) if shown else None
        out.append(ModelVerdict(item=item.text, status=status, evidence=evidence, citation=citation))
    return CheckReport(verdicts=out)


def respond(request: ScriptedRequest) -> PlanReply | OperatorDecision | CheckReport:
    if request.role == "planner":
        return PlanReply(plan=ALARM_PLAN)
    if request.role == "operator":
        return operator(request)
    return checker(request)
