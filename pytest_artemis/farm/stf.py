"""DeviceFarmer STF as a lease backend: list, book, remote-connect, ``adb connect``; renew; release.

Follows STF's REST API (``doc/API.md`` and the swagger spec of openstf/stf and DeviceFarmer/stf):
``GET /api/v1/devices``, ``POST /api/v1/user/devices`` ``{"serial", "timeout"}`` (a refusal is 403, 404,
500 or 504), ``GET|DELETE /api/v1/user/devices/{serial}``, ``POST|DELETE
/api/v1/user/devices/{serial}/remoteConnect`` (``remoteConnectUrl``). The booking's ``timeout`` is STF's
idle timeout: adb traffic through the remote connection keeps it alive, so ``renew`` both checks the
booking and runs one command on the device. The token is sent in the ``Authorization`` header only; no
message or lease carries it.
"""

from __future__ import annotations

import contextlib
import json
import time
import urllib.error
import urllib.request
from collections.abc import Set
from typing import Any
from urllib.parse import quote, urlsplit

from pytest_artemis.contracts import UsageError

from .backend import DeviceLease, LeaseError, Survey
from .health import device_problem
from .spec import StfSpec

_FIELDS = "serial,present,ready,using,owner,model,sdk,version,manufacturer"
BOOKING_TIMEOUT_MS = 15 * 60 * 1000
"""STF releases a booking idle this long (STF's own example value); ``renew`` keeps it busy."""
RENEW_INTERVAL_S = 60.0


class StfRefused(Exception):
    """STF answered a request with an error status (the description it gave, never the token)."""

    def __init__(self, status: int, description: str) -> None:
        super().__init__(f"HTTP {status}: {description}")
        self.status = status


class StfClient:
    """The few STF REST calls a lease needs, over urllib (no extra dependency)."""

    def __init__(self, url: str, token: str, timeout: float = 10.0) -> None:
        self.url = url.rstrip("/")
        self._token = token
        self._timeout = timeout

    def __repr__(self) -> str:
        return f"StfClient({self.url!r})"  # never the token

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        """The JSON answer of ``method path``; ``StfRefused`` on an error status, ``LeaseError`` when STF
        cannot be reached."""
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(f"{self.url}/api/v1{path}", data=data, method=method, headers={
            "Authorization": f"Bearer {self._token}", "Content-Type": "application/json",
            "Accept": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=self._timeout) as answer:  # noqa: S310 (http(s) only)
                return _json(answer.read())
        except urllib.error.HTTPError as exc:
            described = _json(exc.read()).get("description") or exc.reason
            raise StfRefused(exc.code, str(described)) from None
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise LeaseError(f"STF at {self.url} is unreachable ({reason})") from None

    def devices(self) -> list[dict[str, Any]]:
        return list(self.call("GET", f"/devices?fields={_FIELDS}").get("devices") or [])

    def book(self, serial: str, timeout_ms: int) -> None:
        self.call("POST", "/user/devices", {"serial": serial, "timeout": timeout_ms})

    def owns(self, serial: str) -> bool:
        try:
            self.call("GET", f"/user/devices/{quote(serial, safe='')}?fields=serial")
        except StfRefused as exc:
            if exc.status in (403, 404):
                return False
            raise
        return True

    def remote_connect(self, serial: str) -> str:
        answer = self.call("POST", f"/user/devices/{quote(serial, safe='')}/remoteConnect")
        url = str(answer.get("remoteConnectUrl") or "")
        if not url:
            raise StfRefused(200, "no remoteConnectUrl in the answer")
        return url

    def remote_disconnect(self, serial: str) -> None:
        self.call("DELETE", f"/user/devices/{quote(serial, safe='')}/remoteConnect")

    def release(self, serial: str) -> None:
        self.call("DELETE", f"/user/devices/{quote(serial, safe='')}")


def _json(raw: bytes) -> dict[str, Any]:
    try:
        value = json.loads(raw or b"{}")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def addable(device: dict[str, Any]) -> bool:
    """STF's own rule (``deviceutil.isAddable``): present, ready, not in use and owned by nobody."""
    return bool(device.get("present") and device.get("ready") and not device.get("using")
                and not device.get("owner"))


class StfBackend:
    """Books up to ``spec.count`` devices from STF and attaches each to the local adb server."""

    name = "stf"

    def __init__(self, spec: StfSpec, client: StfClient, adb_host: str, adb_port: int,
                 renew_interval: float = RENEW_INTERVAL_S,
                 booking_timeout_ms: int = BOOKING_TIMEOUT_MS) -> None:
        self.spec = spec
        self.client = client
        self.adb_host, self.adb_port = adb_host, adb_port
        self.renew_interval: float | None = renew_interval
        self.booking_timeout_ms = booking_timeout_ms
        self.stf_host = urlsplit(client.url).netloc
        self._held: set[str] = set()
        self.refusals: dict[str, str] = {}
        """STF serial → why its last booking or connection failed (for messages)."""

    def device_name(self, serial: str) -> str:
        return f"stf://{self.stf_host}/{serial}"

    def describe(self) -> str:
        wanted = f" matching {self.spec.filter}" if str(self.spec.filter) else ""
        return f"STF at {self.client.url} (stf:{self.spec.count}{wanted})"

    def survey(self) -> Survey:
        """The matching devices STF knows: present and ready ones are usable (even if booked by others:
        a lease waits for them), the rest are named with why not."""
        try:
            devices = self.client.devices()
        except StfRefused as exc:
            hint = " (check ARTEMIS_STF_TOKEN)" if exc.status == 401 else ""
            raise UsageError(f"STF at {self.client.url} refused to list its devices ({exc}){hint}") from None
        except LeaseError as exc:
            raise UsageError(f"{exc}: check --artemis-stf-url") from None
        matching = [d for d in devices if self.spec.filter.accepts(d)]
        ready = [d for d in matching if d.get("present") and d.get("ready")]
        usable = tuple(self.device_name(str(d["serial"])) for d in ready)
        unusable = {self.device_name(str(d["serial"])): "not present" if not d.get("present") else "not ready"
                    for d in matching if not (d.get("present") and d.get("ready"))}
        return Survey(usable, unusable)

    def try_acquire(self, holder: str, exclude: Set[str]) -> DeviceLease | None:
        if len(self._held) >= self.spec.count:
            return None
        for device in self.client.devices():
            serial = str(device.get("serial"))
            wanted = addable(device) and self.spec.filter.accepts(device)
            if not wanted or self.device_name(serial) in exclude:
                continue
            lease = self._book(serial, holder)
            if lease is not None:
                return lease
        return None

    def _book(self, serial: str, holder: str) -> DeviceLease | None:
        """Book, remote-connect and ``adb connect`` one device; None (everything undone) when a step fails."""
        try:
            self.client.book(serial, self.booking_timeout_ms)
        except StfRefused as exc:  # taken meanwhile, or broken: the next one
            self.refusals[serial] = f"booking refused ({exc})"
            return None
        self._held.add(serial)
        lease = DeviceLease(self.device_name(serial), self.adb_host, self.adb_port, serial="", holder=holder,
                            backend=self.name, details={"stf_serial": serial})
        try:
            url = self.client.remote_connect(serial)
            lease = DeviceLease(lease.name, lease.host, lease.port, url, holder, self.name,
                                {"stf_serial": serial, "connect": url})
            problem = self._adb_connect(url)
        except (StfRefused, LeaseError) as exc:
            problem = f"remote connect failed ({exc})"
        if problem is not None:
            self.refusals[serial] = problem
            self.release(lease)
            return None
        return lease

    def _adb_connect(self, url: str) -> str | None:
        import adbutils

        client = adbutils.AdbClient(self.adb_host, self.adb_port, socket_timeout=10)
        try:
            said = client.connect(url, timeout=10)
        except adbutils.AdbError as exc:
            return f"adb connect {url} failed ({exc})"
        if "connected" not in said or "failed" in said:
            return f"adb connect {url}: {said.strip()}"
        problem = None
        for _ in range(10):  # the server may list the device a moment after it says connected
            problem = device_problem(self.adb_host, self.adb_port, url)
            if problem is None:
                return None
            time.sleep(0.3)
        return f"adb connect {url}: {problem}"

    def renew(self, lease: DeviceLease) -> None:
        serial = lease.details.get("stf_serial", "")
        try:
            owned = self.client.owns(serial)
        except StfRefused as exc:
            raise LeaseError(f"{lease.name}: STF did not confirm the booking ({exc})") from None
        if not owned:
            raise LeaseError(f"{lease.name}: the STF booking was lost (expired or taken back)")
        device_problem(lease.host, lease.port, lease.serial)  # adb traffic: STF's idle timer starts again

    def release(self, lease: DeviceLease) -> None:
        """``adb disconnect``, remote disconnect and the booking's release; each step is tried whatever
        the one before did (a dead worker's lease is released by the controller the same way)."""
        import adbutils

        serial = lease.details.get("stf_serial", "")
        url = lease.details.get("connect")
        if url:
            with contextlib.suppress(adbutils.AdbError, OSError):  # already gone from the local server
                adbutils.AdbClient(self.adb_host, self.adb_port, socket_timeout=5).disconnect(url)
            with contextlib.suppress(StfRefused, LeaseError):
                self.client.remote_disconnect(serial)
        with contextlib.suppress(StfRefused, LeaseError):  # not ours any more (expired, or released before)
            self.client.release(serial)
        self._held.discard(serial)
