"""Fixtures for the simulator tests: a fresh SimServer per test and real clients."""

from __future__ import annotations

import os
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import adbutils
import pytest

from pytest_artemis.sim import SimServer

_WHEEL_ADB = Path(adbutils.__file__).parent / "binaries" / "adb"


@pytest.fixture(autouse=True)
def _no_adb_daemon(monkeypatch):
    # adbutils must never spawn a real adb server; the CLI must never spawn or kill one.
    monkeypatch.setenv("ADBUTILS_ADB_PATH", "/bin/true")
    monkeypatch.delenv("ANDROID_SERIAL", raising=False)


@pytest.fixture
def server():
    # 127.0.0.2 so ADB_SERVER_SOCKET makes the adb CLI treat the server as remote.
    with SimServer(devices=2, seed=0, host="127.0.0.2", port=0) as srv:
        yield srv


@pytest.fixture
def client(server):
    return adbutils.AdbClient(host=server.host, port=server.port)


@pytest.fixture
def device(client):
    return client.device("emulator-5554")


def adb_binary() -> str | None:
    """The real adb CLI: Debian's first, else the one inside the adbutils wheel."""
    for cand in (shutil.which("adb"), "/usr/bin/adb", str(_WHEEL_ADB)):
        if cand and os.access(cand, os.X_OK):
            return cand
    return None


@pytest.fixture
def adb(server, tmp_path):
    """Run the real adb CLI against the simulator; returns CompletedProcess (bytes)."""
    binary = adb_binary()
    if binary is None:
        pytest.skip("no adb CLI: neither /usr/bin/adb nor the adbutils wheel binary exists")
    env = dict(os.environ, ADB_SERVER_SOCKET=f"tcp:{server.host}:{server.port}",
               HOME=str(tmp_path), ANDROID_SDK_HOME=str(tmp_path))

    def run(*args: str, check: bool = True) -> subprocess.CompletedProcess:
        proc = subprocess.run([binary, *args], env=env, capture_output=True,
                              stdin=subprocess.DEVNULL, timeout=20, cwd=tmp_path)
        if check:
            assert proc.returncode == 0, (args, proc.returncode, proc.stdout, proc.stderr)
        return proc

    return run


def find_node(xml: str, *, text=None, desc=None, rid=None) -> tuple[int, int]:
    """Centre of the first node matching text / content-desc / resource-id."""
    for node in ET.fromstring(xml).iter("node"):
        if ((text is not None and node.get("text") == text)
                or (desc is not None and node.get("content-desc") == desc)
                or (rid is not None and node.get("resource-id") == rid)):
            b = node.get("bounds").replace("][", ",").strip("[]").split(",")
            x1, y1, x2, y2 = map(int, b)
            return (x1 + x2) // 2, (y1 + y2) // 2
    raise AssertionError(f"no node text={text} desc={desc} rid={rid} in {xml[:300]}")


def tap(device, **match) -> None:
    """Tap the node found in a fresh uiautomator dump."""
    device.click(*find_node(device.dump_hierarchy(), **match))


@pytest.fixture
def ui():
    """Hierarchy helpers: ``ui.find(xml, text=...)`` -> centre, ``ui.tap(device, desc=...)``."""

    class _UI:
        find = staticmethod(find_node)
        tap = staticmethod(tap)

    return _UI
