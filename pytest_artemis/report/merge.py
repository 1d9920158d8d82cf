"""One index over several sessions' artifacts: ``python -m pytest_artemis.report merge OUT DIR…``.

Each DIR is an artifacts directory (every session recorded in it), one session's directory
(``<artifacts>/sessions/<session>``), or any directory holding such (CI artifacts downloaded side by side).
Runs under a DIR that no session lists (their session was killed before its end) are listed too, as
their journals read: nothing found is left out silently.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .sessions import SESSION_FILE, SESSIONS_DIR, FoundSession, read_session, render_sessions
from .words import IndexEntry


@dataclass(frozen=True)
class Merged:
    """What ``merge`` wrote: the index, the sessions and the tests it lists, and what it could not read."""

    index: Path
    sessions: int
    tests: int
    unlisted: int
    """Runs no session listed (listed from their journals)."""
    problems: tuple[str, ...]


def sessions_in(path: Path) -> tuple[list[FoundSession], list[str]]:
    """The sessions ``path`` holds (it may be one session's own directory), and why a record could not be
    read."""
    own = path / SESSION_FILE
    records = [own] if own.is_file() else sorted(path.rglob(f"{SESSIONS_DIR}/*/{SESSION_FILE}"))
    found, problems = [], []
    for record in records:
        try:
            found.append(read_session(record, record.parent.parent.parent))
        except ValueError as exc:
            problems.append(str(exc))
    return found, problems


def unlisted_runs(path: Path, listed: set[Path], out: Path) -> tuple[list[IndexEntry], list[str]]:
    """Rows (relative to ``out``) for the runs under ``path`` whose directory is not in ``listed``, read
    from their journals; a run whose page is not there gets no link."""
    from pytest_artemis.store import JournalCorrupt, list_runs, read_run

    rows, problems = [], []
    for run_dir in list_runs(path):
        if run_dir.resolve() in listed:
            continue
        try:
            record = read_run(run_dir)
        except JournalCorrupt as exc:
            problems.append(f"{run_dir}: unreadable run journal ({exc})")
            continue
        entry = IndexEntry.from_record(record, path).rebased(path, out)
        if not (run_dir / "report.html").is_file():
            entry = entry.model_copy(update={"run_dir": str(run_dir.resolve())})
        rows.append(entry)
    return rows, problems


def merge(out: Path, dirs: Sequence[Path]) -> Merged:
    """Write ``out/index.html`` over every session and run in ``dirs`` (sessions by start, then the runs
    no session listed); a ``ValueError`` names a DIR that is not a directory or holds neither."""
    per_dir: list[list[FoundSession]] = []
    problems: list[str] = []
    for path in dirs:
        if not path.is_dir():
            raise ValueError(f"{path}: not a directory")
        found, unread = sessions_in(path)
        per_dir.append(found)
        problems += unread
    sessions = {s.dir.resolve(): s for found in reversed(per_dir) for s in found}
    listed = {(s.root / e.run_dir).resolve() for s in sessions.values() for e in s.record.entries}
    unlisted: list[IndexEntry] = []
    for path, found in zip(dirs, per_dir, strict=True):
        rows, unread = unlisted_runs(path, listed, out)
        problems += unread
        if not rows and not found:
            raise ValueError(f"{path}: no pytest-artemis session or run in it (expected an artifacts "
                             "directory such as .artemis, or one of its sessions/<session> directories)")
        unlisted += rows
        listed |= {(out / e.run_dir).resolve() for e in rows}
    ordered = sorted(sessions.values(), key=lambda s: s.record.started_at)
    out.mkdir(parents=True, exist_ok=True)
    index = render_sessions(out, ordered, unlisted)
    tests = len({(s.root / e.run_dir).resolve() for s in ordered for e in s.record.entries}) + len(unlisted)
    return Merged(index, len(ordered), tests, len(unlisted), tuple(problems))
