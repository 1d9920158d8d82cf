"""RunObserver: callbacks the plugin uses for hooks and live progress; the engine never needs them."""

from __future__ import annotations

from typing import Protocol

from pytest_artemis.contracts import CheckVerdict, RunOutcome, StepRecord
from pytest_artemis.store.journal import RunHeader


class RunObserver(Protocol):
    """Receives run events as they happen. Exceptions raised here propagate (a plugin bug is loud)."""

    def on_start(self, header: RunHeader) -> None: ...

    def on_step(self, step: StepRecord) -> None: ...

    def on_verdict(self, verdict: CheckVerdict) -> None: ...

    def on_finish(self, outcome: RunOutcome) -> None: ...


class NullObserver:
    """An observer that ignores everything; subclass it and override only what you need."""

    def on_start(self, header: RunHeader) -> None:
        """Called once, before the planner turn, with the journal's run header."""

    def on_step(self, step: StepRecord) -> None:
        """Called after each step is recorded."""

    def on_verdict(self, verdict: CheckVerdict) -> None:
        """Called after each verdict is appended to the ledger."""

    def on_finish(self, outcome: RunOutcome) -> None:
        """Called once the outcome is written."""
