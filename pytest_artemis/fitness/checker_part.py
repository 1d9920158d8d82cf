"""The checker part: each case's scripted path walked on a fresh phone (no model acts), its goal and items
judged by the candidate checker through the real harness in one final check, the verdicts compared with the
truth. Only the checker is called: at most ``request_budget()`` requests for the whole part."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import BaseModel

from pytest_artemis.agents.schemas import PlanReply
from pytest_artemis.contracts import TaskSpec
from pytest_artemis.models import Model, ModelSet
from pytest_artemis.models.scripted import Reply, ScriptedModel, ScriptedRequest
from pytest_artemis.testing.agent import ScriptedOperator, plan_text

from .cases import CASES, CheckerCase
from .classify import (
    invalid_replies,
    item_verdicts,
    judged_item,
    total_usage,
    unmatched,
    unreachable,
    usage_of,
)
from .context import FitnessError, KitContext
from .phone import run_on
from .schema import CaseResult, CheckerCounts, CheckerScore, ItemResult
from .scoring import checker_fitness

CHECKER_ROUNDS = 2
"""Checker rounds per judgement: one for evidence requests (probes, screenshots), one for the verdicts."""
CHECKER_REASKS = 1
"""Re-asks of an invalid checker reply (the kit's own models are built with this many)."""
REQUEST_LIMIT = 40
"""The most checker requests a full checker scoring may cost."""


def request_budget(cases: Sequence[CheckerCase] = CASES) -> int:
    """The most checker requests the part can make: one judgement per case, each at most ``CHECKER_ROUNDS``
    calls, each call at most ``1 + CHECKER_REASKS`` requests."""
    return len(cases) * CHECKER_ROUNDS * (1 + CHECKER_REASKS)


def _script(case: CheckerCase) -> ScriptedModel:
    """The planner and operator of a case: its plan and its path, found on each turn's screen (no model)."""
    walk = ScriptedOperator(case.steps)

    def respond(request: ScriptedRequest) -> Reply | BaseModel:
        if request.role == "planner":
            return PlanReply(plan=plan_text(request.goal, None))
        return walk(request)

    return ScriptedModel(respond, name="fitness:case-script")


@dataclass(frozen=True)
class CaseRun:
    """A case's result, and whether any of its calls reached the model at all."""

    result: CaseResult
    unreachable: bool


def run_case(ctx: KitContext, case: CheckerCase, checker: Model) -> CaseRun:
    """Walk ``case`` on a fresh phone and score ``checker``'s verdicts on it."""
    ctx.phone.fresh(case.setup)
    script = _script(case)
    spec = TaskSpec(goal=case.goal, checks=case.items(), max_steps=len(case.steps) + 1)
    config = ctx.settings.config(midway_checks=False, final_check_max_attempts=1,
                                 checker_max_iterations=CHECKER_ROUNDS)
    ran = run_on(ctx.phone, spec, ModelSet(planner=script, operator=script, checker=checker), config,
                 root=ctx.runs / "checker", run_id=case.name, redactor=ctx.redactor)
    if not case.confirm(ctx.phone.state()):
        raise FitnessError(f"checker case {case.name!r}: the simulated phone did not end where the case's "
                           f"truth says (run: {ran.record.dir}); the case is void")
    judged = item_verdicts(ran.record)
    items = tuple(judged_item(case.truth_of(text).truth, judged[text])
                  for text in (case.goal, *(c.text for c in case.claims)) if text in judged)
    if len(items) != len(case.claims) + 1:
        raise FitnessError(f"checker case {case.name!r}: the ledger holds no verdict for some items "
                           f"(run: {ran.record.dir})")
    calls = [c for c in ran.record.model_calls if c.role == "checker"]
    stray, named = unmatched(ran.record)
    conflicting = any(i.rule == "E12" and i.reason.startswith("[E12] conflicting") for i in items)
    result = CaseResult(name=case.name, goal=case.goal, run=ctx.relative(ran.record.dir), items=items,
                        usage=usage_of(calls), unmatched=named,
                        invalid_replies=invalid_replies(calls) + stray + int(conflicting))
    return CaseRun(result, unreachable(calls))


def _counts(items: Sequence[ItemResult]) -> CheckerCounts:
    def n(outcome: str, **where: object) -> int:
        return sum(1 for i in items
                   if i.outcome == outcome and all(getattr(i, k) == v for k, v in where.items()))

    return CheckerCounts(
        items=len(items), settled=sum(1 for i in items if i.truth != "unsettled"), right=n("right"),
        false_passes_stood=n("false_pass", stood=True), false_passes_blocked=n("false_pass", stood=False),
        false_fails_stood=n("false_fail", stood=True), false_fails_blocked=n("false_fail", stood=False),
        false_unchecked_rejected=sum(1 for i in items if i.outcome == "false_unchecked"
                                     and i.said in ("passed", "failed")),
        false_unchecked_hedged=n("false_unchecked", said="inconclusive"),
        false_unchecked_unanswered=n("false_unchecked", said="none"),
        unanswered_unsettled=n("unanswered"),
    )


def score_checker(ctx: KitContext, name: str, checker: Model, cases: Sequence[CheckerCase] = CASES
                  ) -> CheckerScore:
    """Run every case with ``checker`` (named ``name``) and score it against the thresholds."""
    runs = [run_case(ctx, case, checker) for case in cases]
    results = tuple(r.result for r in runs)
    items = [i for r in results for i in r.items]
    counts = _counts(items)
    usage = total_usage([r.usage for r in results])
    invalid = sum(r.invalid_replies for r in results)
    fitness, reasons = checker_fitness(counts, invalid, usage.requests,
                                       unreachable=bool(runs) and all(r.unreachable for r in runs))
    return CheckerScore(
        model=name, cases=results, counts=counts,
        right_rate=counts.right / counts.items if counts.items else 0.0,
        false_unchecked_rate=_false_unchecked(counts), invalid_replies=invalid,
        invalid_reply_rate=invalid / usage.requests if usage.requests else 0.0, usage=usage,
        request_budget=request_budget(cases), fitness=fitness, reasons=reasons)


def _false_unchecked(counts: CheckerCounts) -> float:
    return counts.false_unchecked / counts.settled if counts.settled else 0.0

