"""Per-run call diagnostics: numbers every model call and forwards its record (failures included)."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import asdict, dataclass

from pytest_artemis.contracts import CallStatus, ModelCallRecord, ModelTimeouts, Role, Usage

log = logging.getLogger(__name__)


@dataclass
class CallFacts:
    """What one ``complete()`` call observed, before the log gives it a run id and a sequence number:
    ``ModelCallRecord``'s fields, mutable while the call (retries, re-asks) is under way.

    Only enums, counts and usage: never prompt text, images, model output or keys.
    """

    role: Role
    model: str
    status: CallStatus = "ok"
    finish_reason: str | None = None
    stream: bool = False
    stream_complete: bool | None = None
    arguments_complete: bool | None = None
    http_status: int | None = None
    retries: int = 0
    reasks: int = 0
    latency_ms: float = 0.0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float | None = None
    scripted: bool = False


class CallLog:
    """Assigns ``seq`` (1, 2, …) to the calls of one run and forwards each record to ``sink``.

    Thread-safe: the operator and concurrent checkers may log at once. An exception from ``sink`` (for
    example a journal that cannot be written) propagates out of the model call, so a reply whose
    diagnostics were not recorded is never handed on to be executed.
    """

    def __init__(self, run_id: str, sink: Callable[[ModelCallRecord], None] | None = None):
        self.run_id = run_id
        self._sink = sink
        self._lock = threading.Lock()
        self._records: list[ModelCallRecord] = []

    def log(self, facts: CallFacts) -> ModelCallRecord:
        """Number ``facts``, keep the record and hand it to the sink."""
        with self._lock:
            # Field for field: the contract forbids extra keys, so facts and record cannot drift apart.
            fields = asdict(facts) | {"latency_ms": round(facts.latency_ms, 3)}
            record = ModelCallRecord(run_id=self.run_id, seq=len(self._records) + 1, **fields)
            self._records.append(record)
            if self._sink is not None:
                self._sink(record)
        log.debug("model call %s#%d: %s %s %s in %.0f ms, %d+%d tokens", record.run_id, record.seq,
                  record.role, record.model, record.status, record.latency_ms, record.prompt_tokens,
                  record.completion_tokens)
        return record

    @property
    def records(self) -> tuple[ModelCallRecord, ...]:
        """Every record logged so far, in sequence order."""
        with self._lock:
            return tuple(self._records)

    @property
    def usage(self) -> Usage:
        """Tokens and cost per role over the logged calls (unknown cost stays unknown)."""
        usage = Usage()
        for record in self.records:
            usage = usage.add(record)
        return usage


_run_deadline: ContextVar[float | None] = ContextVar("artemis_run_deadline", default=None)


@contextmanager
def call_deadline(epoch: float | None) -> Iterator[None]:
    """Within this block no model call runs past ``epoch`` (``time.time()`` seconds; None: no bound).

    The plugin sets it to the run's time budget, so a call in flight ends when the budget does.
    """
    token = _run_deadline.set(epoch)
    try:
        yield
    finally:
        _run_deadline.reset(token)


def seconds_left() -> float | None:
    """Seconds until the enclosing ``call_deadline`` (None outside one)."""
    deadline = _run_deadline.get()
    return None if deadline is None else deadline - time.time()


_run_timeouts: ContextVar[ModelTimeouts | None] = ContextVar("artemis_run_timeouts", default=None)


@contextmanager
def call_timeouts(timeouts: ModelTimeouts | None) -> Iterator[None]:
    """Within this block a model that was given no timeouts of its own uses ``timeouts`` (the run's
    settings: ``--artemis-model-timeout`` and the rest)."""
    token = _run_timeouts.set(timeouts)
    try:
        yield
    finally:
        _run_timeouts.reset(token)


def run_timeouts() -> ModelTimeouts | None:
    """The timeouts of the enclosing ``call_timeouts`` (None outside one)."""
    return _run_timeouts.get()
