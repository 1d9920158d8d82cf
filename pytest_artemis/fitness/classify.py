"""Reading a checker case's run back: what the model answered per item (from the ledger's verdicts and the
reasons the rules of evidence give), how that compares with the item's truth, and the calls it cost."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pytest_artemis.checking.rules import rule_of
from pytest_artemis.contracts import CheckVerdict, ModelCallRecord
from pytest_artemis.store import RunRecord

from .schema import ItemOutcome, ItemResult, Said, Truth, Usage

INVALID_STATUSES = ("invalid_output", "truncated")
"""Call statuses whose last reply was unusable."""
UNREACHABLE_STATUSES = ("rate_limited", "server_error", "timeout", "auth_error", "unavailable")
"""Call statuses that say the model was never heard from (the provider, not the model)."""
UNMATCHED_EVENT = "checker_unmatched_verdicts"


@dataclass(frozen=True)
class Answer:
    """What the model answered for an item, and whether the harness let it stand."""

    said: Said
    stood: bool | None = None
    rule: str = ""
    conflicting: bool = False


def answer_of(verdict: CheckVerdict) -> Answer:
    """The model's answer behind a recorded verdict. The harness records a rejected answer as
    ``inconclusive`` with a reason that starts ``passed, but [E4] …`` (or ``failed, but``), a missing one
    with ``[E12] the checker gave no verdict …``, a failed call with ``final check error …``/``timeout``."""
    if verdict.status in ("passed", "failed"):
        return Answer(verdict.status, stood=True)
    reason = verdict.reason
    for said in ("passed", "failed"):
        if reason.startswith(f"{said}, but "):
            return Answer(said, stood=False, rule=verdict.rule or rule_of(reason))
    if reason.startswith("[E12] conflicting"):
        return Answer("none", rule="E12", conflicting=True)
    if reason:
        return Answer("none", rule=rule_of(reason))
    return Answer("inconclusive") if verdict.status == "inconclusive" else Answer("none")


def outcome_of(truth: Truth, answer: Answer) -> ItemOutcome:
    """How an answer compares with the truth (a rejected right answer is a false UNCHECKED)."""
    said, stood = answer.said, answer.stood
    if truth == "unsettled":
        return {"inconclusive": "right", "passed": "false_pass", "failed": "false_fail",
                "none": "unanswered"}[said]  # type: ignore[return-value]
    honest = "passed" if truth == "true" else "failed"
    if said == honest:
        return "right" if stood else "false_unchecked"
    if said in ("passed", "failed"):
        return "false_pass" if said == "passed" else "false_fail"
    return "false_unchecked"


def judged_item(truth: Truth, verdicts: Sequence[tuple[int, CheckVerdict]]) -> ItemResult:
    """One item's result from its ledger verdicts (with their 1-based ledger places): the last decides,
    and any conflict among them makes it no answer."""
    place, last = verdicts[-1]
    answers = [answer_of(v) for _, v in verdicts]
    answer = next((a for a in answers if a.conflicting), answers[-1])
    return ItemResult(item=last.item_text, kind=last.kind, truth=truth, said=answer.said,
                      recorded=last.status, outcome=outcome_of(truth, answer), stood=answer.stood,
                      rule=answer.rule, reason=last.reason, verdict=place)


def item_verdicts(record: RunRecord) -> dict[str, list[tuple[int, CheckVerdict]]]:
    """Item text → its model verdicts with their 1-based ledger places, in ledger order."""
    found: dict[str, list[tuple[int, CheckVerdict]]] = {}
    for place, verdict in enumerate(record.verdicts, start=1):
        if verdict.source != "probe" and verdict.status != "superseded":
            found.setdefault(verdict.item_text, []).append((place, verdict))
    return found


def unmatched(record: RunRecord) -> tuple[int, tuple[str, ...]]:
    """How many of the checker's replies named what is no listed item (the harness records one event per
    such reply), and what they named."""
    events = [e.fields.get("named") for e in record.events if e.kind == UNMATCHED_EVENT]
    return len(events), tuple(str(name) for named in events if isinstance(named, list) for name in named)


def usage_of(calls: Sequence[ModelCallRecord]) -> Usage:
    """Calls, requests (re-asks included), tokens, cost (None when any price is unknown) and latency."""
    cost: float | None = 0.0
    for call in calls:
        cost = None if cost is None or call.cost_usd is None else cost + call.cost_usd
    latencies = [c.latency_ms for c in calls]
    return Usage(calls=len(calls), requests=sum(1 + c.reasks for c in calls),
                 tokens=sum(c.prompt_tokens + c.completion_tokens for c in calls), cost_usd=cost,
                 latency_ms_mean=sum(latencies) / len(latencies) if latencies else 0.0,
                 latency_ms_max=max(latencies, default=0.0))


def total_usage(usages: Sequence[Usage]) -> Usage:
    """Several sets of calls' usage added up (an unknown cost anywhere makes the total unknown)."""
    calls = sum(u.calls for u in usages)
    cost: float | None = 0.0
    for usage in usages:
        cost = None if cost is None or usage.cost_usd is None else cost + usage.cost_usd
    mean = sum(u.latency_ms_mean * u.calls for u in usages) / calls if calls else 0.0
    return Usage(calls=calls, requests=sum(u.requests for u in usages), tokens=sum(u.tokens for u in usages),
                 cost_usd=cost, latency_ms_mean=mean,
                 latency_ms_max=max((u.latency_ms_max for u in usages), default=0.0))


def unreachable(calls: Sequence[ModelCallRecord]) -> bool:
    """Every call failed before the model answered: nothing can be said of the model."""
    return bool(calls) and all(c.status in UNREACHABLE_STATUSES for c in calls)


def invalid_replies(calls: Sequence[ModelCallRecord]) -> int:
    """Replies that could not be used: each re-asked one, and the last one of a call that failed on it."""
    return sum(c.reasks + (1 if c.status in INVALID_STATUSES else 0) for c in calls)
