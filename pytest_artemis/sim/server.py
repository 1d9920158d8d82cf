"""``SimServer``: a loopback ADB server hosting several simulated phones.

Each client connection gets its own daemon thread; a malformed or hostile
client only ever gets ``FAIL`` and a closed socket.  Host services answered:
``host:version`` (0029, so the adb CLI accepts the server), ``host:devices``
(``-l``), ``host:track-devices`` (``-l``), ``host:features``,
``host:host-features``, ``host:transport:S``, ``host:transport-any``,
``host:tport:serial:S|any``, ``host:transport-id:N``, ``host-serial:S:…``
(features, get-state, get-serialno, get-devpath, wait-for-*, forward,
killforward, list-forward), ``host:list-forward``, ``host:killforward-all``,
``host:connect`` / ``host:disconnect`` (another simulated server with one phone,
relayed: ``remote.py``) and ``host:kill`` (answers, keeps serving).
"""

from __future__ import annotations

import contextlib
import select
import socket
import struct
import threading
from collections import deque
from functools import partial

from .phone import SimPhone
from .protocol import ProtocolError, block, finish, read_request, send_fail, serve_shell, serve_sync
from .remote import RemotePhones, relay_query, relay_transport

FEATURES = ("shell_v2,cmd,stat_v2,ls_v2,fixed_push_mkdir,apex,abb,fixed_push_symlink_timestamp,"
            "abb_exec,remount_shell,track_app")
_IDLE_TIMEOUT = 120.0


class SimServer:
    """ADB server on ``host:port`` (port 0 picks a free one) with ``devices`` phones."""

    def __init__(self, devices: int = 1, seed: int = 0, host: str = "127.0.0.1", port: int = 0,
                 width: int = 1080, height: int = 2400):
        self.phones: dict[str, SimPhone] = {}
        for i in range(devices):
            serial = f"emulator-{5554 + 2 * i}"
            self.phones[serial] = SimPhone(serial, seed=seed, width=width, height=height,
                                           transport_id=i + 1)
        self.host, self.port = host, port
        self._sock: socket.socket | None = None
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._clients: set[socket.socket] = set()
        self._clients_lock = threading.Lock()
        self._changed = threading.Condition()
        self._generation = 0
        self._forwards: list[tuple[str, str, str]] = []
        self.remote = RemotePhones(first_transport_id=devices + 1)
        """Endpoints reached with ``adb connect`` (``host:connect:HOST:PORT``), listed with the phones."""
        self.requests: deque[str] = deque(maxlen=1000)
        """The last 1000 smart-socket requests (host and device services), oldest first: what clients
        asked for, e.g. to count a client's round trips."""
        for phone in self.phones.values():
            phone.add_online_listener(self._notify)

    # -- lifecycle ----------------------------------------------------------------------

    @property
    def address(self) -> str:
        """``host:port`` the server listens on."""
        return f"{self.host}:{self.port}"

    @property
    def serials(self) -> list[str]:
        """Serials of the hosted phones, e.g. ``["emulator-5554", "emulator-5556"]``."""
        return list(self.phones)

    def phone(self, serial: str) -> SimPhone:
        """The phone with this serial (KeyError when unknown)."""
        return self.phones[serial]

    def start(self) -> SimServer:
        """Bind and start serving in a daemon thread; returns self."""
        if self._thread is not None:
            return self
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((self.host, self.port))
        sock.listen(64)
        self._sock = sock
        self.host, self.port = sock.getsockname()[:2]
        self._stopping.clear()
        self._thread = threading.Thread(target=self._accept_loop, args=(sock,), name=f"simadb-{self.port}",
                                        daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop accepting, close every client connection and join the accept thread."""
        if self._thread is None:
            return
        self._stopping.set()
        self._notify()
        with contextlib.suppress(OSError):
            # Wake the blocking accept() with a throwaway connection, then close.
            socket.create_connection((self.host, self.port), timeout=1).close()
        self._thread.join(timeout=5)
        if self._sock is not None:
            self._sock.close()
        with self._clients_lock:
            for client in list(self._clients):
                with contextlib.suppress(OSError):
                    client.shutdown(socket.SHUT_RDWR)
                client.close()
            self._clients.clear()
        self._thread = None

    def __enter__(self) -> SimServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def _moved_on(self, seen: int) -> bool:
        """Whether the screens changed since generation ``seen`` (or the server is stopping)."""
        return self._generation != seen or self._stopping.is_set()

    def _notify(self) -> None:
        with self._changed:
            self._generation += 1
            self._changed.notify_all()

    def _accept_loop(self, sock: socket.socket) -> None:
        while not self._stopping.is_set():
            try:
                client, _ = sock.accept()
            except OSError:
                return
            if self._stopping.is_set():
                client.close()
                return
            with self._clients_lock:
                self._clients.add(client)
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    # -- one connection -----------------------------------------------------------------

    def _serve(self, sock: socket.socket) -> None:
        sock.settimeout(_IDLE_TIMEOUT)
        # Replies go out as several small writes; Nagle + delayed ACK would add 40 ms each.
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            self._session(sock)
            finish(sock)
        except ProtocolError as exc:
            with contextlib.suppress(OSError):
                send_fail(sock, str(exc))
            finish(sock)
        except (OSError, ConnectionError):
            pass
        finally:
            with self._clients_lock:
                self._clients.discard(sock)
            sock.close()

    def _session(self, sock: socket.socket) -> None:
        phone: SimPhone | None = None
        while True:
            req = read_request(sock)
            if req is None:
                return
            self.requests.append(req)
            if phone is not None:
                return self._device_service(sock, phone, req)
            if req.startswith(("host:transport", "host:tport:")):
                target = req.removeprefix("host:tport:serial:").removeprefix("host:transport:")
                remote = self.remote.get(target)
                if remote is not None:
                    return relay_transport(sock, remote, req.startswith("host:tport:"))
                phone = self._select_transport(sock, req)
                if phone is None:
                    return
                continue
            if req.startswith(("host:", "host-serial:", "host-transport-id:", "host-local:",
                               "host-usb:")):
                return self._host_service(sock, req)
            send_fail(sock, f"unknown host service '{req[:80]}'")
            return

    def _find(self, target: str) -> tuple[SimPhone | None, str]:
        """Resolve 'serial:S' / 'id:N' / 'any' / 'local' / 'usb' to a phone or an error."""
        if target.startswith("serial:") or target.startswith("id:") or target in ("any", "local",
                                                                                    "usb"):
            kind, _, value = target.partition(":")
        else:
            kind, value = "serial", target
        if kind == "serial":
            phone = self.phones.get(value)
            return phone, "" if phone else f"device '{value}' not found"
        if kind == "id":
            for phone in self.phones.values():
                if str(phone.transport_id) == value:
                    return phone, ""
            return None, f"no device with transport id '{value}'"
        if kind == "usb" or not self.phones:
            return None, "no devices/emulators found"
        online = [p for p in self.phones.values() if p.online]
        if len(self.phones) > 1:
            return None, "more than one device/emulator"
        return (online[0], "") if online else (None, "device offline")

    def _select_transport(self, sock: socket.socket, req: str) -> SimPhone | None:
        tport = req.startswith("host:tport:")
        if tport:
            target = req[len("host:tport:"):]
        elif req.startswith("host:transport-id:"):
            target = "id:" + req[len("host:transport-id:"):]
        elif req.startswith("host:transport:"):
            target = "serial:" + req[len("host:transport:"):]
        else:  # host:transport-any / -local / -usb
            target = req[len("host:transport-"):]
        phone, error = self._find(target)
        if phone is not None:
            with phone.lock:
                if phone.faults.refuse_transport():
                    phone, error = None, "device offline"
        if phone is None:
            send_fail(sock, error)
            return None
        sock.sendall(b"OKAY" + (struct.pack("<Q", phone.transport_id) if tport else b""))
        return phone

    def _device_service(self, sock: socket.socket, phone: SimPhone, req: str) -> None:
        if req.startswith("exec:") and phone.faults.exec_refused:
            send_fail(sock, "closed")  # what an adbd without the service makes the server answer
        elif req.startswith(("shell:", "shell,", "exec:", "abb_exec:")):
            serve_shell(sock, phone, req)
        elif req == "sync:":
            serve_sync(sock, phone)
        elif req.startswith(("reboot:", "root:", "unroot:", "remount:")):
            sock.sendall(b"OKAY")
            sock.sendall(b"not supported by the simulator\n")
        else:
            send_fail(sock, f"unknown device service '{req[:80]}'")

    def _devices_text(self, extended: bool) -> str:
        lines = []
        for serial, phone in self.phones.items():
            state = "device" if phone.online else "offline"
            if extended:
                lines.append(f"{serial:<22} {state} product:sdk_gphone64_x86_64 "
                             f"model:sdk_gphone64_x86_64 device:emu64xa "
                             f"transport_id:{phone.transport_id}\n")
            else:
                lines.append(f"{serial}\t{state}\n")
        return "".join(lines) + self.remote.listing(extended)

    def _host_service(self, sock: socket.socket, req: str) -> None:
        prefix, _, rest = req.partition(":")
        phone, error = None, ""
        if prefix == "host-serial" and (remote := self.remote.prefixed(rest)) is not None:
            return relay_query(sock, remote, rest[len(remote.address) + 1:])
        if prefix == "host-serial":
            serial = next((s for s in self.phones if rest.startswith(s + ":")), None)
            if serial is None:
                serial, _, rest = rest.partition(":")
                error = f"device '{serial}' not found"
            else:
                phone, rest = self.phones[serial], rest[len(serial) + 1:]
        elif prefix == "host-transport-id":
            tid, _, rest = rest.partition(":")
            phone, error = self._find("id:" + tid)
        elif prefix in ("host-local", "host-usb"):
            phone, error = self._find(prefix[5:])
        cmd = rest
        if cmd == "version":
            sock.sendall(b"OKAY" + block("0029"))
        elif cmd in ("devices", "devices-l"):
            sock.sendall(b"OKAY" + block(self._devices_text(cmd == "devices-l")))
        elif cmd in ("track-devices", "track-devices-l"):
            self._track(sock, cmd.endswith("-l"))
        elif cmd == "host-features":
            sock.sendall(b"OKAY" + block(FEATURES))
        elif cmd == "kill":
            sock.sendall(b"OKAY")
        elif cmd.startswith("connect:"):
            sock.sendall(b"OKAY" + block(self.remote.connect(cmd[8:])))
        elif cmd.startswith("disconnect:"):
            sock.sendall(b"OKAY" + block(self.remote.disconnect(cmd[11:])))
        elif cmd == "list-forward":
            lines = "".join(f"{s} {a} {b}\n" for s, a, b in self._forwards
                            if phone is None or s == phone.serial)
            sock.sendall(b"OKAY" + block(lines))
        elif cmd == "killforward-all":
            self._forwards = [f for f in self._forwards if phone is not None and f[0] != phone.serial]
            sock.sendall(b"OKAY")
        else:
            if phone is None and prefix == "host" and not error:
                phone, error = self._find("any")
            if phone is None:
                send_fail(sock, error or "no devices/emulators found")
                return
            self._device_query(sock, phone, cmd)

    def _device_query(self, sock: socket.socket, phone: SimPhone, cmd: str) -> None:
        if cmd == "get-state":
            sock.sendall(b"OKAY" + block("device" if phone.online else "offline"))
        elif cmd.startswith("wait-for-"):
            self._wait_for(sock, phone, cmd.rsplit("-", 1)[-1])
        elif not phone.online:
            send_fail(sock, "device offline")
        elif cmd == "features":
            sock.sendall(b"OKAY" + block(FEATURES))
        elif cmd == "get-serialno":
            sock.sendall(b"OKAY" + block(phone.serial))
        elif cmd == "get-devpath":
            sock.sendall(b"OKAY" + block("unknown"))
        elif cmd.startswith("forward:"):
            spec = cmd[len("forward:"):].removeprefix("norebind:")
            local, _, remote = spec.partition(";")
            if not remote:
                send_fail(sock, f"malformed forward spec '{spec}'")
                return
            self._forwards = [f for f in self._forwards if f[1] != local]
            self._forwards.append((phone.serial, local, remote))
            sock.sendall(b"OKAY" + b"OKAY")
        elif cmd.startswith("killforward:"):
            local = cmd[len("killforward:"):]
            before = len(self._forwards)
            self._forwards = [f for f in self._forwards if f[1] != local]
            if len(self._forwards) == before:
                send_fail(sock, f"listener '{local}' not found")
            else:
                sock.sendall(b"OKAY")
        else:
            send_fail(sock, f"unknown host service '{cmd[:80]}'")

    def _wait_for(self, sock: socket.socket, phone: SimPhone, state: str) -> None:
        sock.sendall(b"OKAY")
        want_online = state != "disconnect"
        if state not in ("device", "disconnect"):
            send_fail(sock, f"state '{state}' never happens on the simulator")
            return
        with self._changed:
            while phone.online != want_online:
                if self._stopping.is_set() or _peer_closed(sock):
                    return
                self._changed.wait(timeout=0.5)
        sock.sendall(b"OKAY")

    def _track(self, sock: socket.socket, extended: bool) -> None:
        sock.sendall(b"OKAY")
        last = None
        while not self._stopping.is_set():
            text = self._devices_text(extended)
            if text != last:
                sock.sendall(block(text))
                last = text
            with self._changed:
                gen = self._generation
                self._changed.wait_for(partial(self._moved_on, gen), timeout=0.5)
            if _peer_closed(sock):
                return


def _peer_closed(sock: socket.socket) -> bool:
    """True when the client hung up (readable with EOF)."""
    try:
        readable, _, _ = select.select([sock], [], [], 0)
        return bool(readable) and not sock.recv(1, socket.MSG_PEEK)
    except (OSError, ValueError):
        return True
