"""``adb connect HOST:PORT`` on the simulated server: a phone reached over the network, relayed.

What ``HOST:PORT`` must be here is another simulated server with exactly one phone, standing for a
phone's network adb endpoint (what an STF provider hands out from ``remoteConnect``). Once connected, the
phone is listed under the serial ``HOST:PORT`` and every transport to it is relayed byte for byte to that
endpoint, so a dead endpoint shows as a dead phone, as it would on a real adb server.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from dataclasses import dataclass

from .protocol import block, recv_exact, send_fail

_TIMEOUT = 5.0


@dataclass(frozen=True)
class RemotePhone:
    """A connected endpoint: its address and the serial of the one phone behind it."""

    address: str
    host: str
    port: int
    serial: str
    transport_id: int


def _ask(host: str, port: int, request: str) -> tuple[bool, str]:
    """One host request to ``host:port``: (OKAY?, the length-prefixed answer or failure text)."""
    with socket.create_connection((host, port), timeout=_TIMEOUT) as sock:
        sock.sendall(block(request))
        status = recv_exact(sock, 4)
        size = int(recv_exact(sock, 4).decode("ascii"), 16)
        return status == b"OKAY", recv_exact(sock, size).decode("utf-8", "replace")


class RemotePhones:
    """The endpoints this server is connected to (thread-safe)."""

    def __init__(self, first_transport_id: int) -> None:
        self._phones: dict[str, RemotePhone] = {}
        self._lock = threading.Lock()
        self._next_id = first_transport_id

    def connect(self, address: str) -> str:
        """The answer text of ``host:connect:ADDRESS`` (adb's wording)."""
        host, _, port = address.rpartition(":")
        if not host or not port.isdigit():
            return f"failed to connect to '{address}': bad address"
        with self._lock:
            if address in self._phones:
                return f"already connected to {address}"
        try:
            ok, listing = _ask(host, int(port), "host:devices")
        except (OSError, ValueError) as exc:
            return f"failed to connect to '{address}': {exc}"
        phones = [line.split("\t") for line in listing.splitlines() if "\t" in line]
        if not ok or len(phones) != 1 or phones[0][1] != "device":
            return f"failed to connect to '{address}': not a phone endpoint"
        with self._lock:
            self._phones[address] = RemotePhone(address, host, int(port), phones[0][0], self._next_id)
            self._next_id += 1
        return f"connected to {address}"

    def disconnect(self, address: str) -> str:
        with self._lock:
            if self._phones.pop(address, None) is None:
                return f"error: no such device '{address}'"
        return f"disconnected {address}"

    def get(self, serial: str) -> RemotePhone | None:
        with self._lock:
            return self._phones.get(serial)

    def prefixed(self, text: str) -> RemotePhone | None:
        """The phone whose address starts ``text`` followed by ``:`` (``host-serial:ADDR:…`` requests)."""
        with self._lock:
            return next((p for a, p in self._phones.items() if text.startswith(a + ":")), None)

    def listing(self, extended: bool) -> str:
        with self._lock:
            phones = list(self._phones.values())
        if extended:
            return "".join(f"{p.address:<22} device product:sim model:sim device:sim "
                           f"transport_id:{p.transport_id}\n" for p in phones)
        return "".join(f"{p.address}\tdevice\n" for p in phones)


def relay_transport(client: socket.socket, phone: RemotePhone, tport: bool) -> None:
    """Select ``phone`` on its endpoint, answer the client, then relay both ways until one side closes."""
    try:
        upstream = socket.create_connection((phone.host, phone.port), timeout=_TIMEOUT)
    except OSError:
        send_fail(client, f"device '{phone.address}' not found")
        return
    with upstream:
        try:
            upstream.sendall(block(f"host:transport:{phone.serial}"))
            status = recv_exact(upstream, 4)
        except OSError:
            send_fail(client, "device offline")
            return
        if status != b"OKAY":
            send_fail(client, "device offline")
            return
        upstream.settimeout(None)
        client.sendall(b"OKAY" + (phone.transport_id.to_bytes(8, "little") if tport else b""))
        _splice(client, upstream)


def relay_query(client: socket.socket, phone: RemotePhone, command: str) -> None:
    """``host-serial:ADDR:COMMAND`` answered by the endpoint for its phone."""
    try:
        ok, text = _ask(phone.host, phone.port, f"host-serial:{phone.serial}:{command}")
    except (OSError, ValueError):
        send_fail(client, "device offline")
        return
    client.sendall((b"OKAY" if ok else b"FAIL") + block(text))


def _splice(a: socket.socket, b: socket.socket) -> None:
    def pump(src: socket.socket, dst: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while chunk := src.recv(65536):
                dst.sendall(chunk)
        with contextlib.suppress(OSError):
            dst.shutdown(socket.SHUT_WR)

    back = threading.Thread(target=pump, args=(b, a), daemon=True)
    back.start()
    pump(a, b)
    back.join(timeout=30)
