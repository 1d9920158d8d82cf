"""AdbDevice: the Device protocol over an adb server (local, remote, or the simulated phone)."""

from __future__ import annotations

import contextlib
import io
import logging
import re
import shlex
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Literal, NamedTuple

import adbutils
from adbutils.errors import AdbConnectionError, AdbError, AdbTimeout
from PIL import Image, UnidentifiedImageError

from pytest_artemis.contracts import ProbeResult, ProbeSpec, UsageError
from pytest_artemis.contracts.probe_outputs import PACKAGE_PATTERN, ForegroundOutput, Unreadable

from .base import KEYCODES, Capture, DeviceInfo, Hierarchy
from .errors import DeviceCommandFailed, DeviceError, DeviceTimeout, DeviceUnavailable
from .frames import FormatNotRead, FrameUnusable, parse_frame
from .hierarchy import HierarchyParseError, parse_hierarchy
from .probe_table import ProbeTable, builtin_probes
from .wire import AdbWire, ServiceRefused

log = logging.getLogger(__name__)

_EXIT_MARK = b"__ARTEMIS_EXIT__:"
_UIDUMP = "/data/local/tmp/artemis-uidump.xml"
_SCREENCAP_ERR = "/data/local/tmp/artemis-screencap.err"
# The dump file is removed first, so a failed dump can never hand back the previous screen's file.
_DUMP = f"rm -f {_UIDUMP}; uiautomator dump {_UIDUMP}; cat {_UIDUMP}"
# stderr goes to a file and is printed after the exit status: screencap warns on stderr even when it
# succeeds (e.g. several displays), and exec: would mix that text into the frame's bytes.
_SCREENCAP_THEN = f"cat {_SCREENCAP_ERR}"
_UNAVAILABLE = ("not found", "offline", "unauthorized", "no devices", "closed", "disconnected")
_ACTIVITY = re.compile(r"\.?[A-Za-z_][A-Za-z0-9_$]*(\.[A-Za-z_][A-Za-z0-9_$]*)*")
_SIZE = re.compile(r"(Physical|Override) size:\s*(\d+)x(\d+)")
_XML_END = "</hierarchy>"


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


class _Ran(NamedTuple):
    """A command line's output before its exit status (a view of the buffer read), the status, what
    followed it, and whether the output came through a pty shell (which may have turned every LF into
    CRLF)."""

    out: memoryview
    code: int
    tail: bytes
    pty: bool

    @property
    def text(self) -> bytes:
        """The output as bytes, a pty's CRLF turned back into LF."""
        out = bytes(self.out)
        return out.replace(b"\r\n", b"\n") if self.pty else out


class AdbDevice:
    """One device behind an adb server; every call is bounded by ``timeout_s`` (whole call, not per read).

    Commands run through the ``exec:`` service (no pty: binary-safe) on one connection each; a device
    that refuses ``exec:`` (older than Android 5) is driven through ``shell:`` instead, whose pty output
    is normalised (text) or repaired and re-verified (screenshots). Screenshots are raw frames
    (``screencap`` without ``-p``: no PNG encoded on the phone, none decoded here) where the device's are
    readable here; the first screenshot decides, and a device whose raw frames are not (an HDR pixel
    format, a pty shell) is read as PNG from then on. Screenshots and hierarchy dumps are retried once on a
    failed/undecodable result (transient screencap and ``could not get idle state`` failures are common on
    real devices); a second failure raises DeviceCommandFailed. Nothing else is retried.
    """

    def __init__(self, serial: str, *, host: str = "127.0.0.1", port: int = 5037, timeout_s: float = 20.0,
                 probes: ProbeTable | None = None, name: str | None = None) -> None:
        self._serial = serial
        self._name = name or f"{host}:{port}/{serial}"
        self._timeout = timeout_s
        self._client = adbutils.AdbClient(host=host, port=port, socket_timeout=timeout_s)
        self._wire = AdbWire(self._client, serial, self._name)
        self._exec = True
        self._frames: Literal["raw", "png"] | None = None
        """How this device's screenshots are read: decided by its first screenshot, then kept."""
        self._frame_bytes = 0
        """The size of the last raw frame read: the next read's buffer starts at it."""
        self._probe_table = probes if probes is not None else builtin_probes()
        # One dump file per device: concurrent hierarchy() calls must not remove each other's file.
        self._dump_lock = threading.Lock()

    @property
    def serial(self) -> str:
        return self._serial

    @property
    def name(self) -> str:
        """``HOST:PORT/SERIAL`` (or the name the farm gave it): the device in reports and messages."""
        return self._name

    @property
    def probe_table(self) -> ProbeTable:
        """The probe kinds this device runs (the session's table: built-ins and plugin kinds)."""
        return self._probe_table

    def __repr__(self) -> str:
        return f"AdbDevice({self._name!r})"

    @contextmanager
    def _errors(self, what: str) -> Iterator[None]:
        """Translate adbutils/socket failures into our typed device errors."""
        try:
            yield
        except DeviceError:
            raise
        except (AdbTimeout, TimeoutError) as exc:
            raise DeviceTimeout(f"{self._name}: {what}: no answer within {self._timeout:g}s") from exc
        except AdbConnectionError as exc:
            raise DeviceUnavailable(f"{self._name}: adb server unreachable: {exc}") from exc
        except AdbError as exc:
            message = str(exc)
            if any(word in message.lower() for word in _UNAVAILABLE):
                raise DeviceUnavailable(f"{self._name}: {message}") from exc
            raise DeviceCommandFailed(f"{self._name}: {what}: {message}", command=what) from exc
        except (OSError, EOFError) as exc:
            raise DeviceUnavailable(f"{self._name}: connection lost during {what}: {exc}") from exc

    def _stream(self, command: str, timeout: float | None, size_hint: int = 0) -> tuple[bytearray, bool]:
        """Everything a command line prints (stdout and stderr merged) and whether a pty shell carried it."""
        budget = timeout or self._timeout
        with self._errors(command):
            if self._exec:
                try:
                    return self._wire.read_all("exec:" + command, budget, size_hint), False
                except ServiceRefused:
                    out = self._wire.read_all("shell:" + command, budget, size_hint)
                    self._exec = False
                    return out, True
            return self._wire.read_all("shell:" + command, budget, size_hint), True

    def _run(self, command: str, timeout: float | None = None, then: str = "", size_hint: int = 0) -> _Ran:
        """Run ``command; echo MARK$?[; then]`` and split the output at the exit status."""
        line = f"{command}; echo {_EXIT_MARK.decode()}$?" + (f"; {then}" if then else "")
        out, pty = self._stream(line, timeout, size_hint)
        at = out.rfind(_EXIT_MARK)
        if at < 0:
            raise DeviceCommandFailed(f"{self._name}: {command}: output ended without an exit status",
                                      command=command, output=out[-500:].decode(errors="replace"))
        status, _, tail = bytes(out[at + len(_EXIT_MARK):]).partition(b"\n")
        try:
            code = int(status.strip() or b"-1")
        except ValueError:
            code = -1
        return _Ran(memoryview(out)[:at], code, tail, pty)

    def run(self, argv: Sequence[str], *, timeout: float | None = None) -> tuple[bytes, int]:
        """Run argv (shell-quoted word by word) and return (merged output, exit code)."""
        ran = self._run(_quote(argv), timeout)
        return ran.text, ran.code

    def check(self, argv: Sequence[str], *, timeout: float | None = None) -> str:
        """Run argv; its text output, or DeviceCommandFailed (with the output) on a non-zero exit."""
        out, code = self.run(argv, timeout=timeout)
        text = out.decode("utf-8", errors="replace")
        if code != 0:
            raise DeviceCommandFailed(f"{self._name}: `{_quote(argv)}` exited {code}: {text.strip()[:500]}",
                                      command=_quote(argv), output=text, exit_code=code)
        return text

    def push(self, data: bytes, remote: str) -> None:
        """Write ``data`` to the file ``remote`` on the device (the sync service, as ``adb push`` does)."""
        with self._errors(f"push {remote}"):
            self._wire.push(data, remote, self._timeout)

    # -- screen -------------------------------------------------------------------------------

    def _screencap(self, command: str) -> _Ran:
        """``command`` (``screencap`` or ``screencap -p``) run, its stderr kept apart from its output."""
        ran = self._run(f"{command} 2>{_SCREENCAP_ERR}", then=_SCREENCAP_THEN, size_hint=self._frame_bytes)
        if ran.code != 0:
            text = (ran.tail or bytes(ran.out[:500])).decode("utf-8", errors="replace").strip()[:500]
            raise DeviceCommandFailed(f"{self._name}: `{command}` exited {ran.code}: {text}",
                                      command=command, output=text, exit_code=ran.code)
        return ran

    def _raw_screenshot(self) -> Capture | None:
        """A raw frame; None, and PNG from now on, when this device's raw frames are not readable here."""
        ran = self._screencap("screencap") if self._exec else None
        if ran is None or ran.pty:  # a pty shell turns LF into CRLF: only a PNG's CRCs can undo that
            self._frames = "png"
            return None
        try:
            frame = parse_frame(ran.out)
        except FrameUnusable as exc:
            if self._frames == "raw" and not isinstance(exc, FormatNotRead):
                # this device's frames were readable: this one is broken (truncated), not of another kind
                raise DeviceCommandFailed(f"{self._name}: `screencap` returned no frame: {exc}",
                                          command="screencap", output=str(exc)) from exc
            log.info("%s: raw screen frames unusable (%s): screenshots are PNG", self._name, exc)
            self._frames = "png"
            return None
        self._frames, self._frame_bytes = "raw", len(ran.out) + 256
        return Capture.from_frame(frame, ran.out)

    def _png_screenshot(self) -> Capture:
        ran = self._screencap("screencap -p")
        png = bytes(ran.out)
        try:
            return verified_png(png)
        except DeviceCommandFailed as exc:
            # A pty turns every LF of the PNG into CRLF; undoing it is only trusted if every CRC agrees.
            if ran.pty and b"\r\n" in png:
                with contextlib.suppress(DeviceCommandFailed):
                    return verified_png(png.replace(b"\r\n", b"\n"))
            raise DeviceCommandFailed(f"{self._name}: {exc}", command=exc.command,
                                      output=exc.output) from exc

    def _screenshot_once(self) -> Capture:
        if self._frames != "png":
            capture = self._raw_screenshot()
            if capture is not None:
                return capture
        return self._png_screenshot()

    def screenshot(self) -> Capture:
        """The screen now: a raw frame whose length matches its header, or a PNG whose every chunk's CRC
        checks out; one retry, then an error."""
        try:
            return self._screenshot_once()
        except DeviceCommandFailed:
            return self._screenshot_once()

    def _hierarchy_once(self) -> Hierarchy:
        # Dump and read in one connection: the file never leaves the device through a second service.
        ran = self._run(_DUMP)
        text = bytes(ran.out).decode("utf-8", errors="replace")
        start, end = text.find("<?xml"), text.rfind(_XML_END)
        if start < 0:
            start = text.find("<hierarchy")
        if ran.code != 0 or start < 0 or end < start:
            message = text.strip().replace(_UIDUMP, "<dump>")[:300]
            raise DeviceCommandFailed(f"{self._name}: uiautomator dump failed: {message}",
                                      command="uiautomator dump", output=text[:500])
        xml = text[start:end + len(_XML_END)]
        if ran.pty:
            xml = xml.replace("\r\n", "\n")
        try:
            return Hierarchy(xml=xml, elements=parse_hierarchy(xml))
        except HierarchyParseError as exc:
            raise DeviceCommandFailed(f"{self._name}: unreadable hierarchy: {exc}",
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
        """Type ASCII text at the cursor of the focused field (ValueError for characters ``input text``
        cannot type)."""
        if text:
            self.check(["input", "text", input_text_arg(text)])

    def clear_text(self, chars: int) -> None:
        """Empty the focused field of up to ``chars`` characters: MOVE_END, then DEL ``chars`` times, in one
        ``input keyevent`` (one process on the phone, however many keys)."""
        if chars > 0:
            self.check(["input", "keyevent", "KEYCODE_MOVE_END", *["KEYCODE_DEL"] * chars])

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
            argv = ["am", "start", "-W", "-n", f"{package}/{activity}"]
        else:
            argv = ["monkey", "-p", package, "-c", "android.intent.category.LAUNCHER", "1"]
        # monkey exits non-zero for an app that is not installed: not a broken device
        raw, code = self.run(argv)
        out = raw.decode("utf-8", errors="replace")
        if code != 0 or "Error" in out or "No activities found" in out or "aborted" in out:
            raise DeviceCommandFailed(f"{self._name}: cannot launch {package}: {out.strip()[:300]}",
                                      command="launch", output=out)

    def stop(self, package: str) -> None:
        _check_package(package)
        self.check(["am", "force-stop", package])

    def reset(self, scope: Literal["app", "full"], package: str | None = None) -> None:
        """``pm clear`` + ``am force-stop`` of ``package``, or the simulated phone's ``simctl reset``."""
        if scope == "app":
            if package is not None:
                _check_package(package)
                self.check(["pm", "clear", package])
                self.check(["am", "force-stop", package])
            return
        _, code = self.run(["simctl", "reset"])
        if code != 0:
            raise UsageError(f"{self._name} has no full reset (only the simulated phone has one): use "
                             "reset='app' (the goal's app data cleared) or reset='none'")

    def current_app(self) -> str:
        """Package of the resumed activity (empty string when none is known)."""
        parsed = self.probe("foreground").parsed
        return (parsed.package or "") if isinstance(parsed, ForegroundOutput) else ""

    # -- probes and info ----------------------------------------------------------------------

    def probe(self, kind: str, **params: str) -> ProbeResult:
        """Run one probe from the table (ProbeRefused for anything not in it)."""
        return self.probe_spec(ProbeSpec(kind=kind, params=params))

    def probe_spec(self, spec: ProbeSpec) -> ProbeResult:
        """Run a validated probe; a non-zero exit keeps the raw output and makes ``parsed`` Unreadable."""
        argv = self._probe_table.argv(spec)
        out, code = self.run(argv)
        raw = out.decode("utf-8", errors="replace")
        parsed = (self._probe_table.parse(spec, raw) if code == 0
                  else Unreadable(reason=f"`{_quote(argv)}` exited {code}"))
        log.debug("probe %s on %s: exit %d, %s", spec.kind, self.serial, code, type(parsed).__name__)
        return ProbeResult(spec=spec, argv=tuple(argv), raw=raw, exit_code=code, parsed=parsed)

    def info(self) -> DeviceInfo:
        """Serial, model, SDK level and the current screen size (override size if one is set)."""
        model = self.check(["getprop", "ro.product.model"]).strip()
        sdk = self.check(["getprop", "ro.build.version.sdk"]).strip()
        sizes = {m.group(1): (int(m.group(2)), int(m.group(3)))
                 for m in _SIZE.finditer(self.check(["wm", "size"]))}
        size = sizes.get("Override") or sizes.get("Physical")
        if size is None:
            raise DeviceCommandFailed(f"{self._name}: `wm size` printed no size", command="wm size")
        return DeviceInfo(serial=self._serial, model=model, sdk=int(sdk) if sdk.isdigit() else 0,
                          width=size[0], height=size[1])


def _check_package(package: str) -> None:
    if not re.fullmatch(PACKAGE_PATTERN, package):
        raise ValueError(f"not an Android package name: {package!r}")


def verified_png(data: bytes) -> Capture:
    """A Capture of ``data`` once it is a complete PNG whose every chunk's CRC checks out.

    ``verify()`` reads every chunk without decompressing pixels: a truncated or corrupt capture is caught
    for a fraction of a full decode.
    """
    try:
        with Image.open(io.BytesIO(data)) as img:
            img.verify()
            width, height = img.size
            fmt = img.format
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        preview = data[:200].decode("utf-8", errors="replace")
        raise DeviceCommandFailed(f"screencap returned an undecodable image ({len(data)} bytes): {exc}",
                                  command="screencap -p", output=preview) from exc
    if fmt != "PNG":
        raise DeviceCommandFailed(f"screencap returned {fmt}, not PNG", command="screencap -p")
    return Capture.from_png(data, width, height)
