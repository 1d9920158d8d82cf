"""Screenshots written off the step's path: PNG encoding and the file write run on one background thread.

A step hands its screenshot over and goes on; until its file is written the screenshot is served from
memory (``png``), so nothing reading it waits for the disk. A failed write is raised by the journal's next
write (``raise_failure``) or, at the latest, by its close; a process killed before the writer finished
leaves steps referring to files that were never written, which ``read_run`` reports.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from pathlib import Path
from typing import Protocol


def _yield_to_the_run() -> None:
    """Lower the writer thread's scheduling priority (Linux: a thread is a task with its own nice value),
    so that on a busy machine the run's own threads get the cores first; elsewhere nothing changes."""
    with contextlib.suppress(AttributeError, OSError):
        thread = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, thread, max(10, os.getpriority(os.PRIO_PROCESS, thread)))


# One thread for every journal in the process: encodes are CPU work, and a second thread would only
# compete with the run for the same cores.
_EXECUTOR = ThreadPoolExecutor(max_workers=1, thread_name_prefix="artemis-screens",
                               initializer=_yield_to_the_run)


class Encodable(Protocol):
    """A screenshot whose PNG may still have to be encoded (``device.Capture``), and its name."""

    @property
    def sha256(self) -> str: ...

    @property
    def png(self) -> bytes: ...


class ScreenWriter:
    """Writes one journal's screenshots in the background, each at most once."""

    def __init__(self, write: Callable[[Path, bytes], None]) -> None:
        self._write = write
        self._lock = threading.Lock()
        self._pending: dict[Path, Encodable] = {}
        self._futures: set[Future[None]] = set()
        self._failure: BaseException | None = None

    def submit(self, path: Path, screen: Encodable) -> None:
        """Write ``screen``'s PNG to ``path`` in the background (nothing if it is already on its way)."""
        with self._lock:
            if path in self._pending:
                return
            self._pending[path] = screen
            future = _EXECUTOR.submit(self._run, path, screen)
            self._futures.add(future)
        future.add_done_callback(self._done)

    def _run(self, path: Path, screen: Encodable) -> None:
        try:
            self._write(path, screen.png)
        except BaseException as exc:
            with self._lock:
                self._failure = self._failure or exc
        finally:
            with self._lock:
                self._pending.pop(path, None)

    def _done(self, future: Future[None]) -> None:
        with self._lock:
            self._futures.discard(future)

    def png(self, path: Path) -> bytes | None:
        """The PNG of a screenshot still waiting to be written to ``path`` (None when there is none)."""
        with self._lock:
            screen = self._pending.get(path)
        return None if screen is None else screen.png

    def _take_failure(self) -> BaseException | None:
        with self._lock:
            failure, self._failure = self._failure, None
        return failure

    def raise_failure(self) -> None:
        """Raise the first write that failed since the last call (each failure is raised once)."""
        failure = self._take_failure()
        if failure is not None:
            raise failure

    def settle(self) -> BaseException | None:
        """Wait until every screenshot submitted so far is written; the failed write not raised yet, if any
        (it is not raised again)."""
        with self._lock:
            futures = set(self._futures)
        wait(futures)
        return self._take_failure()

    def flush(self) -> None:
        """Wait until every screenshot submitted so far is written, then raise a failed write."""
        failure = self.settle()
        if failure is not None:
            raise failure
