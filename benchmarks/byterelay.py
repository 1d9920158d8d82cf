"""A loopback TCP relay in front of an adb server that counts what crosses it: connections and bytes.

Every adb device call is one connection (``host:transport:SERIAL``, then one service), so the relay sees
each call a harness makes and its bytes, whatever the harness's version. The service each connection asked
for is kept (its command word: ``screencap``, ``uiautomator``, ``input``, …) to break the counts down.
"""

from __future__ import annotations

import contextlib
import re
import socket
import threading
from collections import Counter
from dataclasses import dataclass, field

_SERVICE = re.compile(rb"[0-9a-f]{4}(?:exec|shell|shell,v2[^:]*):([^\x00]{1,200})|[0-9a-f]{4}(sync):")
_WORDS = ("screencap -p", "screencap", "uiautomator", "input", "monkey", "am start", "dumpsys", "settings",
          "content", "getprop", "wm", "pm", "simctl")
"""Command words a service is known by, most specific first."""


def service_kind(request: bytes) -> str | None:
    """The kind of device service the client's first bytes ask for (None: not asked yet)."""
    found = _SERVICE.search(request)
    if found is None:
        return None
    if found.group(2):
        return "sync"
    text = found.group(1).decode(errors="replace")
    return next((w for w in _WORDS if w in text), text.split()[0] if text.split() else "shell")


@dataclass
class Counts:
    """Calls and bytes by service kind (``screencap``, ``screencap -p``, ``uiautomator``, …)."""

    calls: Counter[str] = field(default_factory=Counter)
    down: Counter[str] = field(default_factory=Counter)
    """Bytes from the device to the harness."""
    up: Counter[str] = field(default_factory=Counter)


class ByteRelay:
    """Listens on 127.0.0.1 (``port``) and forwards every connection to ``target``."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self._sock = socket.create_server(("127.0.0.1", 0))
        self.port = self._sock.getsockname()[1]
        self._lock = threading.Lock()
        self.counts = Counts()
        threading.Thread(target=self._accept, daemon=True).start()

    def reset(self) -> Counts:
        """The counts so far; counting starts again from zero."""
        with self._lock:
            counts, self.counts = self.counts, Counts()
        return counts

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._sock.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _serve(self, client: socket.socket) -> None:
        with client, socket.create_connection(self.target) as server:
            for sock in (client, server):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            seen = bytearray()
            kind: list[str] = ["host"]
            totals = {"up": 0, "down": 0}

            def pump(src: socket.socket, dst: socket.socket, way: str) -> None:
                while chunk := src.recv(1 << 20):
                    if way == "up" and len(seen) < 512:
                        seen.extend(chunk)
                        kind[0] = service_kind(bytes(seen)) or kind[0]
                    totals[way] += len(chunk)
                    dst.sendall(chunk)
                dst.shutdown(socket.SHUT_WR)

            def guarded(src: socket.socket, dst: socket.socket, way: str) -> None:
                with contextlib.suppress(OSError):
                    pump(src, dst, way)

            back = threading.Thread(target=guarded, args=(server, client, "down"))
            back.start()
            guarded(client, server, "up")
            back.join()
        with self._lock:
            self.counts.calls[kind[0]] += 1
            self.counts.down[kind[0]] += totals["down"]
            self.counts.up[kind[0]] += totals["up"]

    def close(self) -> None:
        self._sock.close()
