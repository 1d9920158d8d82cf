"""RunObserver: callbacks the plugin uses for hooks and live progress; the engine never needs them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar

from pytest_artemis.contracts import CheckVerdict, RunOutcome, StepRecord
from pytest_artemis.store.journal import RunHeader

T = TypeVar("T")


class RunObserver(Protocol):
    """Receives run events as they happen. Exceptions raised here propagate (a plugin bug is loud)."""

    def on_start(self, header: RunHeader) -> None: ...

    def on_step(self, step: StepRecord) -> None: ...

    def on_verdict(self, verdict: CheckVerdict) -> None: ...

    def on_checking(self, note: str) -> None: ...

    def on_finish(self, outcome: RunOutcome) -> None: ...


class NullObserver:
    """An observer that ignores everything; subclass it and override only what you need."""

    def on_start(self, header: RunHeader) -> None:
        """Called once, before the planner turn, with the journal's run header."""

    def on_step(self, step: StepRecord) -> None:
        """Called after each step is recorded."""

    def on_verdict(self, verdict: CheckVerdict) -> None:
        """Called after each verdict is appended to the ledger."""

    def on_checking(self, note: str) -> None:
        """Called before the run waits on its checker (settlement's barrier, the final check)."""

    def on_finish(self, outcome: RunOutcome) -> None:
        """Called once the outcome is written."""


class ObserverFailed(Exception):
    """An observer callback raised. ``run_task`` closes the run as crashed (the traceback journaled) and
    raises this, so the callback's own exception (``error``, also the ``__cause__``) reaches the caller."""

    def __init__(self, error: Exception, outcome: RunOutcome | None = None) -> None:
        super().__init__(f"{type(error).__name__}: {error}")
        self.error = error
        self.outcome = outcome


class GuardedObserver:
    """Wraps an observer so that its exceptions are told apart from the engine's own (``ObserverFailed``)."""

    def __init__(self, inner: RunObserver) -> None:
        self._inner = inner

    def on_start(self, header: RunHeader) -> None:
        self._call(self._inner.on_start, header)

    def on_step(self, step: StepRecord) -> None:
        self._call(self._inner.on_step, step)

    def on_verdict(self, verdict: CheckVerdict) -> None:
        self._call(self._inner.on_verdict, verdict)

    def on_checking(self, note: str) -> None:
        self._call(self._inner.on_checking, note)

    def on_finish(self, outcome: RunOutcome) -> None:
        """The last call: the journal is closed, so the observer's exception propagates as it is."""
        self._inner.on_finish(outcome)

    @staticmethod
    def _call(callback: Callable[[T], None], arg: T) -> None:
        try:
            callback(arg)
        except Exception as exc:
            raise ObserverFailed(exc) from exc
