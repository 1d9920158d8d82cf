"""adb server addresses: parsed from ``HOST:PORT`` and resolved, so one server has one lease key."""

from __future__ import annotations

import functools
import socket

from pytest_artemis.contracts import UsageError


def parse_server(value: str, where: str = "--artemis-adb-server") -> tuple[str, int]:
    """``HOST:PORT`` (``[V6]:PORT`` too) as ``(host, port)``; a usage error naming ``where`` otherwise."""
    host, _, port = value.strip().rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise UsageError(f"{where}={value}: expected HOST:PORT, e.g. 127.0.0.1:5037")
    return host, int(port)


@functools.lru_cache(maxsize=64)
def resolve_host(host: str) -> str:
    """The address ``host`` resolves to: its lowest IPv4 address, else its lowest IPv6 one.

    ``localhost`` and ``127.0.0.1`` give the same answer, so two spellings of one server share their
    leases. The lowest address is chosen so every runner asking the same resolver agrees.
    """
    try:
        infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise UsageError(f"the adb server host {host!r} does not resolve ({exc.strerror})") from None
    v4 = sorted({str(i[4][0]) for i in infos if i[0] == socket.AF_INET})
    v6 = sorted({str(i[4][0]) for i in infos if i[0] == socket.AF_INET6})
    return (v4 or v6)[0]


def server_key(host: str, port: int) -> str:
    """``ADDRESS:PORT`` of a server by its resolved address (``[V6]:PORT`` for IPv6)."""
    address = resolve_host(host)
    return f"[{address}]:{port}" if ":" in address else f"{address}:{port}"
