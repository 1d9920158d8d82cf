"""The outcome table (docs/outcomes-and-ci.md) as a pure function, and the words it puts on reports."""

from __future__ import annotations

import pytest

from pytest_artemis.contracts import InfraFailure, ItemSummary, RunOutcome, TaskResult, TestTally
from pytest_artemis.plugin.rulings import Ruling, report_word, rule, status_for, worst


def item(kind: str, status: str, text: str = "", evidence: str = "", when: str = "complete") -> ItemSummary:
    return ItemSummary(text=text or f"{kind} {status}", kind=kind, when=when, status=status,
                       evidence=evidence)


def outcome(*items: ItemSummary, task: str = "completed", execution: str = "finished",
            infra: InfraFailure | None = None, unmet: tuple[str, ...] = (), reason: str = "") -> RunOutcome:
    statuses = ("passed", "failed", "inconclusive", "unchecked")
    counts = {s: sum(1 for i in items if i.status == s) for s in statuses}
    return RunOutcome(
        run_id="r1", execution=execution, task=TaskResult(status=task, reason=reason, unmet=unmet),
        tests=TestTally(**counts, items=items), infra=infra, device="emulator-5554",
        started_at=0.0, finished_at=1.0,
    )


def test_completed_and_every_item_passed_is_passed():
    assert rule(outcome(item("verify", "passed"), item("assert", "passed"))) == Ruling("PASSED")


def test_a_failed_assertion_fails_whatever_the_task_status_and_lists_each_with_evidence():
    run = outcome(item("assert", "failed", "toast appears", "no toast in steps 3-5"),
                  item("assert", "failed", "no crash", "dialog 'Clock has stopped'", when="end"),
                  item("verify", "failed", "alarm set"), task="blocked", unmet=("alarm set",))
    verdict = rule(run)
    assert verdict.word == "FAILED" and verdict.phase == "call"
    assert "2 assertions failed" in verdict.message
    assert "'toast appears': no toast in steps 3-5" in verdict.message
    assert "'no crash' (when=end): dialog 'Clock has stopped'" in verdict.message


def test_a_failed_assertion_wins_over_infrastructure_and_says_the_run_ended_early():
    run = outcome(item("assert", "failed", "t", "e"), execution="crashed",
                  infra=InfraFailure(kind="device", error_class="DeviceUnavailable", message="offline"))
    verdict = rule(run)
    assert verdict.word == "FAILED"
    assert "the run also ended early" in verdict.message and "DeviceUnavailable" in verdict.message


def test_unmet_verify_without_failed_assertion_is_blocked_naming_criteria_and_finding():
    run = outcome(item("verify", "failed", "The alarm list shows 7:30 AM", "list shows 8:00 AM only"),
                  item("assert", "passed"), task="blocked", unmet=("The alarm list shows 7:30 AM",),
                  reason="verify items unmet after repairs")
    verdict = rule(run)
    assert verdict.word == "BLOCKED" and verdict.phase == "setup"
    assert verdict.message.startswith("BLOCKED: verify items unmet after repairs")
    assert "'The alarm list shows 7:30 AM': list shows 8:00 AM only" in verdict.message


@pytest.mark.parametrize("task", ["partial", "blocked"])
def test_a_task_not_completed_is_blocked_even_when_all_items_passed(task):
    assert rule(outcome(item("verify", "passed"), task=task, reason="time budget")).word == "BLOCKED"


@pytest.mark.parametrize("execution", ["crashed", "interrupted"])
def test_infrastructure_or_unfinished_run_is_error_with_the_infra_class(execution):
    infra = InfraFailure(kind="model", error_class="ModelUnavailable", message="HTTP 503")
    verdict = rule(outcome(item("verify", "unchecked"), execution=execution, infra=infra))
    assert verdict.word == "ERROR" and verdict.phase == "setup"
    expected = "infrastructure failure (model) ModelUnavailable on device emulator-5554: HTTP 503"
    assert expected in verdict.message


def test_interrupted_without_infra_record_is_error():
    verdict = rule(outcome(execution="interrupted"))
    assert verdict.word == "ERROR" and "run interrupted" in verdict.message


@pytest.mark.parametrize("status", ["unchecked", "inconclusive"])
def test_nothing_failed_but_not_all_confirmed_is_unchecked(status):
    verdict = rule(outcome(item("verify", "passed"), item("assert", status, "toast", "checker timed out")))
    assert verdict.word == "UNCHECKED" and verdict.phase == "call"
    assert verdict.message.startswith("UNCHECKED: 1 item could not be confirmed")
    assert "'toast': checker timed out" in verdict.message


@pytest.mark.parametrize("status", ["unchecked", "inconclusive"])
def test_an_unconfirmed_verify_item_is_unchecked_not_blocked(status):
    """A verify item nobody could confirm (checker timeout, stale evidence, vacuous) is not an unmet
    criterion: the task is partial, and the test says UNCHECKED rather than BLOCKED or PASSED."""
    run = outcome(item("verify", status, "Wi-Fi is on", "checker timed out"), task="partial",
                  reason="verify items not confirmed: Wi-Fi is on")
    assert rule(run).word == "UNCHECKED"


def test_counts_without_items_still_fail():
    run = RunOutcome(run_id="r", execution="finished", task=TaskResult(status="completed"),
                     tests=TestTally(failed=1), started_at=0, finished_at=1)
    assert rule(run).word == "FAILED"


def test_worst_of_several_runs():
    words = [Ruling("PASSED"), Ruling("UNCHECKED", "u"), Ruling("BLOCKED", "b")]
    assert worst(words).word == "BLOCKED"
    assert worst([]) is None


@pytest.mark.parametrize(
    ("ruling", "when", "outcome_", "wasxfail", "ours", "word"),
    [
        (Ruling("BLOCKED", "b"), "setup", "failed", False, True, "BLOCKED"),
        (Ruling("ERROR", "e"), "setup", "failed", False, True, "ERROR"),
        (None, "setup", "failed", False, False, "ERROR"),  # e.g. the lease failed
        (Ruling("UNCHECKED", "u"), "call", "skipped", True, True, "UNCHECKED"),
        (Ruling("UNCHECKED", "u"), "call", "failed", False, True, "FAILED"),  # --artemis-unchecked=fail
        (Ruling("UNCHECKED", "u"), "call", "failed", False, False, "FAILED"),  # the body failed first
        (Ruling("UNCHECKED", "u"), "call", "skipped", False, True, "UNCHECKED"),  # =skip: plain skip
        (None, "setup", "skipped", False, False, "SKIPPED"),  # a skipif marker
        (None, "call", "skipped", True, False, "XFAIL"),  # the body's own pytest.xfail
        (None, "teardown", "failed", False, False, "ERROR"),
        (None, "teardown", "passed", False, False, None),
        (Ruling("PASSED"), "call", "passed", False, False, "PASSED"),
        (Ruling("BLOCKED", "b"), "call", "failed", False, True, "BLOCKED"),
    ],
)
def test_report_word(ruling, when, outcome_, wasxfail, ours, word):
    assert report_word(ruling, when, outcome_, wasxfail, ours) == word


@pytest.mark.parametrize("word", ["BLOCKED", "ERROR"])
def test_a_body_run_that_cannot_reach_its_goal_is_an_error_after_the_body(word):
    """artemis.run() from the body: the call report stays silent, the teardown report is the error."""
    ruling = Ruling(word, "m")  # type: ignore[arg-type]
    assert report_word(ruling, "call", "passed", False, False, deferred=True) == word
    assert report_word(ruling, "teardown", "failed", False, True, deferred=True) == word
    assert status_for("call", "passed", word, False) == ("", "", ("", {}))
    assert status_for("teardown", "failed", word, False)[:2] == ("error", word[0])


def test_teststatus_keeps_pytest_categories():
    assert status_for("setup", "failed", "BLOCKED", False)[:2] == ("error", "B")
    assert status_for("call", "skipped", "UNCHECKED", True)[0] == "xfailed"
    assert status_for("???", "failed", "ERROR", False)[0] == "error"
    # A plain skip never gets our word: it would leak into unrelated skip summaries.
    assert status_for("call", "skipped", "UNCHECKED", False) is None
    assert status_for("call", "passed", "PASSED", False) is None
