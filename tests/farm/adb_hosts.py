"""A device host: ``python -m pytest_artemis.sim`` in its own process on its own loopback address."""

from __future__ import annotations

import os
import signal
import subprocess
import sys


class AdbHost:
    """Simulated phones behind an adb server process on ``address`` (a free port)."""

    def __init__(self, address: str, devices: int = 1) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "pytest_artemis.sim", "--host", address, "--port", "0",
             "--devices", str(devices)], stdout=subprocess.PIPE, text=True)
        assert self.process.stdout is not None
        first = self.process.stdout.readline()  # "pytest-artemis sim: ADB server on HOST:PORT"
        self.server = first.rsplit(" ", 1)[-1].strip()
        self.serials = [self.process.stdout.readline().split("\t")[0] for _ in range(devices)]

    def device(self, serial: str = "emulator-5554") -> str:
        """``HOST:PORT/SERIAL``, the entry and the device's name."""
        return f"{self.server}/{serial}"

    def stop(self) -> None:
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGCONT)  # a hung (stopped) host must hear SIGTERM
            self.process.terminate()
        self.process.wait(timeout=30)
