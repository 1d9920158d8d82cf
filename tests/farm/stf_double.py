"""A small DeviceFarmer STF REST double: the endpoints a lease uses, as STF's API documents them.

STF itself needs RethinkDB, which cannot be installed here; this double follows ``doc/API.md`` and the
swagger spec (openstf/stf, DeviceFarmer/stf) and STF's controller rules (``deviceutil.isAddable``: present,
ready, not used, no owner; ``using`` is relative to the asking user). Each device is a simulated phone
behind its own simulated adb server on its own loopback address: ``remoteConnect`` returns that address,
which the client then ``adb connect``s through its local adb server. A booking's ``timeout`` is an idle
timeout, as in STF: adb traffic reaching the phone's endpoint counts as activity.
"""

from __future__ import annotations

import json
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote, urlsplit

from pytest_artemis.sim import SimServer


@dataclass
class StfDevice:
    serial: str
    endpoint: SimServer
    sdk: str = "34"
    model: str = "sdk_gphone64_x86_64"
    present: bool = True
    ready: bool = True
    refuse: bool = False
    """Answer a booking with 504 "Device is not responding" (a broken provider)."""
    owner: str | None = None
    timeout_ms: int | None = None
    last_activity: float = 0.0
    seen: tuple[int, int] = (0, 0)
    connected: bool = False

    def record(self, user: str) -> dict[str, object]:
        owner = {"email": self.owner, "name": self.owner} if self.owner else None
        return {"serial": self.serial, "present": self.present, "ready": self.ready,
                "using": self.owner == user, "owner": owner, "model": self.model, "sdk": self.sdk,
                "version": "14", "manufacturer": "Google", "status": 3}


@dataclass
class StfDouble:
    """``with StfDouble(tokens={"tok": "ci@example.com"}, devices=3) as stf: stf.url``."""

    tokens: dict[str, str]
    devices: int = 2
    sdks: tuple[str, ...] = ()
    log: list[tuple[float, str, str, str]] = field(default_factory=list)
    """(time, event, serial, user): ``book``, ``release``, ``expire``, ``connect``, ``disconnect``."""

    def __post_init__(self) -> None:
        self.phones: dict[str, StfDevice] = {}
        self._lock = threading.Lock()
        self._http: ThreadingHTTPServer | None = None

    def __enter__(self) -> StfDouble:
        for i in range(self.devices):
            endpoint = SimServer(devices=1, host=f"127.0.0.{20 + i}").start()
            serial = f"R5CT{i:04d}"
            sdk = self.sdks[i] if i < len(self.sdks) else "34"
            self.phones[serial] = StfDevice(serial, endpoint, sdk=sdk)
        double = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                double.handle(self, "GET")

            def do_POST(self) -> None:
                double.handle(self, "POST")

            def do_DELETE(self) -> None:
                double.handle(self, "DELETE")

            def log_message(self, *args: object) -> None:
                pass

        self._http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._http.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._http is not None:
            self._http.shutdown()
            self._http.server_close()
        for phone in self.phones.values():
            phone.endpoint.stop()

    @property
    def url(self) -> str:
        assert self._http is not None
        return f"http://127.0.0.1:{self._http.server_address[1]}"

    def booked(self) -> dict[str, str]:
        with self._lock:
            self._expire()
            return {s: d.owner for s, d in self.phones.items() if d.owner}

    # -- requests ----------------------------------------------------------------------------

    def handle(self, request: BaseHTTPRequestHandler, method: str) -> None:
        auth = request.headers.get("Authorization", "")
        user = self.tokens.get(auth.removeprefix("Bearer ").strip()) if auth.startswith("Bearer ") else None
        if user is None:
            return _answer(request, 401, {"success": False, "description": "Unauthorized"})
        path = urlsplit(request.path).path
        size = int(request.headers.get("Content-Length") or 0)
        body = json.loads(request.rfile.read(size) or b"{}") if size else {}
        with self._lock:
            self._expire()
            status, answer = self._route(method, path, body, user)
        _answer(request, status, answer)

    def _route(self, method: str, path: str, body: dict, user: str) -> tuple[int, dict]:
        if method == "GET" and path == "/api/v1/devices":
            return 200, {"success": True, "devices": [d.record(user) for d in self.phones.values()]}
        if method == "POST" and path == "/api/v1/user/devices":
            return self._book(str(body.get("serial")), body.get("timeout"), user)
        match = re.fullmatch(r"/api/v1/user/devices/([^/]+)(/remoteConnect)?", path)
        if match is None:
            return 404, {"success": False, "description": "Not Found"}
        device = self.phones.get(unquote(match.group(1)))
        if device is None:
            return 404, {"success": False, "description": "Device not found"}
        if not (device.present and device.ready and device.owner == user):
            return 403, {"success": False, "description": "Device is not owned by you or is not available"}
        if match.group(2):
            return self._remote(method, device, user)
        if method == "GET":
            return 200, {"success": True, "device": device.record(user)}
        if method == "DELETE":
            device.owner = None
            self.log.append((time.monotonic(), "release", device.serial, user))
            return 200, {"success": True, "description": "Device successfully removed"}
        return 404, {"success": False, "description": "Not Found"}

    def _book(self, serial: str, timeout: object, user: str) -> tuple[int, dict]:
        device = self.phones.get(serial)
        if device is None:
            return 404, {"success": False, "description": "Device not found"}
        if not (device.present and device.ready) or device.owner is not None:
            return 403, {"success": False, "description": "Device is being used or not available"}
        if device.refuse:
            return 504, {"success": False, "description": "Device is not responding"}
        device.owner, device.timeout_ms = user, int(timeout) if timeout else None
        device.last_activity, device.seen = time.monotonic(), _activity(device.endpoint)
        self.log.append((time.monotonic(), "book", serial, user))
        return 200, {"success": True, "description": "Device successfully added"}

    def _remote(self, method: str, device: StfDevice, user: str) -> tuple[int, dict]:
        if method == "POST":
            device.connected = True
            self.log.append((time.monotonic(), "connect", device.serial, user))
            return 200, {"success": True, "description": "Remote connection is enabled",
                         "remoteConnectUrl": device.endpoint.address}
        device.connected = False
        self.log.append((time.monotonic(), "disconnect", device.serial, user))
        return 200, {"success": True, "description": "Device remote disconnected successfully"}

    def _expire(self) -> None:
        now = time.monotonic()
        for device in self.phones.values():
            if device.owner is None or not device.timeout_ms:
                continue
            seen = _activity(device.endpoint)
            if seen != device.seen:
                device.seen, device.last_activity = seen, now
            elif now - device.last_activity > device.timeout_ms / 1000:
                self.log.append((now, "expire", device.serial, device.owner))
                device.owner = None


def _activity(endpoint: SimServer) -> tuple[int, int]:
    """A mark that changes whenever a request reaches the phone's endpoint."""
    requests = endpoint.requests
    return len(requests), id(requests[-1]) if requests else 0


def _answer(request: BaseHTTPRequestHandler, status: int, body: dict) -> None:
    data = json.dumps(body).encode()
    request.send_response(status)
    request.send_header("Content-Type", "application/json")
    request.send_header("Content-Length", str(len(data)))
    request.end_headers()
    request.wfile.write(data)


def overlapping_bookings(log: list[tuple[float, str, str, str]]) -> list[str]:
    """Serials booked again before their booking ended (which STF must never allow)."""
    held: set[str] = set()
    twice = []
    for _, event, serial, _user in sorted(log):
        if event == "book":
            if serial in held:
                twice.append(serial)
            held.add(serial)
        elif event in ("release", "expire"):
            held.discard(serial)
    return twice
