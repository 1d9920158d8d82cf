"""What a harvest asks of the run: its verdicts always; reopening and halting only for a current attempt on
an unchanged subgoal."""

from __future__ import annotations

from pytest_artemis.agents.checker import may_proceed
from pytest_artemis.engine.effects import AddFinding, Effect, Record, Reopen
from pytest_artemis.engine.state import RunProgress, RunServices
from pytest_artemis.engine.stopping import Stop, StopReason

from .checkpoints import Harvest
from .findings import FindingKey, finding_text


def harvest_effects(
    svc: RunServices, run: RunProgress, harvest: Harvest, *, reopen: bool = True
) -> list[Effect]:
    """Ledger first (append-only, every verdict); then effects, if the verdict still applies.

    A verdict applies only when its attempt is still the checkpoint's current one and the subgoal it
    judged is still in the plan with the same text (its key is the hash of its text). A failed verify
    reopens the subgoal and injects the finding, up to ``checkpoint_max_repairs`` per checkpoint; a
    failed assert stops the run under the ``halt`` policy and is otherwise only recorded.
    """
    effects: list[Effect] = [Record(v) for v in harvest.verdicts]
    checkpoint = harvest.attempt.checkpoint
    subgoal = run.plan.subgoal(checkpoint.checkpoint_id)
    if not harvest.current or subgoal is None:
        svc.journal.append_event("verdict_not_applied", attempt=harvest.attempt.attempt_id,
                                 reason="stale attempt" if not harvest.current else "subgoal changed")
        return effects
    failed = [v for v in harvest.verdicts if v.status == "failed"]
    if svc.config.assert_policy == "halt":
        effects += [Stop(StopReason.ASSERT_HALT, f"{StopReason.ASSERT_HALT.value}: {v.item_text}")
                    for v in failed if v.kind == "assert"]
    if may_proceed(harvest.verdicts) or not reopen:
        return effects
    if run.repairs[checkpoint.checkpoint_id] >= svc.config.checkpoint_max_repairs:
        svc.journal.append_event("repair_quota_spent", checkpoint=checkpoint.checkpoint_id)
        return effects
    effects += [AddFinding(FindingKey.item(v.item_key), finding_text(v))
                for v in failed if v.kind == "verify"]
    return [*effects, Reopen((subgoal.key,), repair_of=checkpoint.checkpoint_id)]
