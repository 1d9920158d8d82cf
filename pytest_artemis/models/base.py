"""The model interface every role talks to: messages, request context, typed replies, per-role model sets."""

from __future__ import annotations

import base64
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, Literal, Protocol, TypeVar

from pydantic import BaseModel

from pytest_artemis.contracts import CheckItem, EvidenceScreen, ModelCallRecord, Role, ScreenView
from pytest_artemis.contracts._base import Contract

if TYPE_CHECKING:
    from .calls import CallLog

T = TypeVar("T", bound=BaseModel)


@dataclass(frozen=True)
class ImagePart:
    """An image attached to a message (a screenshot, usually JPEG)."""

    data: bytes
    mime: str = "image/jpeg"

    def data_url(self) -> str:
        """The image as a ``data:`` URL, the form OpenAI-style vision messages carry."""
        return f"data:{self.mime};base64,{base64.b64encode(self.data).decode('ascii')}"

    def __repr__(self) -> str:
        # Never dump image bytes into logs or tracebacks.
        return f"ImagePart(<{len(self.data)} bytes>, mime={self.mime!r})"


@dataclass(frozen=True)
class ChatMessage:
    """One chat message: text plus optional images."""

    role: Literal["system", "user", "assistant"]
    text: str
    images: tuple[ImagePart, ...] = ()


class RequestContext(Contract):
    """Typed facts behind a request, for models that act on them directly (``ScriptedModel``).

    Real models read only the messages; the context is never logged.
    """

    goal: str
    plan: str = ""
    screen: ScreenView | None = None
    checks: tuple[CheckItem, ...] = ()
    history: tuple[str, ...] = ()
    """One-line summaries of recent steps, oldest first."""
    turn: int = 0
    entry: Literal["checkpoint", "final"] | None = None
    """For the checker: whether it judges at a subgoal checkpoint or at the end of the run."""
    screens: tuple[EvidenceScreen, ...] = ()
    """For the checker: the recorded screens it may cite (its window), with their indexed elements."""
    judged_at: dict[str, int] = {}
    """For the checker: items (by key) judged at their checkpoint's anchor step (a final check judging a
    replayed run's last checkpoint): only screens up to that step are evidence for them."""
    ids: dict[str, str] = {}
    """For the checker: item key → the short id the request lists the item by (a verdict may name it so)."""


@dataclass(frozen=True)
class ModelReply(Generic[T]):
    """A validated reply: the schema instance and the call's diagnostics record."""

    value: T
    record: ModelCallRecord
    call_id: str
    """``"{run_id}/{seq}"``: the record's line in the run's ``model_calls.jsonl``."""


class Model(Protocol):
    """What the engine calls for every role.

    ``complete`` returns only a reply whose output ended properly and validated against ``schema``;
    otherwise it raises ``ModelUnavailable``, ``ModelContextExceeded`` or ``ModelOutputInvalid``. Every
    call, success or failure, is logged to ``calls`` when given.
    """

    name: str

    async def complete(
        self,
        role: Role,
        messages: Sequence[ChatMessage],
        schema: type[T],
        *,
        context: RequestContext | None = None,
        calls: CallLog | None = None,
    ) -> ModelReply[T]: ...


@dataclass(frozen=True)
class ModelSet:
    """The model of each role; the checker may run on a different model than the operator."""

    planner: Model
    operator: Model
    checker: Model

    @classmethod
    def uniform(cls, model: Model) -> ModelSet:
        """One model for every role."""
        return cls(planner=model, operator=model, checker=model)

    def for_role(self, role: Role) -> Model:
        """The model serving ``role``."""
        return {"planner": self.planner, "operator": self.operator, "checker": self.checker}[role]
