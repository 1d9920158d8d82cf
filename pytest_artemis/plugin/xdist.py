"""pytest-xdist glue (registered only when xdist is loaded): the controller leases one device per worker
and releases it when the worker ends or dies, hands a dead-device worker's tests to the others, relabels
crashes, turns a worker's failed session-start check into the session's usage error, and lets a finished
worker exit."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from .options import options_key
from .quarantine import WORKEROUTPUT_DEAD, WORKEROUTPUT_STOPPED
from .state import farm_of

if TYPE_CHECKING:
    from xdist.workermanage import WorkerController

    from pytest_artemis.farm.backend import DeviceLease


class XdistHooks:
    """Controller-side hooks; an instance is registered as a plugin in ``pytest_configure``."""

    def __init__(self, config: pytest.Config) -> None:
        self._config = config
        self._farming = False
        self._leases: dict[str, DeviceLease] = {}
        """Worker id → the lease taken for it (kept after release, to name the device of a crash)."""
        self._released: set[str] = set()
        self._usage_error = False
        self._exit_lock = threading.Lock()
        self._tearing_down = False
        self._started = time.time()

    def _uses_devices(self) -> bool:
        return (self._config.stash[options_key].device is not None
                or bool(self._config.hook.pytest_artemis_lease_backend.get_hookimpls()))

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionstart(self, session: pytest.Session) -> None:
        """Before any worker starts: check every device on its own; fewer usable ones than workers is the
        session's usage error (one line, exit 4)."""
        from pytest_artemis.contracts import UsageError

        if not self._uses_devices():
            return  # no device configured: the tests report that themselves, with the option name
        processes = self._config.getoption("numprocesses", None)
        workers = (processes if isinstance(processes, int) else 0) \
            or len(self._config.getoption("tx", None) or ()) or 1
        try:
            farm_of(self._config).survey(workers)
        except UsageError as exc:
            raise pytest.UsageError(str(exc)) from None
        self._farming = True

    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node: WorkerController) -> None:
        """Lease a device for this worker before it starts (waiting up to --artemis-lease-timeout while
        none is free) and hand it over; a replacement for a crashed worker gets one the same way."""
        from pytest_artemis.farm.backend import LeaseError

        from .lease import WORKERINPUT_LEASE, WORKERINPUT_NO_LEASE, holder_key

        if not self._farming:
            return
        worker = str(node.workerinput.get("workerid", node.gateway.id))
        try:
            lease = farm_of(self._config).take(holder_key(node.workerinput))
        except LeaseError as exc:
            node.workerinput[WORKERINPUT_NO_LEASE] = str(exc)
            return
        self._leases[worker] = lease
        node.workerinput[WORKERINPUT_LEASE] = lease.to_plain()

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: WorkerController, error: object | None) -> None:
        """A worker ended: its lease goes back (quarantined when its device died). One that stopped taking
        tests for want of a device has its remaining tests handed to the other workers; a finished one
        exits as soon as its own session is over, not when the slowest worker is done.

        xdist ends every worker process at the session's end, so the finished ones all shut their
        interpreters down at once, after the last test: with 4 workers on 2 cores that took ≈ 0.7 s of
        the session's wall (docs/performance.md §2). The exit waits, in a thread, for the worker's session
        to end (its ``pytest_unconfigure`` too); the controller's loop is never held up, as another worker
        waits on it for the word to start its last test. A worker that failed is left to xdist, and so is
        every worker once the session's end has begun.
        """
        if not self._farming:
            return
        output = (getattr(node, "workeroutput", None) or {}) if error is None else {}
        stopped, dead = output.get(WORKEROUTPUT_STOPPED), output.get(WORKEROUTPUT_DEAD)
        self._give_back(str(node.workerinput.get("workerid", node.gateway.id)), dead)
        if stopped:
            self._hand_over(node, str(stopped))
        if error is None:
            threading.Thread(target=self._exit_when_done, args=(node,), daemon=True,
                             name=f"artemis-exit-{node.gateway.id}").start()

    def _give_back(self, worker: str, dead: list[str] | None) -> None:
        lease = self._leases.get(worker)
        if lease is None or worker in self._released:
            return
        self._released.add(worker)
        farm = farm_of(self._config)
        if dead and dead[0] == lease.name:
            farm.quarantine(lease, dead[1])
        else:
            farm.give_back(lease)

    def _hand_over(self, node: WorkerController, reason: str) -> None:
        """The worker ran out of devices: its pending tests go back to the queue for the other workers, and
        its stop does not stop the session, unless no other worker is left (then the session stops with
        the reason, as without xdist)."""
        from xdist.scheduler import LoadScheduling

        from .lease import say

        dsession = self._config.pluginmanager.getplugin("dsession")
        sched = getattr(dsession, "sched", None)
        if not isinstance(sched, LoadScheduling):
            return  # --dist loadscope/loadfile/each/worksteal keep tests to their worker
        if not [n for n in sched.nodes if n is not node and not n.shutting_down]:
            return  # every other worker is done (xdist told it to stop): nobody is left to take them
        # Back to the front of the queue before the node is removed: removing it with the queue empty would
        # tell an idle worker to shut down before it could take them.
        unrun = sched.node2pending.get(node, [])
        sched.pending[:0] = unrun
        sched.node2pending[node] = []
        sched.remove_node(node)
        node.workeroutput["shouldstop"] = False
        say(self._config, f"artemis: worker {node.gateway.id} stopped taking tests ({reason}); "
                          "its tests go to the other workers")

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
        from .runner import artifacts_dir_for

        node = getattr(report, "node", None)
        workerinput = getattr(node, "workerinput", None) or {}
        worker = str(workerinput.get("workerid", "?"))
        held = self._leases.get(worker)
        serial = held.name if held is not None else None
        device = f" on device {serial}" if serial else ""
        report.longrepr = (
            f"ERROR: infrastructure failure (harness) WorkerCrashed{device}: xdist worker {worker!r} died "
            f"while running {crashitem}; its run journal has no terminal record and reads back as "
            "interrupted"
        )
        run_dir = _latest_run(artifacts_dir_for(self._config.stash[options_key], crashitem), self._started)
        report.user_properties = [
            ("artemis.outcome", "ERROR"),
            ("artemis.execution", "interrupted"),
            ("artemis.device", serial or ""),
            ("artemis.artifacts", str(run_dir)),
            ("artemis.infra", "harness/WorkerCrashed"),
        ]


def _latest_run(test_dir: Path, since: float) -> Path:
    """The run journal the dead worker left: the test's newest run begun in this session (since ``since``)
    that ended without a terminal record and that no live process holds (a session sharing the artifacts
    directory may be running the same test); else the test's directory."""
    from pytest_artemis.store import JournalCorrupt, read_run

    from .interrupted import alive

    journals = [p for p in test_dir.glob("*/run.jsonl") if p.stat().st_mtime >= since]
    for journal in sorted(journals, key=lambda p: p.stat().st_mtime, reverse=True):
        try:
            ended = read_run(journal.parent).terminal is not None
        except JournalCorrupt:
            ended = False  # torn where it died: the dead worker's, as far as anyone can tell
        if not ended and not alive(journal.parent):
            return journal.parent
    return test_dir
