"""The call flow every model shares: re-asks on invalid output and one diagnostics record per call."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

from pydantic import BaseModel

from .base import ChatMessage, ModelReply
from .calls import CallFacts, CallLog
from .errors import ModelContextExceeded, ModelOutputInvalid, ModelUnavailable
from .parsing import RawOutput, output_error, parse_output, reask_message

T = TypeVar("T", bound=BaseModel)

Attempt = Callable[[Sequence[ChatMessage], int], Awaitable[RawOutput]]
"""One request to the model: ``(messages, reask_number) -> RawOutput``; it adds usage to the call facts."""


async def ask_until_valid(
    attempt: Attempt, messages: Sequence[ChatMessage], schema: type[T], *, reasks: int, facts: CallFacts
) -> T:
    """Ask, judge the output, and re-ask at most ``reasks`` times on invalid (never on cut-off) output.

    Raises ``ModelOutputInvalid`` when the output stays unusable; nothing from it is returned.
    """
    history = list(messages)
    for number in range(reasks + 1):
        raw = await attempt(tuple(history), number)
        parsed = parse_output(raw, schema)
        facts.finish_reason = raw.finish_reason
        facts.stream = raw.stream
        facts.stream_complete = raw.stream_complete
        facts.arguments_complete = parsed.arguments_complete
        if parsed.value is not None:
            return parsed.value
        if not parsed.reaskable or number == reasks:
            raise output_error(parsed, model=facts.model, role=facts.role, reasks=facts.reasks)
        facts.reasks += 1
        history += [ChatMessage(role="assistant", text=raw.content or ""), reask_message(parsed, schema)]
    raise AssertionError("unreachable: the loop returns or raises")


async def logged_call(
    facts: CallFacts, calls: CallLog | None, body: Callable[[], Awaitable[T]]
) -> ModelReply[T]:
    """Run ``body`` and log exactly one record for it, whether it returns or raises a model error."""
    log = calls if calls is not None else CallLog(run_id="unlogged")
    started = time.perf_counter()
    try:
        value = await body()
    except (ModelUnavailable, ModelContextExceeded, ModelOutputInvalid) as error:
        facts.status = error.status
        if isinstance(error, ModelUnavailable | ModelContextExceeded) and error.http_status is not None:
            facts.http_status = error.http_status
        facts.latency_ms = (time.perf_counter() - started) * 1000
        error.record = log.log(facts)
        raise
    facts.status = "ok"
    facts.latency_ms = (time.perf_counter() - started) * 1000
    record = log.log(facts)
    return ModelReply(value=value, record=record, call_id=f"{record.run_id}/{record.seq}")
