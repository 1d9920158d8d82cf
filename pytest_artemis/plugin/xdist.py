"""pytest-xdist glue (registered only when xdist is loaded): the controller's pool, crash relabelling, a
worker's failed session-start check as the session's usage error, a finished worker's exit."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from .options import options_key
from .state import farm_of

if TYPE_CHECKING:
    from xdist.workermanage import WorkerController

    from .lease import Pool


class XdistHooks:
    """Controller-side hooks; an instance is registered as a plugin in ``pytest_configure``."""

    def __init__(self, config: pytest.Config) -> None:
        self._config = config
        self._pool: Pool | None = None
        self._usage_error = False
        self._exit_lock = threading.Lock()
        self._tearing_down = False

    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node: WorkerController) -> None:
        """Hand every worker the controller's pool: ONE simulated server for all workers (started on
        the first node), or the serial list."""
        from .lease import WORKERINPUT_POOL

        if self._config.stash[options_key].device is None and self._pool is None:
            return  # no device configured: the tests report that themselves, with the option name
        if self._pool is None:
            self._pool = farm_of(self._config).pool()
        node.workerinput[WORKERINPUT_POOL] = self._pool.to_workerinput()

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: WorkerController, error: object | None) -> None:
        """A device-farm worker that ran out of tests exits as soon as its own session is over, not when
        the slowest worker is done.

        xdist ends every worker process at the session's end, so the finished ones all shut their
        interpreters down at once, after the last test: with 4 workers on 2 cores that took ≈ 0.7 s of
        the session's wall (docs/performance.md §2). The exit waits, in a thread, for the worker's session
        to end (its ``pytest_unconfigure`` too, where a lease hook releases its device); the controller's
        loop is never held up, as another worker waits on it for the word to start its last test. A
        worker that failed is left to xdist, and so is every worker once the session's end has begun.
        """
        if error is not None or self._pool is None:
            return
        threading.Thread(target=self._exit_when_done, args=(node,), daemon=True,
                         name=f"artemis-exit-{node.gateway.id}").start()

    def _exit_when_done(self, node: WorkerController) -> None:
        try:
            node.channel.waitclose()
        except (node.channel.RemoteError, EOFError):
            return  # the worker's session ended in an error: xdist's teardown deals with it
        with self._exit_lock:
            if not self._tearing_down:
                node.gateway.exit()

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        """A worker's session-start check failed (``preflight``): the session is a usage error."""
        from .preflight import USAGE_ERROR_ATTR

        if getattr(report, USAGE_ERROR_ATTR, False):
            self._usage_error = True

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        """Exit code 4, as the same mistake gives without xdist. From here on only xdist's teardown (which
        runs after this) ends workers."""
        with self._exit_lock:
            self._tearing_down = True
        if self._usage_error:
            session.exitstatus = pytest.ExitCode.USAGE_ERROR

    @pytest.hookimpl(optionalhook=True)
    def pytest_handlecrashitem(self, crashitem: str, report: pytest.TestReport, sched: object) -> None:
        """A worker died while running ``crashitem``: an infrastructure ERROR naming the device."""
        from .lease import holder_key, holder_of
        from .runner import artifacts_dir_for

        node = getattr(report, "node", None)
        workerinput = getattr(node, "workerinput", None) or {}
        worker = workerinput.get("workerid", "?")
        serial = holder_of(self._pool, holder_key(workerinput)) if self._pool is not None else None
        device = f" on device {serial}" if serial else ""
        report.longrepr = (
            f"ERROR: infrastructure failure (harness) WorkerCrashed{device}: xdist worker {worker!r} died "
            f"while running {crashitem}; its run journal has no terminal record and reads back as "
            "interrupted"
        )
        run_dir = _latest_run(artifacts_dir_for(self._config.stash[options_key], crashitem))
        report.user_properties = [
            ("artemis.outcome", "ERROR"),
            ("artemis.execution", "interrupted"),
            ("artemis.device", serial or ""),
            ("artemis.artifacts", str(run_dir)),
            ("artemis.infra", "harness/WorkerCrashed"),
        ]


def _latest_run(test_dir: Path) -> Path:
    """The newest run journal of a test (the one its dead worker left), else the test's directory."""
    runs = sorted(test_dir.glob("*/run.jsonl"), key=lambda p: p.stat().st_mtime)
    return runs[-1].parent if runs else test_dir
