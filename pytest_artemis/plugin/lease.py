"""The device pool: ``--artemis-device`` parsing, simulated phones, and one file-locked lease per process."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from pytest_artemis.contracts import InfrastructureError, UsageError

from .options import ArtemisOptions

if TYPE_CHECKING:
    from filelock import BaseFileLock

    from pytest_artemis.device.base import Device
    from pytest_artemis.device.probe_table import ProbeTable

_SIM = re.compile(r"sim(?::(\d+))?")
_SERIAL = re.compile(r"[A-Za-z0-9._:-]{1,128}")
WORKERINPUT_POOL = "artemis_pool"
"""``workerinput`` key under which the xdist controller hands its pool (plain strings) to workers."""


class LeaseError(InfrastructureError):
    """No device could be leased (pool exhausted, nothing configured, simulated phone would not start)."""

    infra_kind = "device"


@dataclass(frozen=True)
class Pool:
    """Devices reachable through one adb server; leases are file locks keyed by server and serial."""

    host: str
    port: int
    serials: tuple[str, ...]
    simulated: bool = False

    @property
    def lock_dir(self) -> Path:
        return Path(tempfile.gettempdir()) / "pytest-artemis-leases" / f"{self.host}_{self.port}"

    def to_workerinput(self) -> dict[str, str]:
        """Plain strings only: workerinput crosses the execnet channel."""
        return {"host": self.host, "port": str(self.port), "serials": ",".join(self.serials),
                "simulated": "1" if self.simulated else ""}

    @classmethod
    def from_workerinput(cls, data: Mapping[str, str]) -> Pool:
        serials = tuple(data["serials"].split(","))
        return cls(data["host"], int(data["port"]), serials, bool(data["simulated"]))


def parse_device_option(value: str | None) -> tuple[int, tuple[str, ...]]:
    """``(sim_count, serials)``: ``sim`` → (1, ()), ``sim:3`` → (3, ()), ``a,b`` → (0, ("a", "b"))."""
    if value is None or not value.strip():
        raise UsageError("no device configured: pass --artemis-device=SERIAL[,SERIAL…] | sim | sim:N "
                         "(or ARTEMIS_DEVICE, or ini artemis_device)")
    text = value.strip()
    sim = _SIM.fullmatch(text)
    if sim:
        count = int(sim.group(1) or 1)
        if not 1 <= count <= 16:
            raise UsageError(f"--artemis-device={text}: N must be between 1 and 16")
        return count, ()
    serials = tuple(s.strip() for s in text.split(",") if s.strip())
    bad = [s for s in serials if not _SERIAL.fullmatch(s)]
    if bad or not serials:
        raise UsageError(f"--artemis-device={text}: not a serial list, 'sim' or 'sim:N' (bad: {bad})")
    return 0, serials


def parse_adb_server(value: str) -> tuple[str, int]:
    host, _, port = value.rpartition(":")
    if not host or not port.isdigit():
        raise UsageError(f"--artemis-adb-server={value}: expected HOST:PORT")
    return host, int(port)


@dataclass
class Lease:
    """One leased serial; the lock is held until release (or until the process dies)."""

    pool: Pool
    serial: str
    holder: str
    lock: BaseFileLock

    def release(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            holder_path(self.pool, self.holder).unlink()
        self.lock.release()


def holder_path(pool: Pool, holder: str) -> Path:
    """A note of which serial a worker holds, so the controller can name it when the worker crashes."""
    return pool.lock_dir / f"{holder}.holder"


def holder_of(pool: Pool, holder: str) -> str | None:
    """The serial the lease holder ``holder`` (see :func:`holder_key`) took from ``pool``, if known."""
    try:
        return holder_path(pool, holder).read_text(encoding="utf-8").strip() or None
    except FileNotFoundError:
        return None


def lease(pool: Pool, worker_id: str, holder: str) -> Lease:
    """Lock the first free serial of the pool (never by worker index: a replacement worker gets a new id)."""
    from filelock import FileLock, Timeout

    pool.lock_dir.mkdir(parents=True, exist_ok=True)
    for serial in pool.serials:
        lock = FileLock(str(pool.lock_dir / f"{serial}.lock"), is_singleton=False)
        try:
            lock.acquire(timeout=0)
        except Timeout:
            continue
        holder_path(pool, holder).write_text(serial, encoding="utf-8")
        return Lease(pool, serial, holder, lock)
    raise LeaseError(
        f"worker {worker_id!r}: no free device in the pool {', '.join(pool.serials)} at "
        f"{pool.host}:{pool.port} (every one is leased by another process; give at least as many "
        "devices as xdist workers, e.g. --artemis-device=sim:N with -n N)"
    )


class DeviceFarm:
    """Per-process device state: a simulated server started here (if any), this process's lease."""

    def __init__(
        self, options: ArtemisOptions, workerinput: Mapping[str, object] | None, worker_id: str
    ) -> None:
        self.options = options
        self.worker_id = worker_id
        self.holder = holder_key(workerinput)
        self._workerinput = workerinput
        self._sim: contextlib.ExitStack | None = None
        self._pool: Pool | None = None
        self._lease: Lease | None = None

    def pool(self) -> Pool:
        """The pool this process leases from: the controller's (under xdist), a local sim, or serials."""
        if self._pool is None:
            handed = (self._workerinput or {}).get(WORKERINPUT_POOL)
            self._pool = Pool.from_workerinput(handed) if isinstance(handed, dict) else self._own_pool()
        return self._pool

    def _own_pool(self) -> Pool:
        sim_count, serials = parse_device_option(self.options.device)
        if sim_count:
            return self._start_sim(sim_count)
        host, port = parse_adb_server(self.options.adb_server)
        return Pool(host, port, serials)

    def _start_sim(self, count: int) -> Pool:
        from pytest_artemis.sim import SimServer

        stack = contextlib.ExitStack()
        try:
            server = stack.enter_context(SimServer(devices=count, seed=self.options.sim_seed))
        except OSError as exc:
            raise LeaseError(f"the simulated phone could not start: {exc}") from exc
        self._sim = stack
        return Pool(server.host, server.port, tuple(server.serials), simulated=True)

    def lease(self) -> Lease:
        """This process's lease, taken on first use and kept for the whole session."""
        if self._lease is None:
            self._lease = lease(self.pool(), self.worker_id, self.holder)
        return self._lease

    def device(self, probes: ProbeTable | None = None) -> Device:
        """An AdbDevice on the leased serial, refusing probes outside ``probes``."""
        from pytest_artemis.device import AdbDevice

        held = self.lease()
        return AdbDevice(held.serial, host=held.pool.host, port=held.pool.port, probes=probes)

    def close(self) -> None:
        """Release the lease and stop a simulated server started by this process."""
        if self._lease is not None:
            self._lease.release()
            self._lease = None
        if self._sim is not None:
            self._sim.close()
            self._sim = None
            if self._pool is not None:
                # The server's port names the lock directory; nobody can lease from it any more.
                shutil.rmtree(self._pool.lock_dir, ignore_errors=True)


def worker_id(config: pytest.Config) -> str:
    """The xdist worker id (``gw0``…), or ``main`` without xdist."""
    workerinput = getattr(config, "workerinput", None)
    if workerinput is not None:
        return str(workerinput.get("workerid", "gw?"))
    return "main"


def holder_key(workerinput: Mapping[str, object] | None) -> str:
    """Unique per test run and worker, and computable by the controller from the worker's workerinput."""
    if workerinput is not None and "testrunuid" in workerinput:
        return f"{workerinput['testrunuid']}-{workerinput.get('workerid', 'gw')}"
    return f"main-{os.getpid()}"
