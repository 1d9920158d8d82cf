"""adb service calls on adbutils' connection-level API: one connection per service, no extra round trips."""

from __future__ import annotations

import contextlib
import socket
import struct
import time

import adbutils
from adbutils import AdbConnection

from .errors import DeviceTimeout


class ServiceRefused(adbutils.AdbError):
    """The device (or the server for it) answered FAIL to the service request itself, not to a command."""


class AdbWire:
    """Opens ``host:transport:SERIAL`` + one device service per call and reads its stream to the end.

    adbutils' own device calls open a ``host:version`` connection before every transport connection and
    sleep 10 ms in every ``close()``; on loopback those cost more than the device's own work. Here the
    transport is selected with ``host:transport:SERIAL`` (understood by every adb server, so the version
    never needs asking), and a connection whose stream was read to its end is closed at once: the server
    already closed its side, so there is nothing left to flush.
    """

    def __init__(self, client: adbutils.AdbClient, serial: str, name: str) -> None:
        self._client = client
        self._serial = serial
        self._name = name

    def open(self, service: str, budget: float) -> AdbConnection:
        """A connection on which ``service`` was accepted (ServiceRefused when it was not)."""
        conn = self._client.make_connection(timeout=budget)
        try:
            # Requests are single small writes answered before the next: Nagle would only add delay.
            conn.conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            conn.send_command(f"host:transport:{self._serial}")
            conn.check_okay()
            conn.send_command(service)
            status = conn.read(4)
            if status == b"FAIL":
                raise ServiceRefused(conn.read_string_block())
            if status != b"OKAY":
                raise adbutils.AdbError(f"{service}: unexpected reply {status!r}")
        except BaseException:
            close(conn)
            raise
        return conn

    def read_all(self, service: str, budget: float, size_hint: int = 0) -> bytearray:
        """Everything ``service`` writes until it closes, within ``budget`` seconds for the whole call.

        Read straight into one buffer (``size_hint`` bytes to start with, doubled when full): a raw screen
        frame is megabytes, and every copy of it costs milliseconds.
        """
        deadline = time.monotonic() + budget
        conn = self.open(service, budget)
        buf = bytearray(max(size_hint, 1 << 16))
        filled = 0
        try:
            while True:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise DeviceTimeout(f"{self._name}: {service}: no end within {budget:g}s")
                conn.conn.settimeout(remaining)
                if filled == len(buf):
                    buf.extend(bytes(len(buf)))
                with memoryview(buf) as view:
                    try:
                        got = conn.conn.recv_into(view[filled:])
                    except TimeoutError as exc:
                        raise DeviceTimeout(f"{self._name}: {service}: no end within {budget:g}s") from exc
                if not got:
                    del buf[filled:]
                    return buf
                filled += got
        finally:
            close(conn)


    def push(self, data: bytes, remote: str, budget: float, mode: int = 0o644) -> None:
        """Write ``data`` to ``remote`` through the sync service (``SEND``, ``DATA``…, ``DONE``), within
        ``budget`` seconds; a refusal (a read-only path) raises ``adbutils.AdbError`` with the device's
        reason."""
        conn = self.open("sync:", budget)
        try:
            conn.conn.settimeout(budget)
            spec = f"{remote},{0o100000 | mode}".encode()
            conn.conn.sendall(b"SEND" + struct.pack("<I", len(spec)) + spec)
            for start in range(0, len(data), _SYNC_CHUNK):
                chunk = data[start:start + _SYNC_CHUNK]
                conn.conn.sendall(b"DATA" + struct.pack("<I", len(chunk)) + chunk)
            conn.conn.sendall(b"DONE" + struct.pack("<I", int(time.time())))
            status, size = conn.read(4), struct.unpack("<I", conn.read(4))[0]
            if status != b"OKAY":
                said = conn.read(size).decode("utf-8", errors="replace") if status == b"FAIL" else ""
                raise adbutils.AdbError(f"push {remote}: {said or repr(status)}")
        finally:
            close(conn)


_SYNC_CHUNK = 64 * 1024
"""The most a sync ``DATA`` message may carry."""


def close(conn: AdbConnection) -> None:
    """Close the socket now (``AdbConnection.close`` half-closes, then sleeps 10 ms)."""
    with contextlib.suppress(adbutils.AdbError, OSError):
        conn.conn.close()
