"""ADB wire protocol on one socket: smart-socket framing, the shell services
(``shell:`` v1, ``shell,v2,...:`` packets, ``exec:``, ``abb_exec:``) and the
``sync:`` file service (STAT/STA2/LST2/LIST/LIS2/RECV/SEND/QUIT)."""

from __future__ import annotations

import socket
import stat as _stat
import struct
from typing import TYPE_CHECKING

from . import shell

if TYPE_CHECKING:
    from .phone import SimPhone

MAX_REQUEST = 64 * 1024
SYNC_DATA_MAX = 64 * 1024
_V2_CHUNK = 256 * 1024


class ProtocolError(Exception):
    """The peer sent something that is not ADB."""


def recv_exact(sock: socket.socket, n: int) -> bytes:
    """Read exactly n bytes; ConnectionError on EOF."""
    buf = bytearray()
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            raise ConnectionError("peer closed")
        buf += chunk
    return bytes(buf)


def read_request(sock: socket.socket) -> str | None:
    """One smart-socket request (4 hex digits + payload); None on clean EOF."""
    head = sock.recv(4, socket.MSG_WAITALL)
    if not head:
        return None
    if len(head) < 4:
        raise ProtocolError("short request header")
    try:
        size = int(head.decode("ascii"), 16)
    except (UnicodeDecodeError, ValueError):
        raise ProtocolError(f"bad request length {head!r}") from None
    if size <= 0 or size > MAX_REQUEST:
        raise ProtocolError(f"bad request length {size}")
    return recv_exact(sock, size).decode("utf-8", errors="replace")


def block(text: str | bytes) -> bytes:
    """Length-prefixed (4 hex digits) payload."""
    data = text.encode() if isinstance(text, str) else text
    return f"{len(data):04x}".encode() + data


def send_fail(sock: socket.socket, message: str) -> None:
    """``FAIL`` + length-prefixed message."""
    sock.sendall(b"FAIL" + block(message))


def finish(sock: socket.socket) -> None:
    """Half-close and drain before closing, so the client reads everything we
    sent (closing with unread input would reset the connection)."""
    try:
        sock.shutdown(socket.SHUT_WR)
        sock.settimeout(2.0)
        while sock.recv(65536):
            pass
    except OSError:
        pass


# -- shell services ---------------------------------------------------------------------

def serve_shell(sock: socket.socket, phone: SimPhone, service: str) -> None:
    """Run a shell/exec/abb_exec service and stream the result in its framing."""
    if service.startswith("abb_exec:"):
        argv = service[len("abb_exec:"):].split("\0")
        sock.sendall(b"OKAY")
        sock.sendall(shell.run_argv(phone, argv).merged)
        return
    if service.startswith("exec:"):
        sock.sendall(b"OKAY")
        sock.sendall(shell.run(phone, service[5:]).merged)
        return
    head, _, command = service.partition(":")
    options = head.split(",")[1:]
    result = shell.run(phone, command)
    sock.sendall(b"OKAY")
    if "v2" not in options:
        # A legacy pty shell: the line discipline turns every LF into CRLF, binary output included.
        mangle = head == "shell" and phone.faults.shell_crlf
        sock.sendall(result.merged.replace(b"\n", b"\r\n") if mangle else result.merged)
        return
    packets = []
    for fd, data in result.chunks:
        for i in range(0, len(data), _V2_CHUNK):
            part = data[i:i + _V2_CHUNK]
            packets.append(struct.pack("<BI", fd, len(part)) + part)
    packets.append(struct.pack("<BIB", 3, 1, result.code))
    sock.sendall(b"".join(packets))


# -- sync service -----------------------------------------------------------------------

def _sync_fail(sock: socket.socket, message: str) -> None:
    data = message.encode()
    sock.sendall(b"FAIL" + struct.pack("<I", len(data)) + data)


def _stat_v2(phone: SimPhone, path: str) -> bytes:
    st = phone.fs.stat(path)
    if st is None:
        return struct.pack("<IQQIIIIQqqq", 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    mode, size, mtime = st
    return struct.pack("<IQQIIIIQqqq", 0, 0xFD00, abs(hash(path)) & 0xFFFFFF, mode, 1, 2000, 2000,
                       size, mtime, mtime, mtime)


def serve_sync(sock: socket.socket, phone: SimPhone) -> None:
    """The ``sync:`` service loop: one request at a time until QUIT or EOF."""
    sock.sendall(b"OKAY")
    while True:
        try:
            head = recv_exact(sock, 8)
        except ConnectionError:
            return
        cmd, size = head[:4], struct.unpack("<I", head[4:])[0]
        if cmd == b"QUIT":
            return
        if size > 1024:
            _sync_fail(sock, "path too long")
            return
        path = recv_exact(sock, size).decode("utf-8", errors="replace")
        if cmd == b"SEND":
            if not _send(sock, phone, path):
                return
            continue
        with phone.lock:
            if cmd == b"STAT":
                st = phone.fs.stat(path) or (0, 0, 0)
                sock.sendall(b"STAT" + struct.pack("<III", *st))
            elif cmd in (b"STA2", b"LST2"):
                sock.sendall(cmd + _stat_v2(phone, path))
            elif cmd in (b"LIST", b"LIS2"):
                _list(sock, phone, path, cmd == b"LIS2")
            elif cmd == b"RECV":
                _recv(sock, phone, path)
            else:
                _sync_fail(sock, f"unknown sync command {cmd!r}")
                return


def _list(sock: socket.socket, phone: SimPhone, path: str, v2: bool) -> None:
    out = []
    for name in phone.fs.listdir(path) or []:
        full = path.rstrip("/") + "/" + name
        raw = name.encode()
        if v2:
            out.append(b"DNT2" + _stat_v2(phone, full) + struct.pack("<I", len(raw)) + raw)
        else:
            mode, size, mtime = phone.fs.stat(full) or (0, 0, 0)
            out.append(b"DENT" + struct.pack("<IIII", mode, size, mtime, len(raw)) + raw)
    out.append(b"DONE" + bytes(72 if v2 else 16))
    sock.sendall(b"".join(out))


def _recv(sock: socket.socket, phone: SimPhone, path: str) -> None:
    data = phone.fs.read(path)
    if data is None:
        _sync_fail(sock, "Is a directory" if phone.fs.is_dir(path) else "No such file or directory")
        return
    out = [b"DATA" + struct.pack("<I", len(data[i:i + SYNC_DATA_MAX])) + data[i:i + SYNC_DATA_MAX]
           for i in range(0, len(data), SYNC_DATA_MAX)]
    out.append(b"DONE" + struct.pack("<I", 0))
    sock.sendall(b"".join(out))


def _send(sock: socket.socket, phone: SimPhone, spec: str) -> bool:
    path, _, mode_text = spec.rpartition(",")
    if not path:
        path, mode_text = spec, str(_stat.S_IFREG | 0o644)
    try:
        mode = int(mode_text)
    except ValueError:
        mode = 0o644
    chunks = []
    # The data is read without the phone lock: a slow pusher must not stall other clients.
    while True:
        head = recv_exact(sock, 8)
        kind, size = head[:4], struct.unpack("<I", head[4:])[0]
        if kind == b"DATA":
            if size > SYNC_DATA_MAX:
                _sync_fail(sock, "invalid data message: too long")
                return False
            chunks.append(recv_exact(sock, size))
        elif kind == b"DONE":
            mtime = size
            break
        else:
            _sync_fail(sock, f"invalid data message: expected DATA or DONE, got {kind!r}")
            return False
    with phone.lock:
        # fixed_push_mkdir: the device creates missing parent directories.
        phone.fs.mkdirs(path.rsplit("/", 1)[0] or "/")
        error = phone.fs.write(path, b"".join(chunks), mtime, mode=mode)
    if error:
        _sync_fail(sock, error)
    else:
        sock.sendall(b"OKAY" + struct.pack("<I", 0))
    return True
