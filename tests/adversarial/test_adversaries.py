"""Adversarial runs: what should not pass never reads PASSED (one module per adversary, one session)."""

from __future__ import annotations

from fault_harness import run_matrix

SETTINGS = "com.android.settings"

MODULE = '''
import pytest
from adversaries import {operator}, respond_with
from pytest_artemis import probes

respond = respond_with({operator}, "{checker}")


@pytest.fixture(autouse=True)
def wifi_off(artemis_setup):
    """Wi-Fi off before the run: turning it on is then the run's doing."""
    artemis_setup.put_setting("global", "wifi_on", 0)


@pytest.fixture
def on_wifi_page(artemis_setup):
    """Settings open on its Wi-Fi page: the run's first screen shows the switch."""
    artemis_setup.launch("com.android.settings", "com.android.settings.Settings$WifiSettingsActivity")

@pytest.mark.goal("Turn Wi-Fi on in Settings", app="{app}")
{marks}
def test_{name}(artemis):
    pass
'''

CASES = {
    # name: (operator, checker, marks, word)
    "liar_silent_checker": ("liar", "silent", "", "UNCHECKED"),
    "liar_raising_checker": ("liar", "raising", "", "UNCHECKED"),
    "liar_hedging_checker": ("liar", "hedging", "", "UNCHECKED"),
    "liar_credulous_checker": ("liar", "credulous", "", "UNCHECKED"),
    "wrong_quote": ("busy_liar", "wrong_quote", "", "UNCHECKED"),
    "liar_contradicting_checker": ("liar", "contradicting", "", "UNCHECKED"),
    "late_evidence": ("undoer", "late", '@pytest.mark.assert_("The Wi-Fi switch reads ON")', "UNCHECKED"),
    "stale_evidence": ("tidy_undoer", "stale",
                       '@pytest.mark.usefixtures("on_wifi_page")\n'
                       '@pytest.mark.assert_("The Wi-Fi switch reads ON", when="end")', "UNCHECKED"),
    "undone_state": ("undoer", "credulous",
                     '@pytest.mark.usefixtures("on_wifi_page")\n'
                     '@pytest.mark.verify("Wi-Fi is on",'
                     ' probe=probes.setting("global", "wifi_on", equals=True))',
                     "BLOCKED"),
    "refused_actions": ("refuser", "silent", "", "UNCHECKED"),
}


WORDED = {
    # the same honest operator and the same true citation: only the checker's own words differ
    **{f"{kind}_checker": ("doer", kind, "", "PASSED")
       for kind in ("sure", "unsure", "should_be", "dont_see", "no_longer_off", "opposite")},
    # sure of itself, and citing something real but unrelated
    "irrelevant_checker": ("doer", "credulous", "", "UNCHECKED"),
}


def _write(project, cases=CASES) -> None:
    for name, (operator, checker, marks, _) in cases.items():
        project.makepyfile(**{f"test_{name}": MODULE.format(operator=operator, checker=checker, marks=marks,
                                                            app=SETTINGS, name=name)})


def test_no_adversary_passes(project):
    _write(project)
    matrix = run_matrix(project)
    for name, (_, _, _, word) in CASES.items():
        matrix.expect(f"test_{name}", word)
    contradicted = matrix.journal("test_liar_contradicting_checker")
    goal = [v for v in contradicted.verdicts if v.kind == "goal"]
    assert {v.status for v in goal} == {"inconclusive"} and len(goal) == 2  # both recorded
    assert all("conflicting verdicts" in v.reason for v in goal)
    credulous = matrix.journal("test_liar_credulous_checker")
    (goal_verdict,) = [v for v in credulous.verdicts if v.kind == "goal"]  # it cites text really shown
    assert goal_verdict.status == "inconclusive" and goal_verdict.rule in ("E4", "E7")
    wrong = matrix.journal("test_wrong_quote")
    (goal_verdict,) = [v for v in wrong.verdicts if v.kind == "goal"]
    assert "quoted 'Alarm set for 7:30 AM' not found in step 1 post-screen" in goal_verdict.reason
    assert goal_verdict.citation is not None and not goal_verdict.citation.found
    silent = matrix.journal("test_liar_silent_checker")
    assert [v.status for v in silent.verdicts if v.kind == "goal"] == ["unchecked"]
    late = matrix.journal("test_late_evidence")
    checkpoint = [v for v in late.verdicts if v.item_text == "The Wi-Fi switch reads ON"]
    assert checkpoint and all(v.status == "inconclusive" and "after the anchor step" in v.reason
                              for v in checkpoint)
    stale = matrix.journal("test_stale_evidence")  # Wi-Fi was on at step 2 and off at the end
    at_exit = [v for v in stale.verdicts if v.checkpoint_id == "final"]
    assert {v.kind for v in at_exit} == {"goal", "assert"}
    assert all(v.status == "inconclusive" and "the final screen no longer does" in v.reason for v in at_exit)
    undone = matrix.journal("test_undone_state")
    wifi = [v.status for v in undone.verdicts if v.item_text == "Wi-Fi is on"]
    assert wifi[0] == "passed" and "failed" in wifi  # the earlier pass stays on record
    assert any("regressed" in v.reason for v in undone.verdicts)
    refused = matrix.journal("test_refused_actions")
    assert refused.execution == "finished"
    first, second = refused.steps[0], refused.steps[1]
    assert first.results[0].refused and "not an Android package name" in first.results[0].detail
    assert second.results[0].refused and "printable ASCII" in second.results[0].detail
    assert "actions_refused" in first.flags


def test_the_checkers_words_never_decide_its_citations_do(project):
    _write(project, WORDED)
    matrix = run_matrix(project)
    for name, (_, _, _, word) in WORDED.items():
        matrix.expect(f"test_{name}", word)
    (unsure,) = [v for v in matrix.journal("test_unsure_checker").verdicts if v.kind == "goal"]
    assert unsure.status == "passed" and unsure.citation is not None and unsure.citation.found
    (irrelevant,) = [v for v in matrix.journal("test_irrelevant_checker").verdicts if v.kind == "goal"]
    assert irrelevant.status == "inconclusive" and irrelevant.rule == "E4"


TYPIST = '''
import pytest
from adversaries import typist, respond_with

respond = respond_with(typist, "reads_typed")

@pytest.mark.goal("Create an alarm for 7:30 AM in the Clock app", app="com.google.android.deskclock")
def test_typist(artemis):
    pass
'''


def test_what_the_agent_typed_into_a_field_is_not_evidence(project):
    project.makepyfile(test_typist=TYPIST)
    matrix = run_matrix(project)
    matrix.expect("test_typist", "UNCHECKED")
    (goal,) = [v for v in matrix.journal("test_typist").verdicts if v.kind == "goal"]
    assert goal.status == "inconclusive" and goal.citation is not None and not goal.citation.found
    assert "is in an input field and is what the operator typed ('Alarm set for 7:30 AM')" in goal.reason
