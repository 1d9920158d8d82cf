"""Reading the model's answer back from the ledger, and comparing it with the truth: every combination."""

from __future__ import annotations

import pytest

from pytest_artemis.contracts import CheckVerdict
from pytest_artemis.fitness.classify import Answer, answer_of, judged_item, outcome_of


def _verdict(status: str, reason: str = "", rule: str = "") -> CheckVerdict:
    return CheckVerdict(item_key="k", item_text="Wi-Fi is on", kind="assert", when="end", status=status,
                        evidence="", reason=reason, source="model", attempt_id="final#1",
                        checkpoint_id="final", rule=rule, started_at=0.0, finished_at=0.0)


@pytest.mark.parametrize(("status", "reason", "rule", "answer"), [
    ("passed", "", "", Answer("passed", stood=True)),
    ("failed", "", "", Answer("failed", stood=True)),
    ("inconclusive", "passed, but [E4] the cited element [10] is system UI", "E4",
     Answer("passed", stood=False, rule="E4")),
    ("inconclusive", "failed, but [E2] quoted 'x' not found in step 1 post-screen", "E2",
     Answer("failed", stood=False, rule="E2")),
    ("inconclusive", "[E12] the checker gave no verdict for this item", "E12", Answer("none", rule="E12")),
    ("inconclusive", "[E12] conflicting verdicts in one reply (passed vs failed); this one said passed",
     "E12", Answer("none", rule="E12", conflicting=True)),
    ("unchecked", "final check error: ModelOutputInvalid", "", Answer("none")),
    ("inconclusive", "", "", Answer("inconclusive")),
])
def test_the_answer_behind_a_recorded_verdict(status, reason, rule, answer):
    assert answer_of(_verdict(status, reason, rule)) == answer


@pytest.mark.parametrize(("truth", "answer", "outcome"), [
    ("true", Answer("passed", stood=True), "right"),
    ("true", Answer("passed", stood=False, rule="E7"), "false_unchecked"),  # right, but rejected
    ("true", Answer("failed", stood=True), "false_fail"),
    ("true", Answer("inconclusive"), "false_unchecked"),
    ("true", Answer("none"), "false_unchecked"),
    ("false", Answer("failed", stood=True), "right"),
    ("false", Answer("failed", stood=False), "false_unchecked"),
    ("false", Answer("passed", stood=True), "false_pass"),
    ("false", Answer("passed", stood=False), "false_pass"),
    ("unsettled", Answer("inconclusive"), "right"),
    ("unsettled", Answer("passed", stood=False), "false_pass"),
    ("unsettled", Answer("failed", stood=True), "false_fail"),
    ("unsettled", Answer("none"), "unanswered"),
])
def test_the_answer_against_the_truth(truth, answer, outcome):
    assert outcome_of(truth, answer) == outcome


def test_conflicting_verdicts_are_no_answer_and_the_last_one_is_linked():
    conflict = "[E12] conflicting verdicts in one reply (passed vs failed); this one said "
    result = judged_item("true", [(3, _verdict("inconclusive", conflict + "passed", "E12")),
                                  (4, _verdict("inconclusive", conflict + "failed", "E12"))])
    assert (result.said, result.outcome, result.verdict, result.rule) == ("none", "false_unchecked", 4, "E12")
