"""The operator: one decision per turn from a context compiled afresh (never a growing transcript)."""

from __future__ import annotations

from pytest_artemis.models import CallLog, ChatMessage, ImagePart, Model, RequestContext

from .prompts import Scenario, operator_system
from .schemas import OperatorDecision, operator_schema


def operator_messages(scenario: Scenario, user_text: str, image: ImagePart | None) -> list[ChatMessage]:
    """System prompt for this scenario, then the compiled context with the current screenshot."""
    images = (image,) if image is not None else ()
    return [ChatMessage("system", operator_system(scenario)), ChatMessage("user", user_text, images)]


async def decide(
    model: Model,
    calls: CallLog | None,
    *,
    scenario: Scenario,
    user_text: str,
    image: ImagePart | None,
    context: RequestContext,
) -> OperatorDecision:
    """Ask for this turn's decision; model errors propagate (the engine records the turn either way)."""
    reply = await model.complete("operator", operator_messages(scenario, user_text, image),
                                 operator_schema(bool(scenario.secrets)), context=context, calls=calls)
    return reply.value
