"""Runs that ended badly (Ctrl-C, ``kill -9``, a dead xdist worker): found in the artifacts directory by
a later look, given an INTERRUPTED report page and a row in the session index.

A run holds a file lock on ``<run>/.running.lock`` while it runs; the kernel frees it when the process
dies. A journal without a terminal record (or closed as interrupted) whose lock is free and that has no
report page yet is an interrupted run nobody reported.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pytest_artemis.store import RunRecord

RUNNING_LOCK = ".running.lock"


@contextmanager
def running(run_dir: Path) -> Iterator[None]:
    """Hold the run's lock while its body runs (released by the kernel if the process dies)."""
    from filelock import FileLock

    lock = FileLock(str(run_dir / RUNNING_LOCK), is_singleton=False)
    lock.acquire()
    try:
        yield
    finally:
        lock.release()


def alive(run_dir: Path) -> bool:
    """Whether a live process still holds the run's lock."""
    from filelock import FileLock, Timeout

    lock = FileLock(str(run_dir / RUNNING_LOCK), is_singleton=False)
    try:
        lock.acquire(timeout=0)
    except Timeout:
        return True
    lock.release()
    return False


def unreported_interrupted(root: Path) -> list[RunRecord]:
    """Every interrupted run under ``root`` that no live process owns and no page reports yet."""
    from pytest_artemis.report import REPORT_FILE
    from pytest_artemis.store import JournalCorrupt, list_runs, read_run

    found = []
    for run_dir in list_runs(root):
        if (run_dir / REPORT_FILE).exists() or alive(run_dir):
            continue
        try:
            record = read_run(run_dir)
        except JournalCorrupt:
            continue  # the report package renders an unreadable journal when a test names it
        if record.execution == "interrupted":
            found.append(record)
    return found
