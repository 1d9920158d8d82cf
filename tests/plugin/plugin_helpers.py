"""Shared pieces of the plugin's end-to-end tests: the scripted-model conftest, JUnit parsing, row checks."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from pytest_artemis.junit import read_properties

#: Written into every pytester project: the scripted model stands in for a real one (overriding the
#: ``artemis_model`` fixture, as users do). The checker's verdict on an item is chosen by the item's text
#: prefix (``PASS:`` / ``FAIL:`` / ``MAYBE:``), honestly by the Bluetooth switch the operator turns on; goal
#: tags make the operator misbehave on purpose.
SCRIPTED_CONFTEST = '''
import os
import re
import time
import itertools

import pytest

from pytest_artemis.agents.schemas import (
    CheckReport, CitationClaim, ModelVerdict, OperatorDecision, PlanReply,
)
from pytest_artemis.contracts import Launch, Tap, Wait
from pytest_artemis.models import ModelSet
from pytest_artemis.testing import ModelUnavailable, ScriptedModel

STATUS = {"PASS": "passed", "FAIL": "failed", "MAYBE": "inconclusive"}
TICKS = itertools.count(1)


def operate(request):
    """Turns Bluetooth on through Settings, as a person would: open Settings, the Bluetooth page, the
    switch; then ticks every subgoal."""
    screen = request.screen
    switch = screen.find(resource_id="switch_widget")
    if switch is not None and not switch.checked:
        plan = re.sub(r"- \\[[ /]\\]", "- [x]", request.plan)
        return OperatorDecision(decision="turn Bluetooth on", actions=[Tap(element=switch.index)], plan=plan)
    if switch is not None:
        plan = re.sub(r"- \\[[ /]\\]", "- [x]", request.plan)
        return OperatorDecision(decision="Bluetooth is on", actions=[Wait(ms=20)], plan=plan)
    row = screen.find("Bluetooth")
    if row is not None and screen.foreground == "com.android.settings":
        return OperatorDecision(decision="open Bluetooth", actions=[Tap(element=row.index)])
    return OperatorDecision(decision="open Settings", actions=[Launch(package="com.android.settings")])


def respond(request):
    goal = request.goal
    if request.role == "planner":
        return PlanReply(plan="- [ ] Turn on Bluetooth\\n")
    if request.role == "operator":
        if "[model-down]" in goal:
            raise ModelUnavailable("provider answered HTTP 503", http_status=503)
        if "[die]" in goal:
            os._exit(3)
        if "[slow]" in goal:
            time.sleep(0.3)
            return OperatorDecision(decision="still looking", actions=[Wait(ms=next(TICKS))])
        return operate(request)
    return CheckReport(verdicts=[judge(item, request) for item in request.checks])


def judge(item, request):
    """By the item's prefix: FAIL and MAYBE say so; anything else is judged honestly by the Bluetooth
    switch (an absence by the newest screen, which shows no dialog)."""
    said = item.text.split(":", 1)[0]
    if STATUS.get(said) in ("failed", "inconclusive"):
        return ModelVerdict(item=item.text, status=STATUS[said], evidence=f"the item says {said}",
                            citation=first_label(request))
    if " no " in f" {item.text.lower()} ":
        return ModelVerdict(item=item.text, status="passed", evidence="no dialog on the screen",
                            citation=first_label(request))
    switch = bluetooth_switch(request)
    if switch is None:
        return ModelVerdict(item=item.text, status="inconclusive", evidence="no Bluetooth switch recorded")
    on = switch.attribute == "checked=true"
    return ModelVerdict(item=item.text, status="passed" if on else "failed",
                        evidence=f"the Bluetooth switch reads {'ON' if on else 'OFF'}", citation=switch)


def bluetooth_switch(request):
    """The Bluetooth switch on the newest recorded screen showing it, by its checked state."""
    for screen in reversed(request.screens):
        element = screen.view.find(resource_id="switch_widget")
        if element is not None:
            return CitationClaim(step=screen.step, screen=screen.screen, element=element.index,
                                 attribute=f"checked={'true' if element.checked else 'false'}")
    return None


def first_label(request):
    """Something on the newest recorded screen (a failure needs only what is there)."""
    for screen in reversed(request.screens):
        element = next((e for e in screen.view.elements if e.label), None)
        if element is not None:
            return CitationClaim(step=screen.step, screen=screen.screen, element=element.index,
                                 quote=element.label)
    return None


@pytest.fixture
def artemis_model():
    return ModelSet.uniform(ScriptedModel(respond))
'''

ROWS_TESTS = '''
import pytest


@pytest.mark.goal("Turn on Bluetooth")
@pytest.mark.verify("PASS: Bluetooth is on")
@pytest.mark.assert_("PASS: no crash dialog", when="end")
def test_passed(artemis):
    assert artemis.outcome.task.status == "completed"


@pytest.mark.goal("Turn on Bluetooth")
@pytest.mark.verify("PASS: Bluetooth is on")
@pytest.mark.assert_("FAIL: a toast appears")
def test_failed(artemis):
    pass


@pytest.mark.goal("Turn on Bluetooth")
@pytest.mark.verify("FAIL: Bluetooth is on")
def test_blocked(artemis):
    pass


@pytest.mark.goal("Turn on Bluetooth [model-down]")
@pytest.mark.verify("PASS: Bluetooth is on")
def test_error(artemis):
    pass


@pytest.mark.goal("Turn on Bluetooth")
@pytest.mark.verify("PASS: Bluetooth is on")
@pytest.mark.assert_("MAYBE: a toast appears")
def test_unchecked(artemis):
    pass
'''


@dataclass
class Case:
    """One ``<testcase>``: its result element (None when passed), message, text and properties."""

    result: str | None
    message: str = ""
    text: str = ""
    props: dict[str, str] = field(default_factory=dict)
    system_out: str = ""


def parse_junit(path: Path) -> dict[str, Case]:
    """Test name → Case, from a JUnit XML file (``artemis.*`` properties from the testcase under xunit1,
    from the testsuite under xunit2)."""
    cases: dict[str, Case] = {}
    suite_props = {nodeid.rsplit("::", 1)[-1]: props for nodeid, props in read_properties(path).items()}
    for tc in ET.parse(path).getroot().iter("testcase"):
        case = Case(result=None)
        for child in tc:
            if child.tag in ("failure", "error", "skipped"):
                case.result = child.tag if child.tag != "skipped" else f"skipped:{child.get('type')}"
                case.message, case.text = child.get("message", ""), child.text or ""
            elif child.tag == "properties":
                case.props = {p.get("name"): p.get("value") for p in child}
            elif child.tag == "system-out":
                case.system_out = child.text or ""
        if not case.props:
            case.props = suite_props.get(tc.get("name"), {})
        cases[tc.get("name")] = case
    return cases


def run_junit(
    pytester: pytest.Pytester, *args: str, subprocess: bool = False
) -> tuple[pytest.RunResult, dict[str, Case]]:
    """Run pytest with ``--junitxml`` and return the result and the parsed cases."""
    xml = pytester.path / "junit.xml"
    argv = ("-p", "no:cacheprovider", f"--junitxml={xml}", *args)
    result = pytester.runpytest_subprocess(*argv) if subprocess else pytester.runpytest(*argv)
    return result, parse_junit(xml)


EXPECTED_PROPS = {
    "artemis.outcome", "artemis.task_status", "artemis.execution", "artemis.checks.passed",
    "artemis.checks.failed", "artemis.checks.inconclusive", "artemis.checks.unchecked", "artemis.steps",
    "artemis.tokens", "artemis.cost_usd", "artemis.device", "artemis.artifacts", "artemis.infra",
}


WORDS = {"test_passed": "PASSED", "test_failed": "FAILED", "test_blocked": "BLOCKED", "test_error": "ERROR",
         "test_unchecked": "UNCHECKED"}


def assert_words(result: pytest.RunResult, **expected: int) -> None:
    """The counts of pytest's final line, BLOCKED and UNCHECKED counted as such (``blocked=1``,
    ``unchecked=1``); every count not given must be zero."""
    counts = {word: n for word, n in result.parseoutcomes().items() if word not in ("warnings", "warning")}
    assert counts == expected, result.stdout.lines[-1]


def check_rows(result: pytest.RunResult, cases: dict, *, xdist: bool = False) -> None:
    """The five rows: pytest outcomes, -v words (xdist prints the word first), JUnit, properties."""
    assert_words(result, passed=1, failed=1, errors=1, blocked=1, unchecked=1)
    lines = [f"*{word}*{name}*" if xdist else f"*{name} {word}*" for name, word in WORDS.items()]
    result.stdout.fnmatch_lines_random(lines)
    assert cases["test_passed"].result is None
    assert cases["test_failed"].result == "failure"
    assert "1 assertion failed" in cases["test_failed"].text
    evidence = "'FAIL: a toast appears': the item says FAIL"
    assert evidence in cases["test_failed"].text
    blocked = cases["test_blocked"]
    assert blocked.result == "error" and "BLOCKED" in blocked.message
    assert "unmet criteria:" in blocked.text and "'FAIL: Bluetooth is on'" in blocked.text
    error = cases["test_error"]
    assert error.result == "error"
    assert "ERROR: infrastructure failure (model) ModelUnavailable" in error.message
    unchecked = cases["test_unchecked"]
    assert unchecked.result == "skipped:pytest.xfail"
    assert "UNCHECKED" in unchecked.message and "MAYBE: a toast appears" in unchecked.message
    assert {name: case.props["artemis.outcome"] for name, case in cases.items()} == WORDS
    for case in cases.values():
        assert set(case.props) == EXPECTED_PROPS
        # The server is part of the device's name: the simulated phones' server listens on a free port.
        assert re.fullmatch(r"127\.0\.0\.1:\d+/emulator-5554", case.props["artemis.device"])
    assert cases["test_passed"].props["artemis.checks.passed"] == "3"  # two checks and the goal
    assert cases["test_failed"].props["artemis.checks.failed"] == "1"
    assert cases["test_blocked"].props["artemis.task_status"] == "blocked"
    assert cases["test_error"].props["artemis.execution"] == "crashed"
    assert cases["test_unchecked"].props["artemis.checks.inconclusive"] == "1"
