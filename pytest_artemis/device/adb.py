"""AdbDevice: the Device protocol over an adb server (local, remote, or the simulated phone)."""

from __future__ import annotations

import io
import re
import shlex
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import adbutils
from adbutils.errors import AdbConnectionError, AdbError, AdbTimeout
from PIL import Image, UnidentifiedImageError

from pytest_artemis.contracts import ProbeResult, ProbeSpec

from .base import KEYCODES, Capture, DeviceInfo, Hierarchy
from .errors import DeviceCommandFailed, DeviceError, DeviceTimeout, DeviceUnavailable
from .hierarchy import HierarchyParseError, parse_hierarchy
from .probes import DEFAULT_PROBES, PACKAGE_PATTERN, ProbeTable

_EXIT_MARK = b"__ARTEMIS_EXIT__:"
_UIDUMP = "/data/local/tmp/uidump.xml"
_UNAVAILABLE = ("not found", "offline", "unauthorized", "no devices", "closed", "disconnected")
_ACTIVITY = re.compile(r"\.?[A-Za-z_][A-Za-z0-9_$]*(\.[A-Za-z_][A-Za-z0-9_$]*)*")
_SIZE = re.compile(r"(Physical|Override) size:\s*(\d+)x(\d+)")


def _quote(argv: Sequence[str]) -> str:
    """One shell command line in which every argv word reaches the program unchanged."""
    return " ".join(shlex.quote(a) for a in argv)


def input_text_arg(text: str) -> str:
    """The ``input text`` argument for ``text``: printable ASCII, spaces written as ``%s``.

    ``input text`` injects key events from the US keymap, so only printable ASCII can be typed;
    anything else raises ValueError (use the app's own paste/IME path for other scripts).
    Shell-special characters need no escaping here: the argv is shell-quoted as a whole.
    """
    bad = sorted({c for c in text if not (" " <= c <= "~")})
    if bad:
        raise ValueError(f"`input text` only supports printable ASCII; cannot type {''.join(bad)!r}")
    return text.replace(" ", "%s")


class AdbDevice:
    """One device behind an adb server; every call is bounded by ``timeout_s`` (whole call, not per read).

    Screenshots and hierarchy dumps are retried once on a failed/undecodable result (transient
    screencap and ``could not get idle state`` failures are common on real devices); a second failure
    raises DeviceCommandFailed. Nothing else is retried.
    """

    def __init__(self, serial: str, *, host: str = "127.0.0.1", port: int = 5037, timeout_s: float = 20.0,
                 probes: ProbeTable | None = None) -> None:
        self._serial = serial
        self._timeout = timeout_s
        self._client = adbutils.AdbClient(host=host, port=port, socket_timeout=timeout_s)
        self._dev = self._client.device(serial=serial)
        self.probes = probes if probes is not None else DEFAULT_PROBES
        # One dump file per device: concurrent hierarchy() calls must not interleave dump and pull.
        self._dump_lock = threading.Lock()

    @property
    def serial(self) -> str:
        return self._serial

    def __repr__(self) -> str:
        return f"AdbDevice({self._serial!r}, {self._client.host}:{self._client.port})"

    @contextmanager
    def _errors(self, what: str) -> Iterator[None]:
        """Translate adbutils/socket failures into our typed device errors."""
        try:
            yield
        except DeviceError:
            raise
        except (AdbTimeout, TimeoutError) as exc:
            raise DeviceTimeout(f"{self._serial}: {what}: no answer within {self._timeout:g}s") from exc
        except AdbConnectionError as exc:
            raise DeviceUnavailable(f"{self._serial}: adb server unreachable: {exc}") from exc
        except AdbError as exc:
            message = str(exc)
            if any(word in message.lower() for word in _UNAVAILABLE):
                raise DeviceUnavailable(f"{self._serial}: {message}") from exc
            raise DeviceCommandFailed(f"{self._serial}: {what}: {message}", command=what) from exc
        except (OSError, EOFError) as exc:
            raise DeviceUnavailable(f"{self._serial}: connection lost during {what}: {exc}") from exc

    def _shell_bytes(self, command: str, timeout: float | None = None) -> bytes:
        """Run a shell command line; merged stdout+stderr, read until close, within the deadline."""
        budget = timeout or self._timeout
        deadline = time.monotonic() + budget
        with self._errors(command):
            conn = self._dev.open_transport(timeout=budget)
            try:
                conn.send_command("shell:" + command)
                conn.check_okay()
                chunks = bytearray()
                while True:
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        raise DeviceTimeout(f"{self._serial}: {command}: no end within {budget:g}s")
                    conn.conn.settimeout(remaining)
                    try:
                        chunk = conn.conn.recv(65536)
                    except TimeoutError as exc:
                        raise DeviceTimeout(f"{self._serial}: {command}: no end within {budget:g}s") from exc
                    if not chunk:
                        return bytes(chunks)
                    chunks += chunk
            finally:
                conn.close()

    def run(self, argv: Sequence[str], *, timeout: float | None = None) -> tuple[bytes, int]:
        """Run argv (shell-quoted word by word) and return (merged output, exit code)."""
        command = _quote(argv)
        out = self._shell_bytes(f"{command}; echo {_EXIT_MARK.decode()}$?", timeout)
        at = out.rfind(_EXIT_MARK)
        if at < 0:
            raise DeviceCommandFailed(f"{self._serial}: {command}: output ended without an exit status",
                                      command=command, output=out[-500:].decode(errors="replace"))
        try:
            code = int(out[at + len(_EXIT_MARK):].strip() or b"-1")
        except ValueError:
            code = -1
        return out[:at], code

    def check(self, argv: Sequence[str], *, timeout: float | None = None) -> str:
        """Run argv; its text output, or DeviceCommandFailed (with the output) on a non-zero exit."""
        out, code = self.run(argv, timeout=timeout)
        text = out.decode("utf-8", errors="replace")
        if code != 0:
            raise DeviceCommandFailed(f"{self._serial}: `{_quote(argv)}` exited {code}: {text.strip()[:500]}",
                                      command=_quote(argv), output=text, exit_code=code)
        return text

    # -- screen -------------------------------------------------------------------------------

    def _screenshot_once(self) -> Capture:
        out = self.check_bytes(["screencap", "-p"])
        try:
            with Image.open(io.BytesIO(out)) as img:
                # verify() checks every chunk's CRC and a complete file without decompressing pixels:
                # a truncated or corrupt capture is caught for a fraction of a full decode.
                img.verify()
                width, height = img.size
                fmt = img.format
        except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
            preview = out[:200].decode("utf-8", errors="replace")
            raise DeviceCommandFailed(f"{self._serial}: screencap returned an undecodable image "
                                      f"({len(out)} bytes): {exc}", command="screencap -p",
                                      output=preview) from exc
        if fmt != "PNG":
            raise DeviceCommandFailed(f"{self._serial}: screencap returned {fmt}, not PNG",
                                      command="screencap -p")
        return Capture.from_png(out, width, height)

    def check_bytes(self, argv: Sequence[str]) -> bytes:
        """Like ``check`` but returns the raw bytes (for binary output such as PNG)."""
        out, code = self.run(argv)
        if code != 0:
            text = out[:500].decode("utf-8", errors="replace").strip()
            raise DeviceCommandFailed(f"{self._serial}: `{_quote(argv)}` exited {code}: {text}",
                                      command=_quote(argv), output=text, exit_code=code)
        return out

    def screenshot(self) -> Capture:
        """A verified PNG capture (complete, every chunk's CRC checked); one retry, then an error."""
        try:
            return self._screenshot_once()
        except DeviceCommandFailed:
            return self._screenshot_once()

    def _hierarchy_once(self) -> Hierarchy:
        text = self.check(["uiautomator", "dump", _UIDUMP])
        if "ERROR" in text or "dumped to" not in text:
            raise DeviceCommandFailed(f"{self._serial}: uiautomator dump failed: {text.strip()[:300]}",
                                      command="uiautomator dump", output=text)
        with self._errors(f"pull {_UIDUMP}"):
            xml = self._dev.sync.read_text(_UIDUMP)
        try:
            return Hierarchy(xml=xml, elements=parse_hierarchy(xml))
        except HierarchyParseError as exc:
            raise DeviceCommandFailed(f"{self._serial}: unreadable hierarchy: {exc}",
                                      command="uiautomator dump", output=xml[:300]) from exc

    def hierarchy(self) -> Hierarchy:
        """The parsed uiautomator dump; one retry (e.g. ``could not get idle state``)."""
        with self._dump_lock:
            try:
                return self._hierarchy_once()
            except DeviceCommandFailed:
                return self._hierarchy_once()

    # -- input --------------------------------------------------------------------------------

    def tap(self, x: int, y: int) -> None:
        self.check(["input", "tap", str(int(x)), str(int(y))])

    def long_press(self, x: int, y: int, duration_ms: int = 800) -> None:
        # A swipe that does not move is Android's long press for `input`.
        self.swipe(x, y, x, y, duration_ms)

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> None:
        self.check(["input", "swipe", *(str(int(v)) for v in (x1, y1, x2, y2, duration_ms))])

    def type_text(self, text: str) -> None:
        """Type ASCII text into the focused field (ValueError for characters ``input text`` cannot type)."""
        if text:
            self.check(["input", "text", input_text_arg(text)])

    def key(self, name: str) -> None:
        """Press a named key (BACK, HOME, ENTER, DEL, APP_SWITCH, TAB, SPACE)."""
        try:
            code = KEYCODES[name.upper()]
        except KeyError:
            raise ValueError(f"unknown key {name!r}; known: {', '.join(KEYCODES)}") from None
        self.check(["input", "keyevent", code])

    # -- apps ---------------------------------------------------------------------------------

    def launch(self, package: str, activity: str | None = None) -> None:
        """Start an app (its launcher activity, or ``activity``); DeviceCommandFailed if it does not exist."""
        _check_package(package)
        if activity:
            if not _ACTIVITY.fullmatch(activity):
                raise ValueError(f"not an activity class name: {activity!r}")
            out = self.check(["am", "start", "-W", "-n", f"{package}/{activity}"])
        else:
            out = self.check(["monkey", "-p", package, "-c", "android.intent.category.LAUNCHER", "1"])
        if "Error" in out or "No activities found" in out or "aborted" in out:
            raise DeviceCommandFailed(f"{self._serial}: cannot launch {package}: {out.strip()[:300]}",
                                      command="launch", output=out)

    def stop(self, package: str) -> None:
        _check_package(package)
        self.check(["am", "force-stop", package])

    def current_app(self) -> str:
        """Package of the resumed activity (empty string when none is known)."""
        parsed = self.probe("foreground").parsed
        package = parsed.get("package") if isinstance(parsed, dict) else None
        return package if isinstance(package, str) else ""

    # -- probes and info ----------------------------------------------------------------------

    def probe(self, kind: str, **params: str) -> ProbeResult:
        """Run one probe from the table (ProbeRefused for anything not in it)."""
        return self.probe_spec(ProbeSpec(kind=kind, params=params))

    def probe_spec(self, spec: ProbeSpec) -> ProbeResult:
        """Run a validated probe; a non-zero exit keeps the raw output and leaves ``parsed`` None."""
        argv = self.probes.argv(spec)
        out, code = self.run(argv)
        raw = out.decode("utf-8", errors="replace")
        parsed = self.probes.parse(spec, raw) if code == 0 else None
        return ProbeResult(spec=spec, argv=tuple(argv), raw=raw, exit_code=code, parsed=parsed)

    def info(self) -> DeviceInfo:
        """Serial, model, SDK level and the current screen size (override size if one is set)."""
        model = self.check(["getprop", "ro.product.model"]).strip()
        sdk = self.check(["getprop", "ro.build.version.sdk"]).strip()
        sizes = {m.group(1): (int(m.group(2)), int(m.group(3)))
                 for m in _SIZE.finditer(self.check(["wm", "size"]))}
        size = sizes.get("Override") or sizes.get("Physical")
        if size is None:
            raise DeviceCommandFailed(f"{self._serial}: `wm size` printed no size", command="wm size")
        return DeviceInfo(serial=self._serial, model=model, sdk=int(sdk) if sdk.isdigit() else 0,
                          width=size[0], height=size[1])


def _check_package(package: str) -> None:
    if not re.fullmatch(PACKAGE_PATTERN, package):
        raise ValueError(f"not an Android package name: {package!r}")
