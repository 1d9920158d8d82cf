"""The line the session index lists per test (the outcome word itself is a contract)."""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import Field

from pytest_artemis.contracts import RunOutcome, Usage, outcome_word
from pytest_artemis.contracts._base import Contract
from pytest_artemis.store import RunRecord

from .reasons import reason


def _rel(run_dir: Path, root: Path) -> str:
    """The run directory relative to the index's root (POSIX), or absolute when it lies outside (an
    absolute ``run_dir`` is listed without a link)."""
    try:
        return run_dir.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(run_dir.resolve())


class IndexEntry(Contract):
    """One test's line in the session ``index.html``."""

    nodeid: str
    outcome: str
    """The pytest word (usually an :data:`OutcomeWord`; other words are shown uncoloured)."""
    reason: str = ""
    """The first line of why the test got its word."""
    device: str = ""
    steps: int = Field(default=0, ge=0)
    tokens: int = Field(default=0, ge=0)
    cost_usd: float | None = None
    """None when any call's price was unknown: shown as "unknown", never as 0."""
    duration_s: float | None = Field(default=None, ge=0)
    """Wall time of the run (to its last record when it was interrupted); None when unknown."""
    run_dir: str
    """The run's artifacts directory relative to the index's directory (POSIX separators, ``..`` allowed);
    an absolute path when the row gets no link (the page was not kept, or the run is elsewhere)."""
    session: str = ""
    """The session that ran it (its directory under ``sessions/``); empty for a run no session listed."""

    def rebased(self, base: Path, out: Path) -> IndexEntry:
        """This entry with ``run_dir`` (relative to ``base``) made relative to ``out``, where its index is."""
        if Path(self.run_dir).is_absolute():
            return self
        where = os.path.relpath((base / self.run_dir).resolve(), out.resolve())
        return self.model_copy(update={"run_dir": Path(where).as_posix()})

    @classmethod
    def from_outcome(
        cls, nodeid: str, run_dir: str, outcome: RunOutcome | None, *, word: str | None = None
    ) -> IndexEntry:
        """An entry filled from a run's outcome alone (or an unreadable run's lack of one)."""
        if outcome is None:
            return cls(
                nodeid=nodeid,
                outcome=word or "INTERRUPTED",
                reason="no readable run journal",
                run_dir=run_dir,
            )
        return cls(
            nodeid=nodeid,
            outcome=word or outcome_word(outcome),
            reason=outcome.stop_reason,
            device=outcome.device,
            steps=outcome.steps,
            tokens=outcome.usage.tokens,
            cost_usd=outcome.usage.cost_usd,
            duration_s=max(outcome.finished_at - outcome.started_at, 0.0),
            run_dir=run_dir,
        )

    @classmethod
    def from_record(
        cls, record: RunRecord, root: Path, *, nodeid: str | None = None, word: str | None = None
    ) -> IndexEntry:
        """An entry from a run's journal: its word (``word`` when the plugin decided one), the reason's
        first line, and the numbers; an interrupted run is listed with what it recorded."""
        nodeid = nodeid or record.header.test_id or record.header.run_id
        rel = _rel(record.dir, root)
        word = word or (
            outcome_word(record.outcome)
            if record.outcome is not None or record.execution == "interrupted"
            else "ERROR"
        )
        headline = reason(record, word).headline
        if record.outcome is not None:
            entry = cls.from_outcome(nodeid, rel, record.outcome, word=word)
            return entry.model_copy(update={"reason": headline})
        last = record.steps[-1].finished_at if record.steps else record.header.started_at
        usage = Usage()
        for call in record.model_calls:  # no outcome to read the usage from: fold the call log
            usage = usage.add(call)
        return cls(
            nodeid=nodeid,
            outcome=word,
            reason=headline,
            device=record.header.device,
            steps=len(record.steps),
            tokens=usage.tokens,
            cost_usd=usage.cost_usd,
            duration_s=max(last - record.header.started_at, 0.0),
            run_dir=rel,
        )
