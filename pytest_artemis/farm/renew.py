"""Renewing held leases in the background, for backends whose leases expire (STF's idle timeout)."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from .backend import LeaseError

if TYPE_CHECKING:
    from .backend import DeviceLease, LeaseBackend


class Renewer:
    """One daemon thread renewing every held lease each ``backend.renew_interval`` seconds.

    A lease that cannot be renewed is recorded in ``lost`` (name → reason); the device's next failure
    then quarantines it like any dead device.
    """

    def __init__(self, backend: LeaseBackend, interval: float) -> None:
        self._backend = backend
        self._interval = interval
        self._leases: dict[str, DeviceLease] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self.lost: dict[str, str] = {}
        self._thread = threading.Thread(target=self._run, name="artemis-lease-renew", daemon=True)
        self._thread.start()

    def hold(self, lease: DeviceLease) -> None:
        with self._lock:
            self._leases[lease.name] = lease

    def forget(self, lease: DeviceLease) -> None:
        with self._lock:
            self._leases.pop(lease.name, None)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stop.wait(self._interval):
            with self._lock:
                held = list(self._leases.values())
            for lease in held:
                try:
                    self._backend.renew(lease)
                except LeaseError as exc:
                    self.lost[lease.name] = str(exc)
