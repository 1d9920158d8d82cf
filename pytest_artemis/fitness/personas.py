"""The built-in scripted models ``scripted:honest``, ``scripted:liar`` and ``scripted:sloppy``: every role,
so the kit can score itself offline and show what fit and unfit look like.

As planner and operator they follow the built-in goals' routes (``goals.py``), each step found on the screen
of its turn: the honest one walks the route; the liar claims the goal at once, every subgoal ticked, without
acting; the sloppy one first answers in prose (re-asked), then taps an element that is not there (refused),
then walks the route. As checker they are ``judges.py``'s honest, liar and sloppy checkers.
"""

from __future__ import annotations

from collections.abc import Callable

from pydantic import BaseModel

from pytest_artemis.agents.schemas import CheckReport, OperatorDecision, PlanReply
from pytest_artemis.contracts import Finish, Tap
from pytest_artemis.models.scripted import Reply, ScriptedModel, ScriptedRequest
from pytest_artemis.testing.agent import ScriptedOperator, plan_text, tick

from . import judges
from .goals import goal_named

PREFIX = "scripted:"
PERSONAS = ("honest", "liar", "sloppy")
NOWHERE = 999
"""An element index no screen of the simulated phone has: the sloppy operator's first tap."""

Judge = Callable[[ScriptedRequest], CheckReport | str]
JUDGES: dict[str, Judge] = {"honest": judges.honest, "liar": judges.liar, "sloppy": judges.sloppy}


def unknown_scripted(name: str) -> str:
    """Why ``name`` is not a usable scripted model name ('' when it is one, or names no scripted model)."""
    if not name.startswith(PREFIX) or persona_of(name) is not None:
        return ""
    return f"{name!r} is not a built-in scripted model (known: {', '.join(PREFIX + p for p in PERSONAS)})"


def persona_of(name: str) -> str | None:
    """``honest`` for ``scripted:honest``; None for a name that is not a built-in scripted model."""
    if not name.startswith(PREFIX):
        return None
    persona = name.removeprefix(PREFIX)
    return persona if persona in PERSONAS else None


class _Operator:
    """The operator of one persona for one run (it remembers its place on the route)."""

    def __init__(self, persona: str) -> None:
        self.persona = persona
        self._route: ScriptedOperator | None = None

    def __call__(self, request: ScriptedRequest) -> Reply:
        if self.persona == "liar":
            plan, _ = tick(request.plan, None)
            return OperatorDecision(decision="everything is done", actions=[Finish(summary="done")],
                                    plan=plan)
        if self.persona == "sloppy" and request.turn == 1:
            decision = OperatorDecision(decision="tap the first button", actions=[Tap(element=NOWHERE)])
            return decision if request.reask else f"I will tap the first button: {decision.model_dump_json()}"
        return self._walk(request)

    def _walk(self, request: ScriptedRequest) -> OperatorDecision:
        if self._route is None:
            goal = goal_named(request.goal)
            self._route = ScriptedOperator(goal.route if goal is not None else ())
        return self._route(request)


def scripted_model(name: str) -> ScriptedModel:
    """A fresh model for one run of the built-in scripted model ``name`` (``scripted:honest`` …)."""
    persona = persona_of(name)
    if persona is None:
        raise ValueError(unknown_scripted(name) or f"{name!r} names no built-in scripted model")
    operator = _Operator(persona)
    judge = JUDGES[persona]

    def respond(request: ScriptedRequest) -> Reply | BaseModel:
        if request.role == "planner":
            goal = goal_named(request.goal)
            return PlanReply(plan=plan_text(request.goal, goal.subgoals if goal is not None else None))
        if request.role == "operator":
            return operator(request)
        return judge(request)

    return ScriptedModel(respond, name=name)
