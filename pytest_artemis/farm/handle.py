"""The device a session's tests hold: one handle for the whole session, whichever device is leased now.

The ``artemis_device`` fixture is session-scoped; when a dead device is quarantined and another one is
leased in its place, the handle's calls go to the new one from the next test on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Literal

from pytest_artemis.device.base import Device

if TYPE_CHECKING:
    from pytest_artemis.contracts import ProbeResult, ProbeSpec
    from pytest_artemis.device.base import Capture, DeviceInfo, Hierarchy
    from pytest_artemis.device.probe_table import ProbeTable


class LeasedDevice(Device):
    """A ``Device`` that forwards every call to the device ``current()`` returns.

    It subclasses the protocol so that a member the protocol gains and this class does not forward is a
    type error (``__getattr__`` would otherwise satisfy it as ``object``).
    """

    def __init__(self, current: Callable[[], Device]) -> None:
        self._current = current

    def __repr__(self) -> str:
        return f"LeasedDevice({self.name!r})"

    def __getattr__(self, attribute: str) -> object:
        """The leased device's own extras beyond the protocol (``AdbDevice.check`` …)."""
        if attribute.startswith("_"):
            raise AttributeError(attribute)
        return getattr(self._current(), attribute)

    @property
    def serial(self) -> str:
        return self._current().serial

    @property
    def name(self) -> str:
        return self._current().name

    @property
    def probe_table(self) -> ProbeTable:
        return self._current().probe_table

    def screenshot(self) -> Capture:
        return self._current().screenshot()

    def hierarchy(self) -> Hierarchy:
        return self._current().hierarchy()

    def tap(self, x: int, y: int) -> None:
        self._current().tap(x, y)

    def long_press(self, x: int, y: int, duration_ms: int = 800) -> None:
        self._current().long_press(x, y, duration_ms)

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> None:
        self._current().swipe(x1, y1, x2, y2, duration_ms)

    def type_text(self, text: str) -> None:
        self._current().type_text(text)

    def clear_text(self, chars: int) -> None:
        self._current().clear_text(chars)

    def key(self, name: str) -> None:
        self._current().key(name)

    def launch(self, package: str, activity: str | None = None) -> None:
        self._current().launch(package, activity)

    def stop(self, package: str) -> None:
        self._current().stop(package)

    def reset(self, scope: Literal["app", "full"], package: str | None = None) -> None:
        self._current().reset(scope, package)

    def current_app(self) -> str:
        return self._current().current_app()

    def check(self, argv: Sequence[str], *, timeout: float | None = None) -> str:
        return self._current().check(argv, timeout=timeout)

    def push(self, data: bytes, remote: str) -> None:
        self._current().push(data, remote)

    def probe(self, kind: str, **params: str) -> ProbeResult:
        return self._current().probe(kind, **params)

    def probe_spec(self, spec: ProbeSpec) -> ProbeResult:
        return self._current().probe_spec(spec)

    def info(self) -> DeviceInfo:
        return self._current().info()
