"""pytest-xdist glue (registered only when xdist is loaded): the controller's pool, crash relabelling, a
worker's failed session-start check as the session's usage error."""

from __future__ import annotations

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

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        """A worker's session-start check failed (``preflight``): the session is a usage error."""
        from .preflight import USAGE_ERROR_ATTR

        if getattr(report, USAGE_ERROR_ATTR, False):
            self._usage_error = True

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        """Exit code 4, as the same mistake gives without xdist."""
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
