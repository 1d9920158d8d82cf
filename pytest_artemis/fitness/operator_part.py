"""The operator part: each goal run on a fresh phone with the candidate as planner and operator (an honest
scripted checker judges the model-judged items, so only the candidate's acting is scored), then read back by
the goal's probes: reached or not, whatever the run or the model said."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pytest_artemis.contracts import ProbeCheck, TaskSpec, outcome_word
from pytest_artemis.device import Device
from pytest_artemis.models import Model, ModelSet
from pytest_artemis.models.scripted import ScriptedModel
from pytest_artemis.probes import run_probe_check
from pytest_artemis.store import RunRecord

from . import judges
from .classify import invalid_replies, total_usage, unreachable, usage_of
from .context import FitnessError, KitContext
from .goals import GOALS, OperatorGoal
from .phone import run_on
from .schema import GoalResult, OperatorScore
from .scoring import operator_fitness

ROLES = ("planner", "operator")


def _read(device: Device, checks: Sequence[ProbeCheck]) -> tuple[bool, str]:
    """Whether every probe check holds now (conclusively), and what the probes read."""
    judgements = [run_probe_check(device, check)[1] for check in checks]
    return all(j.conclusive and j.passed for j in judgements), "; ".join(j.evidence for j in judgements)


def _actions(record: RunRecord) -> tuple[int, int, bool]:
    """Actions asked for, actions refused, and whether the operator claimed ``finish``."""
    results = [r for step in record.steps for r in step.results]
    claimed = any("finish_claimed" in step.flags for step in record.steps) or any(
        r.ok and r.action.kind == "finish" for r in results)
    return len(results), sum(1 for r in results if r.refused), claimed


def run_goal(ctx: KitContext, goal: OperatorGoal, planner: Model, operator: Model) -> tuple[GoalResult, bool]:
    """Run ``goal`` on a fresh phone; its result, and whether no call reached the model."""
    ctx.phone.fresh()
    held, before = _read(ctx.phone.device, goal.success)
    if held:
        raise FitnessError(f"goal {goal.name!r} already holds on a fresh phone ({before}): "
                           "it would prove nothing")
    checker = ScriptedModel(judges.honest, name="fitness:honest-checker")
    spec = TaskSpec(goal=goal.goal, max_steps=goal.max_steps, checks=goal.checks)
    config = ctx.settings.config(max_steps=goal.max_steps, final_check=False)
    ran = run_on(ctx.phone, spec, ModelSet(planner=planner, operator=operator, checker=checker), config,
                 root=ctx.runs / "operator", run_id=goal.name, redactor=ctx.redactor)
    reached, evidence = _read(ctx.phone.device, goal.success)
    actions, refused, claimed = _actions(ran.record)
    calls = [c for c in ran.record.model_calls if c.role in ROLES]
    result = GoalResult(name=goal.name, goal=goal.goal, run=ctx.relative(ran.record.dir), reached=reached,
                        evidence=evidence, claimed=claimed, outcome=outcome_word(ran.outcome),
                        steps=len(ran.record.steps), seconds=round(ran.seconds, 3), actions=actions,
                        refused=refused, invalid_replies=invalid_replies(calls), usage=usage_of(calls))
    return result, unreachable(calls)


def score_operator(ctx: KitContext, name: str, models: Callable[[], tuple[Model, Model]],
                   goals: Sequence[OperatorGoal] = GOALS) -> OperatorScore:
    """Run every goal with a fresh (planner, operator) pair from ``models`` and score them."""
    runs = [run_goal(ctx, goal, *models()) for goal in goals]
    results = tuple(r for r, _ in runs)
    usage = total_usage([r.usage for r in results])
    reached = sum(1 for r in results if r.reached)
    steps = sum(r.steps for r in results)
    actions, refused = sum(r.actions for r in results), sum(r.refused for r in results)
    invalid = sum(r.invalid_replies for r in results)
    fitness, reasons = operator_fitness(reached, len(results), refused, actions, invalid, usage.requests,
                                        unreachable=bool(runs) and all(u for _, u in runs))
    return OperatorScore(
        model=name, goals=results, reached=reached, goal_rate=reached / len(results) if results else 0.0,
        steps=steps, actions=actions, refused=refused, refused_rate=refused / actions if actions else 0.0,
        invalid_replies=invalid, invalid_reply_rate=invalid / usage.requests if usage.requests else 0.0,
        usage=usage, tokens_per_step=usage.tokens / steps if steps else 0.0,
        cost_per_step_usd=None if usage.cost_usd is None or not steps else usage.cost_usd / steps,
        fitness=fitness, reasons=reasons)
