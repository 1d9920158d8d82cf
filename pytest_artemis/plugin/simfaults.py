"""``artemis_sim_faults``: inject faults into the leased simulated phone, through adb like any client."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .state import farm_of


class SimFaults:
    """Faults of the simulated phone this test leased, sent as ``simctl fault …`` over its adb server.

    Works wherever the phone runs (this process, the xdist controller); every fault is cleared when the
    test ends. Arm faults before the run: request this fixture before ``artemis`` in the test's
    arguments, or from a fixture of your own that ``artemis`` runs after.
    """

    def __init__(self, host: str, port: int, serial: str) -> None:
        import adbutils

        self._device = adbutils.AdbClient(host=host, port=port).device(serial)
        self.serial = serial

    def _fault(self, *args: str) -> None:
        out = self._device.shell(["simctl", "fault", *args])
        if not str(out).startswith("ok"):
            raise RuntimeError(f"simctl fault {' '.join(args)} failed on {self.serial}: {out}")

    def hide_toasts(self, hidden: bool = True) -> None:
        """Apps show no toast (an app that never confirms an action)."""
        self._fault("hide-toasts", "on" if hidden else "off")

    def crash_dialog(self, package: str = "com.google.android.deskclock", after_inputs: int = 0) -> None:
        """Crash ``package`` now, or after ``after_inputs`` input commands ("keeps stopping" dialog)."""
        self._fault("crash", package, str(after_inputs))

    def fail_screencap(self, times: int | None = 1) -> None:
        """The next ``times`` screenshots fail (None: forever)."""
        self._fault("screencap-fail", "forever" if times is None else str(times))

    def fail_uiautomator(self, times: int | None = 1) -> None:
        """The next ``times`` hierarchy dumps fail (None: forever)."""
        self._fault("uiautomator-fail", "forever" if times is None else str(times))

    def ignore_taps(self, text: str) -> None:
        """Taps on views with this text are swallowed."""
        self._fault("ignore-taps", f"text={text}")

    def clear(self) -> None:
        """Remove every fault."""
        self._fault("clear")


@pytest.fixture
def artemis_sim_faults(request: pytest.FixtureRequest) -> Iterator[SimFaults]:
    """Fault injection on the leased simulated phone (``--artemis-device=sim``); cleared after the test."""
    farm = farm_of(request.config)
    farm.start()
    held = farm.lease
    if held is None or not farm.simulated:
        pytest.fail("artemis_sim_faults needs the simulated phone (--artemis-device=sim)", pytrace=False)
    faults = SimFaults(held.host, held.port, held.serial)
    yield faults
    faults.clear()
