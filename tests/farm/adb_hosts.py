"""A device host: ``python -m pytest_artemis.sim`` in its own process on its own loopback address."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


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
        if self.process.poll() is not None:
            return
        if _stopped(self.process.pid):
            # A hung (SIGSTOPped) host is killed outright: a SIGTERM sent right after SIGCONT can land in
            # a thread other than the one waiting for it, and the host would never end.
            self.process.kill()
        else:
            self.process.terminate()
        self.process.wait(timeout=30)


def _stopped(pid: int) -> bool:
    """Whether the process is stopped (state ``T`` in ``/proc/PID/stat``)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] == "T"
