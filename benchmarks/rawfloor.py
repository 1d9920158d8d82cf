"""The raw-protocol floor: a run's device calls replayed as bare ADB services over plain sockets.

Each call a ``TimedDevice`` logged becomes the least a client must ask the device for the same answer:
one connection, ``host:transport:SERIAL``, one ``exec:`` service, read to the end, nothing parsed or
verified (``screencap``: a raw frame, ``uiautomator dump /dev/tty``, the ``input`` command, ...).
Replayed on a second phone of the same seed, in the same order, it walks the same screens, so the device
does the same work (renders, dumps) as in the run; what is left between the two is the client's own cost.
"""

from __future__ import annotations

import shlex
import socket
import time
from collections.abc import Sequence

from pytest_artemis.device import KEYCODES
from pytest_artemis.device.adb import input_text_arg
from pytest_artemis.device.probe_table import builtin_probes

_PROBES = builtin_probes()


def raw_exec(host: str, port: int, serial: str, command: str) -> bytes:
    """One ``exec:`` service on its own connection; everything it prints."""
    with socket.create_connection((host, port)) as sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        for request in (f"host:transport:{serial}", f"exec:{command}"):
            sock.sendall(f"{len(request):04x}{request}".encode())
            status = sock.recv(4, socket.MSG_WAITALL)
            if status != b"OKAY":
                raise RuntimeError(f"{request}: {status!r}")
        chunks = []
        while chunk := sock.recv(1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)


def _q(*argv: object) -> str:
    return " ".join(shlex.quote(str(a)) for a in argv)


def floor_command(name: str, args: Sequence[object]) -> str | None:
    """The bare command line for one logged Device call (None for calls that ask the device nothing)."""
    if name == "screenshot":
        return "screencap"  # a raw frame, as this harness asks a phone that serves readable ones
    if name == "hierarchy":
        return "uiautomator dump /dev/tty"
    if name == "tap":
        return _q("input", "tap", *args)
    if name == "long_press":
        x, y, *rest = args
        return _q("input", "swipe", x, y, x, y, *(rest or [800]))
    if name == "swipe":
        return _q("input", "swipe", *args)
    if name == "key":
        return _q("input", "keyevent", KEYCODES[str(args[0]).upper()])
    if name == "type_text":
        return _q("input", "text", input_text_arg(str(args[0])))
    if name == "launch":
        package, activity = (list(args) + [None])[:2]
        if activity:
            return _q("am", "start", "-W", "-n", f"{package}/{activity}")
        return _q("monkey", "-p", package, "-c", "android.intent.category.LAUNCHER", "1")
    if name == "current_app":
        return "dumpsys activity activities"
    if name == "probe_spec":  # the baseline's probes and the checks': the table's own argv
        return _q(*_PROBES.argv(args[0]))  # type: ignore[arg-type]
    if name in ("serial", "probes"):
        return None
    raise ValueError(f"no raw floor for Device.{name}; add it to floor_command")


def replay(host: str, port: int, serial: str, log: Sequence[tuple[str, tuple[object, ...]]]) -> float:
    """Seconds the bare services for ``log`` take on ``serial``, back to back."""
    commands = [c for c in (floor_command(name, args) for name, args in log) if c is not None]
    started = time.perf_counter()
    for command in commands:
        raw_exec(host, port, serial, command)
    return time.perf_counter() - started
