"""Simulated phones for a benchmark: in this process, or (default) in a child process like a real phone."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from pytest_artemis.sim import SimServer


@dataclass(frozen=True)
class SimAddress:
    """Where the simulated phones answer (the subset of SimServer the benchmarks use)."""

    host: str
    port: int
    serials: list[str]
    pid: int = 0
    """The phones' process (0: not known)."""


@contextmanager
def sim_server(devices: int = 1, *, in_process: bool = False) -> Iterator[SimAddress | SimServer]:
    """Serve ``devices`` simulated phones until the block ends."""
    if in_process:
        with SimServer(devices=devices, seed=0) as server:
            yield server
        return
    proc = subprocess.Popen([sys.executable, "-m", "pytest_artemis.sim", "--devices", str(devices),
                             "--port", "0"], stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "ADBUTILS_ADB_PATH": "/bin/true"})
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        found = re.search(r"on ([\d.]+):(\d+)", first)
        if not found:
            raise RuntimeError(f"the sim did not start: {first!r}")
        serials = [proc.stdout.readline().split("\t")[0] for _ in range(devices)]
        yield SimAddress(found.group(1), int(found.group(2)), serials, proc.pid)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
