"""The device farm of a process: its lease backend, the lease its tests use, quarantined devices.

Without xdist the process leases for itself after collection, before its first test (never inside a
test, where pytest-timeout could cut the wait). Under xdist the controller leases one device per worker
before starting it and hands it over in ``workerinput`` (``xdist.py``): workers on other machines never
take the same device, and the controller releases a dead worker's lease.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from typing import TYPE_CHECKING

import pytest

from pytest_artemis.contracts import UsageError
from pytest_artemis.farm.backend import DeviceLease, LeaseError, acquire

from .options import options_key

if TYPE_CHECKING:
    from pytest_artemis.device.adb import AdbDevice
    from pytest_artemis.device.base import Device
    from pytest_artemis.device.probe_table import ProbeTable
    from pytest_artemis.farm.backend import LeaseBackend
    from pytest_artemis.farm.renew import Renewer

WORKERINPUT_LEASE = "artemis_lease"
"""``workerinput`` key: the lease the controller took for the worker (``DeviceLease.to_plain()``)."""
WORKERINPUT_NO_LEASE = "artemis_no_lease"
"""``workerinput`` key: why the controller has no device for the worker."""

__all__ = ["DeviceFarm", "LeaseError", "holder_key", "worker_id"]


class DeviceFarm:
    """Per-process device state; nothing is started or leased until a session needs a device."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.options = config.stash[options_key]
        self.workerinput = getattr(config, "workerinput", None)
        self.worker_id = worker_id(config)
        self.simulated = False
        self.quarantined: dict[str, str] = {}
        """Device name → why it is not used (found at start, or dead mid-session)."""
        self.lease: DeviceLease | None = None
        self.error: str | None = None
        self._backend: LeaseBackend | None = None
        self._renewer: Renewer | None = None
        self._sim: contextlib.ExitStack | None = None
        self._devices: dict[str, AdbDevice] = {}
        self._taken: dict[str, DeviceLease] = {}
        """Every lease this process took and still holds (the controller's: one per worker)."""
        self._probes: ProbeTable | None = None

    # -- the backend: the single process's, or the xdist controller's for all its workers --------

    def backend(self) -> LeaseBackend:
        """A plugin's backend (``pytest_artemis_lease_backend``), else the one ``--artemis-device`` names."""
        if self._backend is None:
            plugged = self.config.hook.pytest_artemis_lease_backend(config=self.config)
            self._backend = plugged if plugged is not None else self._builtin()
        return self._backend

    def _builtin(self) -> LeaseBackend:
        from pytest_artemis.farm.filelock import AdbSlot, FileLockBackend
        from pytest_artemis.farm.spec import SimSpec, StfSpec, parse_device_spec

        spec = parse_device_spec(self.options.device, self.options.adb_server)
        if isinstance(spec, SimSpec):
            return self._start_sim(spec.count)
        if isinstance(spec, StfSpec):
            return stf_backend(spec, self.options.stf_url, self.options.adb_server)
        slots: dict[str, AdbSlot] = {}
        for entry in spec.entries:
            slot = AdbSlot.on(entry.host, entry.port, entry.serial)
            if slot.name in slots:
                raise UsageError(f"--artemis-device={self.options.device}: two entries are one device, "
                                 f"{slot.name} (the server's address resolved): list it once")
            slots[slot.name] = slot
        return FileLockBackend(list(slots.values()))

    def _start_sim(self, count: int) -> LeaseBackend:
        from pytest_artemis.farm.filelock import AdbSlot, FileLockBackend
        from pytest_artemis.sim import SimServer

        stack = contextlib.ExitStack()
        try:
            server = stack.enter_context(SimServer(devices=count, seed=self.options.sim_seed))
        except OSError as exc:
            raise LeaseError(f"the simulated phone could not start: {exc}") from exc
        self._sim, self.simulated = stack, True
        return FileLockBackend([AdbSlot(server.host, server.port, s) for s in server.serials], name="sim")

    def survey(self, workers: int) -> None:
        """Check every device on its own; quarantine (and name) the unusable ones; a usage error only when
        fewer usable devices remain than ``workers``."""
        from pytest_artemis.farm.spec import StfSpec

        backend = self.backend()
        if self.simulated:  # phones this session starts: all usable, but there may be too few
            count = len(getattr(backend, "slots", ()))
            if count < workers:
                raise UsageError(
                    f"-n {workers} starts {workers} xdist workers but --artemis-device={self.options.device} "
                    f"gives {count} device{'s' if count != 1 else ''}: each worker leases one device for the "
                    f"whole session; give a device per worker (e.g. --artemis-device=sim:{workers}) or start "
                    f"fewer workers (-n {count})")
            return
        spec = getattr(backend, "spec", None)
        if isinstance(spec, StfSpec) and spec.count < workers:
            raise UsageError(f"--artemis-device={self.options.device} books at most {spec.count} device(s) "
                             f"for {workers} workers: give stf:{workers} or fewer workers (-n)")
        found = backend.survey()
        for name, reason in found.unusable.items():
            self.quarantined[name] = reason
            say(self.config, f"artemis: {name} quarantined: {reason}")
        usable = [name for name in found.usable if name not in self.quarantined]
        if len(usable) < workers:
            named = "; ".join(f"{n}: {r}" for n, r in self.quarantined.items()) or "none"
            raise UsageError(f"{len(usable)} usable device(s) in {backend.describe()} for {workers} "
                             f"worker(s) (quarantined: {named}); fix or unplug them, or run fewer workers "
                             "(-n)")

    def take(self, holder: str, *, wait: float | None = None) -> DeviceLease:
        """A lease for ``holder`` (waiting up to ``--artemis-lease-timeout`` while none is free), checked
        on its own first: a device that does not answer is quarantined and the next one tried."""
        from pytest_artemis.farm.health import device_problem

        backend = self.backend()
        while True:
            timeout = self.options.lease_timeout if wait is None else wait
            lease = acquire(backend, holder, wait=timeout, exclude=frozenset(self.quarantined))
            problem = None if self.simulated else device_problem(lease.host, lease.port, lease.serial)
            if problem is None:
                self._hold(lease)
                self._taken[lease.name] = lease
                return lease
            self.quarantine(lease, problem)

    def _hold(self, lease: DeviceLease) -> None:
        backend = self.backend()
        if backend.renew_interval:
            if self._renewer is None:
                from pytest_artemis.farm.renew import Renewer

                self._renewer = Renewer(backend, backend.renew_interval)
            self._renewer.hold(lease)

    def give_back(self, lease: DeviceLease) -> None:
        """Release ``lease`` (this process's, or a worker's under xdist)."""
        if self._renewer is not None:
            self._renewer.forget(lease)
        self._taken.pop(lease.name, None)
        self.backend().release(lease)

    def quarantine(self, lease: DeviceLease, reason: str) -> None:
        """Never lease this device again in this session, and give it back."""
        self.quarantined[lease.name] = reason
        say(self.config, f"artemis: {lease.name} quarantined: {reason}")
        self.give_back(lease)

    # -- this process's device ---------------------------------------------------------------

    def start(self) -> None:
        """Take this process's lease (a worker reads the one the controller took for it); a usage error when
        too few devices are usable, and the reason kept in ``error`` when none can be leased."""
        if self.lease is not None or self.error is not None:
            return
        if self.workerinput is not None:
            handed = self.workerinput.get(WORKERINPUT_LEASE)
            if isinstance(handed, dict):
                self.lease = DeviceLease.from_plain(handed)
                self.simulated = self.lease.backend == "sim"
            else:
                why = self.workerinput.get(WORKERINPUT_NO_LEASE)
                self.error = str(why or "the controller leased no device")
            return
        self.survey(1)
        try:
            self.lease = self.take(holder_key(None))
        except LeaseError as exc:
            self.error = str(exc)

    def device(self, probes: ProbeTable | None = None) -> Device:
        """The session's device handle (``LeaseError`` when this process has no device)."""
        from pytest_artemis.farm.handle import LeasedDevice

        self.start()
        if self.lease is None:
            raise LeaseError(self.error or "no device is leased")
        self._probes = probes
        return LeasedDevice(self.current)

    def current(self) -> AdbDevice:
        """The device of the current lease (``LeaseError`` once it is quarantined with no replacement)."""
        from pytest_artemis.device import AdbDevice

        lease = self.lease
        if lease is None:
            raise LeaseError(self.error or "no device is leased")
        if lease.name not in self._devices:
            self._devices[lease.name] = AdbDevice(lease.serial, host=lease.host, port=lease.port,
                                                  timeout_s=self.options.device_timeout, probes=self._probes,
                                                  name=lease.name)
        return self._devices[lease.name]

    def lost(self) -> str | None:
        """Why this process's lease could not be renewed (an expired STF booking), if it was lost."""
        if self._renewer is None or self.lease is None:
            return None
        return self._renewer.lost.get(self.lease.name)

    def after_device_error(self, problem: str | None = None) -> str | None:
        """After a test ended with a device error (or its lease was lost: ``problem``): when the device is
        dead, quarantine it and take another free one (not under xdist, where the controller holds the
        leases); why this process has no device left, or None."""
        from pytest_artemis.farm.health import device_problem

        lease = self.lease
        if lease is None or self.simulated:
            return None
        problem = problem or device_problem(lease.host, lease.port, lease.serial)
        if problem is None:
            return None
        self.lease = None
        self.error = f"{lease.name} quarantined: {problem}"
        self.quarantined[lease.name] = problem
        if self.workerinput is not None:
            return self.error
        self.quarantine(lease, problem)
        try:
            self.lease = self.take(holder_key(None), wait=0)
        except LeaseError:
            return f"{self.error}; no other usable device is free"
        say(self.config, f"artemis: going on with {self.lease.name}")
        self.error = None
        return None

    def close(self) -> None:
        """Release this process's lease (a worker's is the controller's) and stop what it started."""
        if self._renewer is not None:
            self._renewer.stop()
        for lease in list(self._taken.values()):
            self.give_back(lease)
        self.lease = None
        if self._sim is not None:
            self._sim.close()
            self._sim = None
            from pytest_artemis.farm.filelock import FileLockBackend

            backend = self._backend
            if isinstance(backend, FileLockBackend) and backend.slots:  # its port named the locks: gone now
                shutil.rmtree(backend.lock_path(backend.slots[0]).parent, ignore_errors=True)


def stf_backend(spec: object, url: str | None, adb_server: str) -> LeaseBackend:
    """The built-in STF backend; usage errors name what is missing (the URL, the token)."""
    from pytest_artemis.farm.address import parse_server
    from pytest_artemis.farm.stf import StfBackend, StfClient

    if not url:
        raise UsageError("--artemis-device=stf:N needs --artemis-stf-url URL (or ARTEMIS_STF_URL)")
    token = os.environ.get("ARTEMIS_STF_TOKEN", "").strip()
    if not token:
        raise UsageError("--artemis-device=stf:N needs the STF access token in ARTEMIS_STF_TOKEN "
                         "(STF: Settings → Keys → Access tokens)")
    host, port = parse_server(adb_server)
    return StfBackend(spec, StfClient(url, token), host, port)  # type: ignore[arg-type]


def say(config: pytest.Config, line: str) -> None:
    """One line on the terminal (nothing under xdist's workers, whose output nobody sees)."""
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None or getattr(config, "workerinput", None) is not None:
        return
    capture = config.pluginmanager.get_plugin("capturemanager")
    with capture.global_and_fixture_disabled() if capture is not None else contextlib.nullcontext():
        reporter.write_line(line)  # mid-test (a teardown), not into the test's captured output


def worker_id(config: pytest.Config) -> str:
    """The xdist worker id (``gw0``…), or ``main`` without xdist."""
    workerinput = getattr(config, "workerinput", None)
    if workerinput is not None:
        return str(workerinput.get("workerid", "gw?"))
    return "main"


def holder_key(node_workerinput: dict[str, object] | None) -> str:
    """Who holds a lease: the test run and the worker under xdist, the process otherwise."""
    if node_workerinput is not None and "testrunuid" in node_workerinput:
        return f"{node_workerinput['testrunuid']}-{node_workerinput.get('workerid', 'gw')}"
    return f"main-{os.getpid()}"
