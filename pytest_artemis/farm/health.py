"""Is a device usable: its adb server answers within a few seconds and the device runs a command."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor

CHECK_TIMEOUT_S = 3.0
"""A device that takes longer than this to answer ``echo`` is not usable (a hung server costs this once)."""


def device_problem(host: str, port: int, serial: str, timeout: float = CHECK_TIMEOUT_S) -> str | None:
    """Why ``serial`` on the server ``host:port`` cannot be used, or None when it runs a command.

    Plain sockets with a deadline on every read: a server that accepts connections and never answers
    (a stopped process still completes TCP handshakes) must cost ``timeout``, not hang the session.
    """
    deadline = time.monotonic() + timeout
    try:
        with _connect(host, port, deadline) as sock:
            refused = _ask(sock, f"host:transport:{serial}", deadline)
            if refused is not None:
                if "not found" in refused:
                    return _not_attached(host, port, serial, deadline)
                return f"the device is not usable ({refused})"
            refused = _ask(sock, "shell:echo artemis-ok", deadline)
            if refused is not None:
                return f"the device refused a command ({refused})"
            out = _read_to_end(sock, deadline)
    except TimeoutError:
        return f"the adb server gave no answer within {timeout:g}s"
    except OSError as exc:
        return (f"cannot reach the adb server at {host}:{port} ({exc.strerror or exc}): start it with "
                "`adb start-server`, or fix the server in --artemis-device / --artemis-adb-server")
    if b"artemis-ok" not in out:
        return f"the device did not run a command (answered {out[:60]!r})"
    return None


def _connect(host: str, port: int, deadline: float) -> socket.socket:
    sock = socket.create_connection((host, port), timeout=_left(deadline))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def _left(deadline: float) -> float:
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError
    return left


def _recv(sock: socket.socket, size: int, deadline: float) -> bytes:
    data = b""
    while len(data) < size:
        sock.settimeout(_left(deadline))
        chunk = sock.recv(size - len(data))
        if not chunk:
            raise ConnectionResetError("the adb server closed the connection")
        data += chunk
    return data


def _ask(sock: socket.socket, request: str, deadline: float) -> str | None:
    """Send one smart-socket request; None on OKAY, else the server's FAIL text."""
    sock.sendall(f"{len(request):04x}{request}".encode())
    if _recv(sock, 4, deadline) == b"OKAY":
        return None
    size = int(_recv(sock, 4, deadline), 16)
    return _recv(sock, size, deadline).decode("utf-8", "replace")


def _read_to_end(sock: socket.socket, deadline: float) -> bytes:
    data = b""
    while True:
        sock.settimeout(_left(deadline))
        chunk = sock.recv(4096)
        if not chunk:
            return data
        data += chunk


def _not_attached(host: str, port: int, serial: str, deadline: float) -> str:
    try:
        with _connect(host, port, deadline) as sock:
            _ask(sock, "host:devices", deadline)
            listing = _recv(sock, int(_recv(sock, 4, deadline), 16), deadline).decode("utf-8", "replace")
        rows = (line.partition("\t") for line in listing.splitlines())
        attached = ", ".join(f"{s} ({state})" for s, _, state in rows) or "none"
    except OSError:
        attached = "unknown"
    return (f"{serial} is not attached to the adb server at {host}:{port} (attached: {attached}); check "
            "`adb devices` and the serial")


def problems(
    devices: Iterable[tuple[str, str, int, str]], timeout: float = CHECK_TIMEOUT_S
) -> dict[str, str]:
    """``name → reason`` for every ``(name, host, port, serial)`` that is not usable, checked side by side
    (a hung server costs ``timeout`` once, not once per device)."""
    listed = list(devices)
    if not listed:
        return {}
    with ThreadPoolExecutor(max_workers=min(8, len(listed)), thread_name_prefix="artemis-health") as pool:
        found = pool.map(lambda d: (d[0], device_problem(d[1], d[2], d[3], timeout)), listed)
        return {name: reason for name, reason in found if reason is not None}


