"""The default lease backend: one file lock per device, keyed by the resolved server address and serial."""

from __future__ import annotations

import tempfile
from collections.abc import Sequence, Set
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .address import server_key
from .backend import DeviceLease, LeaseError, Survey
from .health import problems

if TYPE_CHECKING:
    from filelock import BaseFileLock

LOCK_ROOT = Path(tempfile.gettempdir()) / "pytest-artemis-leases"


@dataclass(frozen=True)
class AdbSlot:
    """A device of the pool: its serial on the server at ``address:port`` (resolved)."""

    address: str
    port: int
    serial: str

    @classmethod
    def on(cls, host: str, port: int, serial: str) -> AdbSlot:
        key = server_key(host, port)
        return cls(key.rpartition(":")[0].strip("[]"), port, serial)

    @property
    def server(self) -> str:
        return f"[{self.address}]:{self.port}" if ":" in self.address else f"{self.address}:{self.port}"

    @property
    def name(self) -> str:
        """``ADDRESS:PORT/SERIAL``: the device's name in reports, messages and lock files."""
        return f"{self.server}/{self.serial}"


class FileLockBackend:
    """Leases devices of a fixed pool with ``filelock`` (the kernel frees a dead process's locks).

    The locks are files on this machine: processes on one machine never share a device; runners on
    several machines need a backend they all reach (STF, or your own: ``pytest_artemis_lease_backend``).
    """

    renew_interval: float | None = None

    def __init__(self, slots: Sequence[AdbSlot], root: Path = LOCK_ROOT, name: str = "filelock") -> None:
        self.name = name
        """``filelock``, or ``sim`` for the simulated phones a session starts (on every lease it gives)."""
        self.slots = tuple(slots)
        self.root = root
        self._held: dict[str, BaseFileLock] = {}

    def lock_path(self, slot: AdbSlot) -> Path:
        return self.root / slot.server.replace(":", "_").strip("[]") / f"{slot.serial}.lock"

    def describe(self) -> str:
        return "the pool " + ", ".join(s.name for s in self.slots)

    def survey(self) -> Survey:
        bad = problems((s.name, s.address, s.port, s.serial) for s in self.slots)
        return Survey(tuple(s.name for s in self.slots if s.name not in bad), bad)

    def try_acquire(self, holder: str, exclude: Set[str]) -> DeviceLease | None:
        from filelock import FileLock, Timeout

        for slot in self.slots:
            if slot.name in exclude or slot.name in self._held:
                continue
            path = self.lock_path(slot)
            path.parent.mkdir(parents=True, exist_ok=True)
            lock = FileLock(str(path), is_singleton=False)
            try:
                lock.acquire(timeout=0)
            except Timeout:
                continue
            self._held[slot.name] = lock
            return DeviceLease(slot.name, slot.address, slot.port, slot.serial, holder, self.name)
        return None

    def renew(self, lease: DeviceLease) -> None:
        if lease.name not in self._held:
            raise LeaseError(f"the lease of {lease.name} is not held by this process")

    def release(self, lease: DeviceLease) -> None:
        lock = self._held.pop(lease.name, None)
        if lock is not None:
            lock.release()
