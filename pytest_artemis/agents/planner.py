"""The planner: writes the first plan from the goal and the declared checks."""

from __future__ import annotations

from collections.abc import Sequence

from pytest_artemis.contracts import CheckItem
from pytest_artemis.models import CallLog, ChatMessage, Model, RequestContext

from .prompts import Scenario, planner_system, planner_user
from .schemas import PlanReply


def planner_messages(
    goal: str, app: str | None, items: Sequence[CheckItem], *, checks_enabled: bool, note: str = ""
) -> list[ChatMessage]:
    """The planner request; ``note`` carries a syntax error of a previous answer."""
    user = planner_user(goal, app, items, checks_enabled=checks_enabled)
    if note:
        user += f"\n\nYour previous plan could not be parsed: {note}. Write it again."
    system = planner_system(Scenario(checks_enabled=checks_enabled))
    return [ChatMessage("system", system), ChatMessage("user", user)]


async def ask_plan(
    model: Model,
    calls: CallLog | None,
    *,
    goal: str,
    app: str | None,
    items: Sequence[CheckItem],
    checks_enabled: bool,
    note: str = "",
) -> str:
    """The planner's plan text (unparsed; the engine parses and places the user's checks)."""
    messages = planner_messages(goal, app, items, checks_enabled=checks_enabled, note=note)
    shown = tuple(items) if checks_enabled else ()
    reply = await model.complete("planner", messages, PlanReply,
                                 context=RequestContext(goal=goal, checks=shown), calls=calls)
    return reply.value.plan
