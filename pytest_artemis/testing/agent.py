"""A scripted agent: a planner from a subgoal list, an operator from steps, an honest checker."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel

from pytest_artemis.agents.schemas import OperatorDecision, PlanReply
from pytest_artemis.contracts import Finish, Wait
from pytest_artemis.models import ModelSet
from pytest_artemis.models.scripted import Reply, Respond, ScriptedModel, ScriptedRequest
from pytest_artemis.plan import parse_plan, render_plan

from .checker import HonestChecker, OnScreen
from .steps import Step, normalize


def plan_text(goal: str, subgoals: Sequence[str] | None) -> str:
    """The plan a scripted planner writes: the given subgoals, or the goal as the only one."""
    lines = list(subgoals) if subgoals else [goal]
    return "".join(f"- [ ] {line}\n" for line in lines)


def tick(plan: str, wanted: str | None) -> tuple[str | None, str]:
    """``plan`` with the open subgoal matching ``wanted`` marked done (every open one for None), and a
    note for the decision; (None, why) when nothing matches."""
    parsed = parse_plan(plan)
    still_open = [s for s in parsed.subgoals if not s.done]
    if wanted is None:
        chosen = still_open
    else:
        chosen = [s for s in still_open if normalize(wanted) in normalize(s.text)][:1]
    if not chosen:
        if wanted is None:
            return None, ""
        listed = "; ".join(repr(s.text) for s in still_open) or "none"
        return None, f"; done={wanted!r} matches no open subgoal (open: {listed})"
    for subgoal in chosen:
        parsed = parsed.with_status(subgoal.key, "done")
    return render_plan(parsed), "; marks " + ", ".join(repr(s.text) for s in chosen) + " done"


class ScriptedOperator:
    """The operator role from a list of steps: each turn resolves the next step against the screen.

    A step whose element is not on the screen is not consumed: the turn waits and says what the screen
    shows, and after ``patience`` such turns in a row the operator gives up with a ``finish`` claim
    (the checks then judge what was really reached). Past the last step it claims ``finish``.
    """

    def __init__(self, steps: Sequence[Step], *, patience: int = 3) -> None:
        self.steps = tuple(steps)
        self.patience = patience
        self._next = 0
        self._misses = 0

    def __call__(self, request: ScriptedRequest) -> OperatorDecision:
        if self._next >= len(self.steps):
            plan, note = tick(request.plan, None)
            return OperatorDecision(decision=f"no scripted step left ({len(self.steps)} given){note}",
                                    actions=[Finish(summary="the script is done")], plan=plan)
        step = self.steps[self._next]
        if request.screen is None:
            return OperatorDecision(decision=f"{step}: no screen in the request")
        resolved = step.resolve(request.screen)
        if isinstance(resolved, str):
            self._misses += 1
            if self._misses >= self.patience:
                return OperatorDecision(decision=f"giving up after {self._misses} turns: {resolved}",
                                        actions=[Finish(summary=f"could not do {step}")])
            return OperatorDecision(decision=resolved, actions=[Wait(ms=300)])
        self._next, self._misses = self._next + 1, 0
        plan, note = tick(request.plan, None) if step.kind == "finish" else (None, "")
        if step.done is not None:
            plan, note = tick(request.plan, step.done)
        return OperatorDecision(decision=f"{step}{note}", actions=resolved, plan=plan)


def scripted_agent(
    *steps: Step, plan: Sequence[str] | None = None, goal: OnScreen | None = None,
    checker: Respond | None = None, patience: int = 3, name: str = "scripted-agent",
) -> ModelSet:
    """Models for every role, scripted by what a user sees: return it from an ``artemis_model`` fixture.

    ``steps`` (``tap``, ``type_text``, ``press``, ``back``, ``launch``, ``finish`` …) drive the operator,
    one per turn, each resolved against that turn's screen. ``plan`` lists the subgoals the planner writes
    (default: the goal itself); a step's ``done=`` marks one done, ``finish()`` marks the rest. The checker
    is ``HonestChecker(goal)``, which judges the goal on the final screen against ``goal``
    (``on_screen("Airplane mode", checked=True)``), unless ``checker`` (a reply function of the request)
    is given. Build a new one per test: the operator remembers its position in the script.
    """
    operator = ScriptedOperator(steps, patience=patience)
    judge = checker or HonestChecker(goal)

    def respond(request: ScriptedRequest) -> Reply | BaseModel:
        if request.role == "planner":
            return PlanReply(plan=plan_text(request.goal, plan))
        if request.role == "operator":
            return operator(request)
        return judge(request)  # type: ignore[return-value]

    return ModelSet.uniform(ScriptedModel(respond, name=name))
