"""The lease backend protocol, the lease it hands out, ``LeaseError``, and the bounded wait for a device."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Set
from dataclasses import asdict, dataclass, field
from typing import Protocol, runtime_checkable

from pytest_artemis.contracts import InfrastructureError


class LeaseError(InfrastructureError):
    """No device could be leased, or a lease was lost: an infrastructure ERROR, never a test outcome."""

    infra_kind = "device"


@dataclass(frozen=True)
class DeviceLease:
    """One device held for one holder: its name in reports and where adb reaches it.

    Plain strings and an int only: a lease crosses from the xdist controller to its worker as it is.
    """

    name: str
    """``HOST:PORT/SERIAL`` (the server's resolved address), or ``stf://HOST/SERIAL`` for an STF booking."""
    host: str
    port: int
    serial: str
    """The serial on the adb server ``host:port`` (after ``adb connect``, the remote-connect address)."""
    holder: str
    backend: str
    details: Mapping[str, str] = field(default_factory=dict)
    """What the backend needs to renew and release the lease (never a secret)."""

    def to_plain(self) -> dict[str, object]:
        return asdict(self) | {"details": dict(self.details)}

    @classmethod
    def from_plain(cls, data: Mapping[str, object]) -> DeviceLease:
        details = data.get("details") or {}
        return cls(name=str(data["name"]), host=str(data["host"]), port=int(str(data["port"])),
                   serial=str(data["serial"]), holder=str(data["holder"]), backend=str(data["backend"]),
                   details={str(k): str(v) for k, v in dict(details).items()})  # type: ignore[call-overload]


@dataclass(frozen=True)
class Survey:
    """What a backend can offer at session start: usable device names and unusable ones with the reason."""

    usable: tuple[str, ...]
    unusable: Mapping[str, str] = field(default_factory=dict)


@runtime_checkable
class LeaseBackend(Protocol):
    """Where devices come from. The plugin calls it (never a test): under xdist from the controller, which
    leases one device per worker before the worker starts and releases it when the worker ends or dies.

    ``try_acquire`` must not block for long: the plugin repeats it until ``--artemis-lease-timeout``.
    ``release`` may be called with a lease this process did not take (a dead worker's) and more than once.
    """

    renew_interval: float | None
    """Seconds between ``renew`` calls while a lease is held; None when leases never expire."""

    def describe(self) -> str:
        """The pool in one phrase, for messages (``the pool 127.0.0.1:5037/emulator-5554, …``)."""
        ...

    def survey(self) -> Survey:
        """Check every device on its own (session start): which can be used, which not and why."""
        ...

    def try_acquire(self, holder: str, exclude: Set[str]) -> DeviceLease | None:
        """Lease one free device whose name is not in ``exclude`` (quarantined), or None when none is free."""
        ...

    def renew(self, lease: DeviceLease) -> None:
        """Keep ``lease`` alive; raise ``LeaseError`` when it was lost."""
        ...

    def release(self, lease: DeviceLease) -> None:
        """Give the device back (idempotent)."""
        ...


def acquire(
    backend: LeaseBackend, holder: str, *, wait: float, exclude: Set[str] = frozenset(),
    clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep,
) -> DeviceLease:
    """A lease from ``backend``, waiting at most ``wait`` seconds while every device is taken.

    Polls every 0.2 s at first, backing off to 2 s, and never sleeps past the deadline.
    """
    deadline = clock() + wait
    pause = 0.2
    while True:
        lease = backend.try_acquire(holder, exclude)
        if lease is not None:
            return lease
        left = deadline - clock()
        if left <= 0:
            raise LeaseError(f"{holder}: no free device in {backend.describe()} within {wait:g}s "
                             "(--artemis-lease-timeout); every usable one is leased by another process")
        sleep(min(pause, left))
        pause = min(pause * 2, 2.0)
