"""Is a device usable: its adb server answers within a few seconds and the device runs a command."""

from __future__ import annotations

from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor

CHECK_TIMEOUT_S = 3.0
"""A device that takes longer than this to answer ``echo`` is not usable (a hung server costs this once)."""


def device_problem(host: str, port: int, serial: str, timeout: float = CHECK_TIMEOUT_S) -> str | None:
    """Why ``serial`` on the server ``host:port`` cannot be used, or None when it runs a command."""
    import adbutils
    from adbutils.errors import AdbConnectionError, AdbError, AdbTimeout

    client = adbutils.AdbClient(host=host, port=port, socket_timeout=timeout)
    try:
        state = client.device(serial).get_state()
        if state != "device":
            return f"the device is {state!r}, not online"
        out = client.device(serial).shell("echo artemis-ok", timeout=timeout)
    except AdbTimeout:
        return f"the adb server gave no answer within {timeout:g}s"
    except AdbConnectionError as exc:
        return (f"cannot reach the adb server at {host}:{port} ({_first_line(exc)}): start it with "
                "`adb start-server`, or fix the server in --artemis-device / --artemis-adb-server")
    except AdbError as exc:
        if "not found" in str(exc):
            return _not_attached(client, host, port, serial)
        return _first_line(exc) or type(exc).__name__
    except (OSError, EOFError) as exc:
        return f"the connection failed ({type(exc).__name__}: {_first_line(exc)})"
    if "artemis-ok" not in str(out):
        return f"the device did not run a command (answered {str(out)[:60]!r})"
    return None


def problems(devices: Iterable[tuple[str, str, int, str]], timeout: float = CHECK_TIMEOUT_S) -> dict[str, str]:
    """``name → reason`` for every ``(name, host, port, serial)`` that is not usable, checked side by side
    (a hung server costs ``timeout`` once, not once per device)."""
    listed = list(devices)
    if not listed:
        return {}
    with ThreadPoolExecutor(max_workers=min(8, len(listed)), thread_name_prefix="artemis-health") as pool:
        found = pool.map(lambda d: (d[0], device_problem(d[1], d[2], d[3], timeout)), listed)
        return {name: reason for name, reason in found if reason is not None}


def _not_attached(client: object, host: str, port: int, serial: str) -> str:
    try:
        attached = ", ".join(f"{d.serial} ({d.state})" for d in client.list()) or "none"  # type: ignore[attr-defined]
    except Exception:  # noqa: BLE001 — the listing only adds detail to the message
        attached = "unknown"
    return (f"{serial} is not attached to the adb server at {host}:{port} (attached: {attached}); check "
            "`adb devices` and the serial")


def _first_line(exc: BaseException) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else ""
