"""The sessions of one artifacts directory, so that several runners can share it without overwriting
each other: every session leaves a record and an index of its own, and the directory's ``index.html``
shows the latest sessions.

Runs stay where they always were, ``<artifacts>/<test>/<run-id>/``: run ids are unique, so two sessions
never write to one run directory. What a session adds::

    <artifacts>/sessions/<session>/session.json   who ran it, when, and its index rows
    <artifacts>/sessions/<session>/index.html     its own index
    <artifacts>/index.html                        the latest sessions (rebuilt, under a lock, by each
                                                  session at its end), and artemis-session.js beside it
"""

from __future__ import annotations

import os
import re
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from pytest_artemis.contracts._base import Contract

from .index_page import SessionLine, render_index
from .markup import fmt_duration, fmt_time, write_atomic
from .words import IndexEntry

SESSIONS_DIR = "sessions"
SESSION_FILE = "session.json"
INDEX_LOCK = ".index.lock"
LOCK_WAIT_S = 30.0
"""How long a session waits for another one to finish rebuilding the directory's index."""
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


class SessionRecord(Contract):
    """What a session leaves for the indexes over several sessions (``sessions/<session>/session.json``)."""

    session: str
    """Its directory name under ``sessions/``."""
    runner: str
    started_at: float
    finished_at: float
    entries: tuple[IndexEntry, ...]
    """Its index rows, ``run_dir`` relative to the artifacts directory."""


@dataclass(frozen=True)
class FoundSession:
    """A session record and the artifacts directory its rows' ``run_dir`` are relative to."""

    record: SessionRecord
    root: Path

    @property
    def dir(self) -> Path:
        return self.root / SESSIONS_DIR / self.record.session


def session_name(runner: str, started_at: float) -> str:
    """``YYYYmmdd-HHMMSS-<runner>-<6 hex>``: sorts by start, names the runner, and never collides."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(started_at))
    return f"{stamp}-{_UNSAFE.sub('_', runner).strip('._') or 'runner'}-{uuid.uuid4().hex[:6]}"


def read_session(path: Path, root: Path) -> FoundSession:
    """The session recorded in ``path`` (a ``session.json``); ``ValueError`` saying why it is unreadable."""
    try:
        record = SessionRecord.model_validate_json(path.read_bytes())
    except OSError as exc:
        raise ValueError(f"{path}: {exc.strerror or exc}") from None
    except ValidationError as exc:
        raise ValueError(f"{path}: not a session record ({exc.error_count()} errors)") from None
    return FoundSession(record, root)


def read_sessions(root: Path) -> tuple[list[FoundSession], list[str]]:
    """Every session recorded in the artifacts directory ``root``, by start; and why any other record there
    could not be read."""
    found, problems = [], []
    for path in sorted((root / SESSIONS_DIR).glob(f"*/{SESSION_FILE}")):
        try:
            found.append(read_session(path, root))
        except ValueError as exc:
            problems.append(str(exc))
    return sorted(found, key=lambda s: s.record.started_at), problems


def latest(sessions: Sequence[FoundSession]) -> list[FoundSession]:
    """For each runner, its last session and those that ran alongside it (ended after it began).

    A runner's next session replaces its earlier ones in the directory's index, as one session's index
    always replaced the one before; sessions that ran at the same time stay side by side.
    """
    last: dict[str, float] = {}
    for found in sessions:
        last[found.record.runner] = max(last.get(found.record.runner, 0.0), found.record.started_at)
    return [s for s in sessions if s.record.finished_at >= last[s.record.runner]]


def render_sessions(out: Path, sessions: Sequence[FoundSession], extra: Sequence[IndexEntry] = (), *,
                    session_js: bool = False) -> Path:
    """One index at ``out/index.html`` over ``sessions`` (links relative to ``out``), then ``extra`` rows
    (already relative to ``out``); a run listed twice is shown once."""
    entries, seen = [], set()
    for found in sessions:
        for entry in found.record.entries:
            moved = entry.rebased(found.root, out)
            where = (out / moved.run_dir).resolve()
            if where not in seen:
                seen.add(where)
                entries.append(moved)
    entries += [e for e in extra if (out / e.run_dir).resolve() not in seen]
    lines = [SessionLine(s.record.session, s.record.runner, s.record.started_at, s.record.finished_at,
                         _href(s.dir / "index.html", out)) for s in sessions]
    return render_index(out, entries, sessions=lines, heading=_heading(sessions), session_js=session_js)


def _heading(sessions: Sequence[FoundSession]) -> str:
    if len(sessions) != 1:
        return ""
    record = sessions[0].record
    return (f"session {record.session} · runner {record.runner} · started {fmt_time(record.started_at)} · "
            f"{fmt_duration(record.finished_at - record.started_at)}")


def _href(target: Path, out: Path) -> str | None:
    if not target.is_file():
        return None
    return Path(os.path.relpath(target.resolve(), out.resolve())).as_posix()


def record_session(root: Path, record: SessionRecord) -> Path:
    """Write the session's record and own index, then rebuild ``root/index.html`` over the latest sessions;
    returns that index.

    The rebuild holds a lock, so that sessions ending together never drop one another from it; a lock not
    had within :data:`LOCK_WAIT_S` (a stale one on a network share) is passed over, as every page is
    written whole by a rename anyway.
    """
    from filelock import FileLock, Timeout

    found = FoundSession(record, root)
    found.dir.mkdir(parents=True, exist_ok=True)
    write_atomic(found.dir / SESSION_FILE, record.model_dump_json(indent=1))
    render_sessions(found.dir, [found])
    lock = FileLock(str(root / INDEX_LOCK), is_singleton=False)
    try:
        lock.acquire(timeout=LOCK_WAIT_S)
    except Timeout:
        return _render_root(root)
    try:
        return _render_root(root)
    finally:
        lock.release()


def _render_root(root: Path) -> Path:
    sessions, _ = read_sessions(root)
    return render_sessions(root, latest(sessions), session_js=True)
