"""Fixtures: a real simulated phone behind a loopback ADB server, driven through adbutils."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable, Iterator

import pytest

from pytest_artemis.device import AdbDevice


@pytest.fixture
def server() -> Iterator[object]:
    """A fresh two-phone SimServer per test (tests change phone state)."""
    sim = pytest.importorskip("pytest_artemis.sim")
    with sim.SimServer(devices=2, seed=0) as running:
        yield running


@pytest.fixture
def device(server) -> AdbDevice:
    """The first simulated phone as an AdbDevice with a short timeout."""
    return AdbDevice(server.serials[0], host=server.host, port=server.port, timeout_s=5.0)


@pytest.fixture
def phone(server, device):
    """The SimPhone behind ``device`` (state views and fault injection)."""
    return server.phone(device.serial)


@pytest.fixture
def adb_cli(server, tmp_path) -> Callable[..., subprocess.CompletedProcess[bytes]]:
    """The Debian ``adb`` client pointed at the simulator as a remote server (never spawns one)."""
    binary = shutil.which("adb")
    if binary is None:
        pytest.skip("no adb CLI on PATH (apt-get install adb)")
    env = dict(os.environ, ADB_SERVER_SOCKET=f"tcp:{server.host}:{server.port}", HOME=str(tmp_path))

    def run(*args: str) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run([binary, "-s", server.serials[0], *args], env=env, capture_output=True,
                              stdin=subprocess.DEVNULL, timeout=20, check=False)

    return run
