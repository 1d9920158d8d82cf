"""Building verdicts and reading the ledger (an item's current verdict is its latest non-superseded one; an
assertion's failure stands)."""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence

from pytest_artemis.contracts import CheckItem, CheckVerdict, Citation, VerdictSource, VerdictStatus

from .rules import rule_of


def make_verdict(
    item: CheckItem,
    *,
    status: VerdictStatus,
    evidence: str,
    source: VerdictSource,
    attempt_id: str,
    checkpoint_id: str,
    anchor_step: int | None,
    started_at: float,
    reason: str = "",
    suggestion: str = "",
    vacuous: bool = False,
    citations: tuple[Citation, ...] = (),
) -> CheckVerdict:
    """A ledger entry for ``item``; ``finished_at`` is now."""
    return CheckVerdict(
        item_key=item.key,
        item_text=item.text,
        kind=item.kind,
        when=item.when,
        status=status,
        evidence=evidence,
        suggestion=suggestion if status == "failed" and item.kind == "verify" else "",
        reason=reason,
        source=source,
        attempt_id=attempt_id,
        checkpoint_id=checkpoint_id,
        anchor_step=anchor_step,
        vacuous=vacuous,
        citations=citations,
        rule=rule_of(reason) if source == "model" else "",
        started_at=started_at,
        finished_at=time.time(),
    )


def blanket(
    items: Iterable[CheckItem],
    *,
    status: VerdictStatus,
    reason: str,
    source: VerdictSource,
    attempt_id: str,
    checkpoint_id: str,
    anchor_step: int | None,
    started_at: float,
    evidence: str = "",
) -> tuple[CheckVerdict, ...]:
    """The same non-judgement (timeout, superseded, error) for every item of an attempt."""
    return tuple(
        make_verdict(
            item,
            status=status,
            evidence=evidence,
            reason=reason,
            source=source,
            attempt_id=attempt_id,
            checkpoint_id=checkpoint_id,
            anchor_step=anchor_step,
            started_at=started_at,
        )
        for item in items
    )


def current_verdicts(ledger: Sequence[CheckVerdict]) -> dict[str, CheckVerdict]:
    """Item key → its latest verdict that is not ``superseded`` (ledger order is time order), except that
    an assertion's first ``failed`` stands: a test assertion is never repaired, so a later attempt that
    passes it (the subgoal done again, a later final check) or cannot judge it does not undo a failure
    already recorded with its evidence."""
    current: dict[str, CheckVerdict] = {}
    for verdict in ledger:
        if verdict.status == "superseded" or _failed_assert(current.get(verdict.item_key)):
            continue
        current[verdict.item_key] = verdict
    return current


def _failed_assert(verdict: CheckVerdict | None) -> bool:
    return verdict is not None and verdict.kind == "assert" and verdict.status == "failed"
