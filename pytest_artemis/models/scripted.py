"""A deterministic model driven by a function of the request: for users' plumbing tests and offline demos."""

from __future__ import annotations

import asyncio
import inspect
import json
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal, TypeVar, Union

from pydantic import BaseModel, JsonValue

from pytest_artemis.contracts import CheckItem, EvidenceScreen, Role, ScreenView

from .base import ChatMessage, ModelReply, RequestContext
from .calls import CallFacts, CallLog
from .errors import ScriptExhausted
from .flow import ask_until_valid, logged_call
from .parsing import RawOutput

T = TypeVar("T", bound=BaseModel)


@dataclass(frozen=True)
class ScriptedReply:
    """Raw model output with explicit terminal evidence, e.g. to simulate a cut-off stream.

    ``finish_reason=None`` means no finish reason ever arrived; ``stream_complete=False`` means the stream
    broke off. Either makes the call fail with ``ModelOutputInvalid`` (status ``truncated``).
    """

    content: str
    finish_reason: str | None = "stop"
    stream_complete: bool | None = None


Reply = Union[BaseModel, str, dict[str, JsonValue], ScriptedReply]  # noqa: UP007 (a runtime alias)
"""What a reply function may return: the schema's object (used as is), or raw JSON text, a dict or a
``ScriptedReply``, which go through the same parsing, validation and terminal-evidence rules as the
content of a real model."""

Respond = Callable[["ScriptedRequest"], Reply | Awaitable[Reply]]


@dataclass(frozen=True)
class ScriptedRequest:
    """One request as a reply function sees it: the role, the typed context and the raw messages."""

    role: Role
    schema: type[BaseModel]
    messages: tuple[ChatMessage, ...]
    context: RequestContext | None = None
    reask: int = 0
    """0 for the first ask; 1, 2, … when the previous reply was invalid (the messages then end with the
    validation error)."""

    @property
    def goal(self) -> str:
        return self.context.goal if self.context else ""

    @property
    def plan(self) -> str:
        """The current plan text (the plan grammar of ``pytest_artemis.plan``)."""
        return self.context.plan if self.context else ""

    @property
    def screen(self) -> ScreenView | None:
        """The perceived screen: ``screen.elements`` and ``screen.find(text=…, resource_id=…)``."""
        return self.context.screen if self.context else None

    @property
    def checks(self) -> tuple[CheckItem, ...]:
        """The items to judge (checker requests)."""
        return self.context.checks if self.context else ()

    @property
    def history(self) -> tuple[str, ...]:
        return self.context.history if self.context else ()

    @property
    def turn(self) -> int:
        return self.context.turn if self.context else 0

    @property
    def entry(self) -> Literal["checkpoint", "final"] | None:
        return self.context.entry if self.context else None

    @property
    def screens(self) -> tuple[EvidenceScreen, ...]:
        """The recorded screens a checker may cite (``step``, ``screen``, ``view.find(…)``)."""
        return self.context.screens if self.context else ()

    @property
    def ids(self) -> dict[str, str]:
        """Item key → the id the request lists it by: a verdict may name ``request.ids[item.key]`` (or the
        item's text)."""
        return self.context.ids if self.context else {}

    @property
    def judged_at(self) -> dict[str, int]:
        """Items (by ``item.key``) a final check judges at their checkpoint's anchor step: only the screens
        up to that step are evidence for them."""
        return self.context.judged_at if self.context else {}


class ScriptedModel:
    """A model whose replies come from ``respond(request)`` (sync or async), in the spirit of
    pydantic-ai's ``FunctionModel``.

    An ``async def`` responder runs on the run's event loop; a plain function runs in a worker thread,
    so a slow one (OCR, a local model) does not hold up the run's concurrent calls — make it
    thread-safe if it keeps state that concurrent checker calls share.

    Typed replies are used as is; raw text and dicts take the real model's parse/validate/terminal-evidence
    path, including re-asks (``respond`` is called again with ``request.reask`` > 0). ``respond`` may raise
    ``ModelUnavailable`` to simulate a provider outage. Calls cost zero tokens and zero dollars and are
    marked ``scripted`` in the diagnostics. ``requests`` keeps every request seen, for assertions.

    >>> model = ScriptedModel(lambda request: {"plan": "- [ ] open Clock"})
    """

    __test__ = False  # not a pytest test class despite living in pytest_artemis.testing

    def __init__(self, respond: Respond, *, name: str = "scripted", reasks: int = 1):
        self.name = name
        self.reasks = reasks
        self._respond = respond
        self._respond_async = inspect.iscoroutinefunction(respond) or inspect.iscoroutinefunction(
            type(respond).__call__)  # an object with an ``async def __call__``
        self.requests: list[ScriptedRequest] = []

    @classmethod
    def from_replies(
        cls,
        *,
        planner: Iterable[Reply | BaseException] = (),
        operator: Iterable[Reply | BaseException] = (),
        checker: Iterable[Reply | BaseException] = (),
        name: str = "scripted",
        reasks: int = 1,
    ) -> ScriptedModel:
        """A model answering each role from its own list, in order; an exception item is raised instead.

        Re-asks consume the next reply of the role. Running out raises ``ScriptExhausted``.
        """
        queues: dict[Role, deque[Reply | BaseException]] = {
            "planner": deque(planner),
            "operator": deque(operator),
            "checker": deque(checker),
        }
        given = {role: len(queue) for role, queue in queues.items()}

        async def respond(request: ScriptedRequest) -> Reply:
            # On the event loop (async): concurrent calls take the replies in the order they were made.
            queue = queues[request.role]
            if not queue:
                raise ScriptExhausted(
                    f"ScriptedModel.from_replies: no {request.role} reply left ({given[request.role]} given)"
                )
            item = queue.popleft()
            if isinstance(item, BaseException):
                raise item
            return item

        return cls(respond, name=name, reasks=reasks)

    @staticmethod
    def truncated(content: str) -> ScriptedReply:
        """A stream that broke off after ``content`` without any finish reason."""
        return ScriptedReply(content=content, finish_reason=None, stream_complete=False)

    async def complete(
        self,
        role: Role,
        messages: Sequence[ChatMessage],
        schema: type[T],
        *,
        context: RequestContext | None = None,
        calls: CallLog | None = None,
    ) -> ModelReply[T]:
        """Answer through ``respond``; see ``Model.complete``."""
        facts = CallFacts(role=role, model=self.name, scripted=True, cost_usd=0.0)

        async def attempt(history: Sequence[ChatMessage], reask: int) -> RawOutput:
            request = ScriptedRequest(role, schema, tuple(history), context, reask)
            self.requests.append(request)
            # A synchronous responder may be slow (a checker reading screenshots): in a worker thread
            # it does not hold up the run's other calls (concurrent checkpoint checks).
            reply = self._respond(request) if self._respond_async else \
                await asyncio.to_thread(self._respond, request)
            if inspect.isawaitable(reply):
                reply = await reply
            return _raw(reply)

        return await logged_call(
            facts, calls, lambda: ask_until_valid(attempt, messages, schema, reasks=self.reasks, facts=facts)
        )


def _raw(reply: Reply) -> RawOutput:
    if isinstance(reply, ScriptedReply):
        stream = reply.stream_complete is not None
        return RawOutput(
            reply.content, reply.finish_reason, stream=stream, stream_complete=reply.stream_complete
        )
    if isinstance(reply, BaseModel):
        return RawOutput(content=None, finish_reason="stop", value=reply)
    if isinstance(reply, str):
        return RawOutput(content=reply, finish_reason="stop")
    if isinstance(reply, dict):
        return RawOutput(content=json.dumps(reply), finish_reason="stop")
    raise TypeError(
        f"a scripted reply must be a pydantic object, str, dict or ScriptedReply, not {type(reply)}"
    )
