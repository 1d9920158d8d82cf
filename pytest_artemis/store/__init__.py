"""Run artifacts: the engine's journal (``journal``), its reader (``reader``), redaction (``redact``)."""

from .journal import ArtifactsWriteFailed, Event, JournalClosed, RunHeader, RunJournal, RunTerminal, safe_name
from .reader import JournalCorrupt, RunRecord, list_runs, read_run
from .redact import REDACTED, Redactor, looks_secret

__all__ = [
    "REDACTED",
    "ArtifactsWriteFailed",
    "Event",
    "JournalClosed",
    "JournalCorrupt",
    "Redactor",
    "RunHeader",
    "RunJournal",
    "RunRecord",
    "RunTerminal",
    "list_runs",
    "looks_secret",
    "read_run",
    "safe_name",
]
