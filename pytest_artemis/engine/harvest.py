"""Applying harvested verdicts: ledger always; effects only for a current attempt on an unchanged subgoal."""

from __future__ import annotations

from collections.abc import Sequence

from pytest_artemis.agents.checker import may_proceed
from pytest_artemis.contracts import CheckVerdict

from .checkpoints import Harvest
from .findings import FindingKey, finding_text
from .state import RunState
from .stopping import Stop, StopReason


def note_verdicts(state: RunState, verdicts: Sequence[CheckVerdict]) -> None:
    """Record verdicts; a pass clears its finding, a failure trips the same-finding breaker."""
    for verdict in verdicts:
        state.record_verdict(verdict)
        if verdict.status == "passed":
            state.findings.pop(FindingKey.item(verdict.item_key), None)
        if verdict.kind == "verify" and verdict.status == "failed":
            state.last_finding = finding_text(verdict)
            tripped = state.breakers.finding(verdict)
            if tripped:
                state.halt(Stop(StopReason.BREAKER, tripped))


def apply_harvest(state: RunState, harvest: Harvest, *, reopen: bool = True) -> None:
    """Ledger first (append-only, every verdict); then effects, if the verdict still applies.

    A verdict applies only when its attempt is still the checkpoint's current one and the subgoal it
    judged is still in the plan with the same text (its key is the hash of its text). A failed verify
    reopens the subgoal and injects the finding, up to ``checkpoint_max_repairs`` per checkpoint; a
    failed assert stops the run under the ``halt`` policy and is otherwise only recorded.
    """
    note_verdicts(state, harvest.verdicts)
    checkpoint = harvest.attempt.checkpoint
    subgoal = state.plan.subgoal(checkpoint.checkpoint_id)
    if not harvest.current or subgoal is None:
        state.journal.append_event("verdict_not_applied", attempt=harvest.attempt.attempt_id,
                                   reason="stale attempt" if not harvest.current else "subgoal changed")
        return
    failed = [v for v in harvest.verdicts if v.status == "failed"]
    for verdict in failed:
        if verdict.kind == "assert" and state.config.assert_policy == "halt":
            state.halt(Stop(StopReason.ASSERT_HALT, f"{StopReason.ASSERT_HALT.value}: {verdict.item_text}"))
    if may_proceed(harvest.verdicts) or not reopen:
        return
    failed_verify = [v for v in failed if v.kind == "verify"]
    if state.repairs[checkpoint.checkpoint_id] >= state.config.checkpoint_max_repairs:
        state.journal.append_event("repair_quota_spent", checkpoint=checkpoint.checkpoint_id)
        return
    state.repairs[checkpoint.checkpoint_id] += 1
    for verdict in failed_verify:
        state.findings[FindingKey.item(verdict.item_key)] = finding_text(verdict)
    if subgoal.done:
        state.set_plan(state.plan.with_status(subgoal.key, "reopened"))
