"""The one-line summary the session index lists per test (the outcome word itself is a contract)."""

from __future__ import annotations

from pydantic import Field

from pytest_artemis.contracts import RunOutcome, outcome_word
from pytest_artemis.contracts._base import Contract


class IndexEntry(Contract):
    """One test's line in the session ``index.html``."""

    nodeid: str
    outcome: str
    """The pytest word (usually an :data:`OutcomeWord`; other words are shown uncoloured)."""
    device: str = ""
    steps: int = Field(default=0, ge=0)
    tokens: int = Field(default=0, ge=0)
    cost_usd: float | None = None
    """None when any call's price was unknown: shown as "unknown", never as 0."""
    run_dir: str
    """The run's artifacts directory, relative to the index's root (POSIX separators)."""

    @classmethod
    def from_outcome(
        cls, nodeid: str, run_dir: str, outcome: RunOutcome | None, *, word: str | None = None
    ) -> IndexEntry:
        """An entry filled from a run's outcome (or an interrupted run's lack of one)."""
        if outcome is None:
            return cls(nodeid=nodeid, outcome=word or "INTERRUPTED", run_dir=run_dir)
        return cls(
            nodeid=nodeid,
            outcome=word or outcome_word(outcome),
            device=outcome.device,
            steps=outcome.steps,
            tokens=outcome.usage.tokens,
            cost_usd=outcome.usage.cost_usd,
            run_dir=run_dir,
        )
