"""The run outcome on three axes and the test tally (the current verdict of each declared item)."""

from __future__ import annotations

from collections.abc import Sequence

from pytest_artemis.contracts import (
    CheckItem,
    CheckVerdict,
    ItemSummary,
    TaskResult,
    TestTally,
)
from pytest_artemis.plan import Plan

from .verdicts import current_verdicts


def tally(items: Sequence[CheckItem], ledger: Sequence[CheckVerdict], *, default_reason: str) -> TestTally:
    """Count the current verdict of every item; an item never judged is ``unchecked``."""
    current = current_verdicts(ledger)
    counts = {"passed": 0, "failed": 0, "inconclusive": 0, "unchecked": 0}
    summaries: list[ItemSummary] = []
    for item in items:
        verdict = current.get(item.key)
        status = verdict.status if verdict else "unchecked"
        counts[status] = counts.get(status, 0) + 1
        summaries.append(
            ItemSummary(
                text=item.text,
                kind=item.kind,
                when=item.when,
                status=status,
                evidence=verdict.evidence if verdict else "",
                reason=verdict.reason if verdict else default_reason,
            )
        )
    return TestTally(
        passed=counts["passed"],
        failed=counts["failed"],
        inconclusive=counts["inconclusive"],
        unchecked=counts["unchecked"],
        items=tuple(summaries),
    )


def unmet_verify(
    items: Sequence[CheckItem], ledger: Sequence[CheckVerdict], plan: Plan | None
) -> list[CheckItem]:
    """Verify items whose current verdict is failed, or whose subgoal is not done at the end."""
    current = current_verdicts(ledger)
    open_keys = {s.key for s in plan.subgoals if not s.done} if plan else set()
    unmet = []
    for item in items:
        if item.kind != "verify":
            continue
        verdict = current.get(item.key)
        if (verdict and verdict.status == "failed") or (item.subgoal in open_keys):
            unmet.append(item)
    return unmet


def task_result(
    items: Sequence[CheckItem],
    ledger: Sequence[CheckVerdict],
    plan: Plan | None,
    *,
    blocked_reason: str,
    unmet_subgoals: Sequence[str],
    last_finding: str,
    goal: CheckItem | None = None,
) -> TaskResult:
    """Completed only when every verify item passed, every subgoal is done and — with the final check on
    (``goal`` given) — the goal's own verdict passed; the agent's word never counts.

    ``blocked_reason`` (a breaker, the time budget, a halt) blocks outright, and so do unmet verify items,
    subgoals the final check finds unmet, subgoals still open and a failed goal verdict. ``partial`` means
    only that some verify items or the goal could not be confirmed (inconclusive or unchecked): the test
    then reads UNCHECKED.
    """
    unmet = unmet_verify(items, ledger, plan)
    texts = tuple(item.text for item in unmet)
    still_open = open_subgoals_note(plan)
    if blocked_reason:
        return TaskResult(status="blocked", reason=_join(blocked_reason, still_open), unmet=texts)
    if unmet:
        reason = _join(last_finding or "verify items unmet at the end", still_open)
        return TaskResult(status="blocked", reason=reason, unmet=texts)
    if unmet_subgoals:
        reason = "final check: not met for the goal: " + "; ".join(unmet_subgoals)
        return TaskResult(status="blocked", reason=reason)
    if still_open:
        # The agent's own plan says the goal is not reached: that is blocked, whatever was checked.
        return TaskResult(status="blocked", reason=still_open)
    current = current_verdicts(ledger)
    judged = current.get(goal.key) if goal is not None else None
    if goal is not None and judged is not None and judged.status == "failed":
        return TaskResult(status="blocked", reason=f"final check: the goal is not reached: {judged.evidence}")
    if goal is not None and _status(judged) != "passed":
        why = (judged.reason or judged.status) if judged else "never judged"
        return TaskResult(status="partial", reason=f"the goal was not confirmed by the final check: {why}")
    unconfirmed = [i.text for i in items if i.kind == "verify" and _status(current.get(i.key)) != "passed"]
    if unconfirmed:
        return TaskResult(status="partial", reason="verify items not confirmed: " + "; ".join(unconfirmed))
    return TaskResult(status="completed")


def open_subgoals_note(plan: Plan | None) -> str:
    """Why a run did not converge, in the plan's words: ``the plan still has 2 open subgoals: 'a'; 'b'``
    (a subgoal counts as done only when the plan marks its own line ``[x]``); empty when none is open."""
    texts = [s.text for s in plan.subgoals if not s.done] if plan else []
    if not texts:
        return ""
    count = len(texts)
    listed = "; ".join(map(repr, texts))
    return f"the plan still has {count} open subgoal{'s' if count != 1 else ''}: {listed}"


def _join(reason: str, note: str) -> str:
    return f"{reason}; {note}" if note else reason


NOTHING_CHECKED = ("the final check is off and no verify item passed non-vacuously: the agent's finish claim "
                   "is not evidence")


def goal_unchecked(goal: str, tests: TestTally, task: TaskResult) -> tuple[TestTally, TaskResult]:
    """A run where nothing judged the goal: it is reported as an unchecked item of its own, and a task
    the agent called done is only ``partial`` — such a test reads UNCHECKED, never PASSED."""
    item = ItemSummary(text=goal, kind="goal", when="end", status="unchecked", reason=NOTHING_CHECKED)
    tests = tests.model_copy(update={"unchecked": tests.unchecked + 1, "items": (*tests.items, item)})
    if task.status == "completed":
        task = TaskResult(status="partial", reason=NOTHING_CHECKED)
    return tests, task


def _status(verdict: CheckVerdict | None) -> str:
    return verdict.status if verdict else "unchecked"
