"""The pytest outcome word of a run, and the one-line summary the session index lists per test."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from pytest_artemis.contracts import RunOutcome
from pytest_artemis.contracts._base import Contract

OutcomeWord = Literal["PASSED", "FAILED", "BLOCKED", "ERROR", "UNCHECKED", "INTERRUPTED"]
OUTCOME_WORDS: tuple[OutcomeWord, ...] = ("PASSED", "FAILED", "BLOCKED", "ERROR", "UNCHECKED", "INTERRUPTED")


def outcome_word(outcome: RunOutcome | None) -> OutcomeWord:
    """The pytest word for a run, derived from its outcome (DESIGN.md §1, outcome mapping).

    ``None`` means the journal has no terminal record: the run was interrupted, never passed.
    A failed assertion wins over everything else; then infrastructure, blocked, unchecked.
    """
    if outcome is None or outcome.execution == "interrupted":
        return "INTERRUPTED"
    tally = outcome.tests
    if tally.items:
        assert_failed = any(i.kind == "assert" and i.status == "failed" for i in tally.items)
    else:
        # Counts without per-item detail: a failure we cannot attribute still fails the test.
        assert_failed = tally.failed > 0
    if assert_failed:
        return "FAILED"
    if outcome.infra is not None or outcome.execution == "crashed":
        return "ERROR"
    # "partial" is not "completed": only a completed task can pass (DESIGN.md §1, first row).
    if outcome.task.status != "completed" or tally.with_status("failed"):
        return "BLOCKED"
    if tally.inconclusive or tally.unchecked:
        return "UNCHECKED"
    return "PASSED"


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
