"""Why a run got its word, as data: the items the banner lists and the one line the index shows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pytest_artemis.contracts import (
    CheckVerdict,
    ItemSummary,
    RunOutcome,
    StepRecord,
    VerdictStatus,
    blocked_cause,
    outcome_word,
)
from pytest_artemis.store import RunRecord


@dataclass(frozen=True)
class Ground:
    """One thing a word rests on: a check's current verdict, an unmet criterion, an infra failure."""

    label: str
    """What it is, e.g. ``assertion failed`` or ``unmet criterion``."""
    text: str
    """The check line verbatim, or the failure's class and message."""
    detail: str = ""
    """The evidence or the reason, shown once."""
    verdict: int | None = None
    """1-based index of the ledger row it rests on (``#verdict-N``)."""
    step: int | None = None
    """The step it rests on (``#step-N``)."""


@dataclass(frozen=True)
class Reason:
    """The headline (first line, shown in the index) and the grounds the banner lists."""

    headline: str
    grounds: tuple[Ground, ...] = ()

    def once(self, text: str) -> str:
        """``text`` with the evidence the banner already shows replaced by a pointer to it."""
        for ground in self.grounds:
            if len(ground.detail) > 20 and ground.detail in text:
                text = text.replace(ground.detail, "[the evidence shown above]")
        return text


def _current(verdicts: Sequence[CheckVerdict], item: ItemSummary) -> int | None:
    """1-based ledger index of the verdict an item's current status comes from (the latest matching)."""
    same = [
        n
        for n, v in enumerate(verdicts, start=1)
        if v.item_text == item.text and v.kind == item.kind and v.when == item.when
    ]
    decided = [n for n in same if verdicts[n - 1].status == item.status]
    chosen = decided or same
    return chosen[-1] if chosen else None


def verdict_step(verdict: CheckVerdict) -> int | None:
    """The step a verdict rests on: the one its citation names, else the step it is anchored at."""
    if verdict.citation is not None and verdict.citation.step is not None:
        return verdict.citation.step
    return verdict.anchor_step


def _grounds(
    record: RunRecord, statuses: tuple[VerdictStatus, ...], label: str, kinds: tuple[str, ...]
) -> list[Ground]:
    outcome = record.outcome
    if outcome is None:
        return []
    grounds = []
    for item in outcome.tests.items:
        if item.status not in statuses or item.kind not in kinds:
            continue
        n = _current(record.verdicts, item)
        verdict = record.verdicts[n - 1] if n is not None else None
        detail = item.evidence if item.status in ("passed", "failed") else (item.reason or item.evidence)
        grounds.append(
            Ground(
                label=label if len(statuses) == 1 else f"{item.kind} {item.status}",
                text=item.text,
                detail=detail,
                verdict=n,
                step=verdict_step(verdict) if verdict is not None else None,
            )
        )
    return grounds


def _last_step(steps: Sequence[StepRecord]) -> int | None:
    return steps[-1].step if steps else None


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _failed(record: RunRecord, outcome: RunOutcome) -> Reason:
    grounds = _grounds(record, ("failed",), "assertion failed", ("assert",))
    if not grounds:  # the test failed outside the run (its body, or a strict unchecked mode)
        own = outcome_word(outcome)
        inner = reason(record, own) if own != "FAILED" else Reason("a check failed, without detail")
        return Reason(f"the test failed although the run was {own}: {inner.headline}", inner.grounds)
    head = f"{_plural(len(grounds), 'assertion')} failed: {grounds[0].text}"
    return Reason(head + (f" (and {len(grounds) - 1} more)" if len(grounds) > 1 else ""), tuple(grounds))


def _last_finding(record: RunRecord, text: str) -> tuple[str, int | None, int | None]:
    """The latest failed verdict on an unmet criterion: its evidence (and suggestion), row and step."""
    for n in range(len(record.verdicts), 0, -1):
        v = record.verdicts[n - 1]
        if v.item_text == text and v.status in ("failed", "inconclusive", "unchecked"):
            return v.evidence or v.reason, n, verdict_step(v)
    return "", None, None


def _gave_up(record: RunRecord) -> Ground | None:
    """The operator's report that the goal cannot be reached, from the step that gave up."""
    for step in reversed(record.steps):
        for result in step.results:
            if result.action.kind == "give_up":
                return Ground("the operator gave up", result.action.reason, step=step.step)
    return None


def _blocked(record: RunRecord, outcome: RunOutcome) -> Reason:
    unmet = list(outcome.task.unmet) or [i.text for i in outcome.tests.with_status("failed")]
    gave_up = _gave_up(record)
    if gave_up is not None:  # its reason first: the criteria are unmet because the goal cannot be reached
        grounds = [gave_up, *(Ground("unmet criterion", t, *_last_finding(record, t)) for t in unmet)]
        return Reason(f"blocked: {outcome.task.reason or outcome.stop_reason}", tuple(grounds))
    grounds = []
    for text in unmet:
        finding, n, step = _last_finding(record, text)
        grounds.append(Ground("unmet criterion", text, finding, n, step))
    # The real cause leads: the breaker that stopped the run, or the agent's last word.
    last_word = next((s.decision for s in reversed(record.steps) if s.decision.strip()), "")
    why = blocked_cause(outcome, last_word)
    for ground in grounds:
        first_line = ground.detail.split("\n", 1)[0]
        if len(first_line) > 20:
            why = why.replace(first_line, "…")
    if not grounds:
        grounds.append(Ground("task " + outcome.task.status, why, step=_last_step(record.steps)))
        return Reason(why, tuple(grounds))
    unmet_head = f"{_plural(len(grounds), 'unmet criterion')}: {grounds[0].text}".replace("criterions",
                                                                                         "criteria")
    return Reason(f"{why} — {unmet_head}", tuple(grounds))


def _unchecked(record: RunRecord) -> Reason:
    grounds = _grounds(record, ("inconclusive", "unchecked"), "", ("verify", "assert", "goal"))
    if not grounds:
        return Reason("some items could not be checked")
    head = f"{_plural(len(grounds), 'item')} not confirmed: {grounds[0].text}"
    return Reason(head, tuple(grounds))


def _error(record: RunRecord, outcome: RunOutcome) -> Reason:
    last = _last_step(record.steps)
    if outcome.infra is None:
        why = outcome.stop_reason or f"execution {outcome.execution}"
        return Reason(f"error: {why}", (Ground("execution " + outcome.execution, why, step=last),))
    infra = outcome.infra
    ground = Ground(
        f"{infra.kind} failure", f"{infra.error_class}: {infra.message}", infra.traceback, step=last
    )
    return Reason(f"{infra.kind} failure {infra.error_class}: {infra.message}", (ground,))


def _passed(record: RunRecord, outcome: RunOutcome) -> Reason:
    grounds = _grounds(record, ("passed",), "passed", ("goal", "verify", "assert"))
    goal = next((v for v in record.verdicts if v.kind == "goal" and v.status == "passed"), None)
    if goal is not None:
        checks = _grounds(record, ("passed",), "passed", ("verify", "assert"))  # the goal is not a check
        head = f"the goal was confirmed ({goal.source}) and {_plural(len(checks), 'check')} passed"
    elif grounds:
        head = f"task {outcome.task.status}; {_plural(len(grounds), 'check')} passed"
    else:
        head = f"task {outcome.task.status}; no checks were declared"
    return Reason(head, tuple(grounds))


def _interrupted(record: RunRecord) -> Reason:
    last = _last_step(record.steps)
    where = f"after step {last}" if last is not None else "before its first step"
    head = f"the run stopped {where} without a terminal record (the process was killed or crashed)"
    ground = Ground("interrupted", "the journal ends here: no outcome and no terminal record", step=last)
    return Reason(head, (ground,))


def reason(record: RunRecord, word: str) -> Reason:
    """Why ``record`` got ``word``: the grounds the banner lists and the index's first line."""
    outcome = record.outcome
    if outcome is None:
        return (
            _interrupted(record) if record.execution == "interrupted" else Reason("no outcome was recorded")
        )
    match word:
        case "FAILED":
            return _failed(record, outcome)
        case "BLOCKED":
            return _blocked(record, outcome)
        case "UNCHECKED":
            return _unchecked(record)
        case "ERROR":
            return _error(record, outcome)
        case "PASSED":
            return _passed(record, outcome)
        case "INTERRUPTED":
            return _interrupted(record)
    return Reason(outcome.stop_reason or f"task {outcome.task.status}")
