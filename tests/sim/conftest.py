"""Fixtures for the simulator tests: a fresh SimServer per test and real clients."""

from __future__ import annotations

import os
import re
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


_ATTRS = {"text": "text", "desc": "content-desc", "rid": "resource-id", "cls": "class", "package": "package",
          "checked": "checked", "enabled": "enabled", "clickable": "clickable"}


class AdbCli:
    """Debian's ``adb`` on one simulated phone: shell commands, ``uiautomator dump`` and taps on dumped
    nodes (matched by ``text``, ``desc``, ``rid``, ``cls``, ``package``, ``checked``, ``enabled``,
    ``clickable``)."""

    def __init__(self, run, serial: str = "emulator-5554"):
        self._run, self._serial = run, serial

    def shell(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        """``adb -s SERIAL shell ARGS`` (stdout and stderr kept apart, as shell v2 delivers them)."""
        return self._run("-s", self._serial, "shell", *args, check=check)

    def out(self, *args: str) -> str:
        """The stdout of a shell command that must succeed."""
        return self.shell(*args).stdout.decode()

    def dump(self) -> ET.Element:
        """The hierarchy, as ``adb exec-out uiautomator dump /dev/tty`` gives it."""
        xml = self._run("-s", self._serial, "exec-out", "uiautomator", "dump", "/dev/tty").stdout.decode()
        return ET.fromstring(xml[:xml.rindex("</hierarchy>") + len("</hierarchy>")])

    def nodes(self, **match: str) -> list[ET.Element]:
        """Every dumped node whose attributes match."""
        return [n for n in self.dump().iter("node") if all(n.get(_ATTRS[k]) == v for k, v in match.items())]

    def node(self, **match: str) -> ET.Element:
        """The first matching node (AssertionError naming the match when there is none)."""
        found = self.nodes(**match)
        assert found, f"no node {match} on screen"
        return found[0]

    def tap(self, **match: str) -> None:
        """``input tap`` at the centre of the first matching node."""
        x, y = self.center(self.node(**match))
        self.shell("input", "tap", str(x), str(y))

    @staticmethod
    def center(node: ET.Element) -> tuple[int, int]:
        """The centre of a dumped node's bounds."""
        x1, y1, x2, y2 = map(int, re.findall(r"\d+", node.get("bounds", "")))
        return (x1 + x2) // 2, (y1 + y2) // 2


@pytest.fixture
def cli(adb) -> AdbCli:
    """The real adb CLI on emulator-5554."""
    return AdbCli(adb)
