"""Fault injection for a simulated phone.

Every fault is deterministic: counted in requests or input commands, never in
wall time (except ``slow_screencap``, whose whole point is wall-clock delay).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .frames import HEADERS, PIXEL_FORMATS

if TYPE_CHECKING:
    from .phone import SimPhone
    from .widgets import Node

CLOCK_PACKAGE = "com.google.android.deskclock"


class Faults:
    """Faults of one phone; reach it as ``phone.faults``."""

    def __init__(self, phone: SimPhone):
        self._phone = phone
        self._reset()

    def _reset(self) -> None:
        self.screencap_delay_s = 0.0
        self._screencap_fail: int | None = 0
        self._uiautomator_fail: int | None = 0
        self._pending_crash: tuple[str, int] | None = None
        self._ignore: list[tuple[str | None, str | None]] = []
        self._offline_requests: int | None = None
        self.toasts_hidden = False
        self.shell_crlf = False
        self.exec_refused = False
        self.raw_frame: tuple[str, int] = ("RGBA_8888", 16)

    def crash_dialog(self, package: str = CLOCK_PACKAGE, after_inputs: int = 0) -> None:
        """Crash ``package`` now, or after ``after_inputs`` more input commands:
        its task dies and a "<App> keeps stopping" dialog (Close app / App info) shows."""
        with self._phone.lock:
            if after_inputs <= 0:
                self._pending_crash = None
                self._phone.crash(package)
            else:
                self._pending_crash = (package, after_inputs)

    def slow_screencap(self, seconds: float) -> None:
        """Delay every ``screencap`` by ``seconds`` of wall time (0 turns it off)."""
        with self._phone.lock:
            self.screencap_delay_s = max(0.0, float(seconds))

    def fail_screencap(self, times: int | None = 1) -> None:
        """Make the next ``times`` screencaps fail (exit 1, error on stderr); None = forever."""
        with self._phone.lock:
            self._screencap_fail = times

    def fail_uiautomator(self, times: int | None = 1) -> None:
        """Make the next ``times`` ``uiautomator dump`` print
        ``ERROR: could not get idle state.`` and write no file; None = forever."""
        with self._phone.lock:
            self._uiautomator_fail = times

    def legacy_adbd(self, crlf: bool = True, refuse_exec: bool = True) -> None:
        """Behave like an adbd older than Android 5 (and some emulators): ``shell:`` runs in a pty that
        turns every LF of the output into CRLF (a PNG is mangled), and ``exec:`` is refused."""
        with self._phone.lock:
            self.shell_crlf, self.exec_refused = bool(crlf), bool(refuse_exec)

    def raw_screencap(self, pixel_format: str = "RGBA_8888", header: int = 16) -> None:
        """Write raw frames (``screencap`` without ``-p``) as a display of ``pixel_format`` does (see
        ``frames.PIXEL_FORMATS``: ``RGBA_1010102`` is a 10-bit HDR display's), with the 12-byte header of
        Android 8 and older or the 16-byte one of Android 9 and newer (the default: RGBA_8888, 16)."""
        if pixel_format not in PIXEL_FORMATS or header not in HEADERS:
            raise ValueError(f"raw frames are one of {', '.join(PIXEL_FORMATS)} with a 12- or 16-byte "
                             f"header, not {pixel_format} with {header}")
        with self._phone.lock:
            self.raw_frame = (pixel_format, header)

    def go_offline(self, requests: int | None = None) -> None:
        """Show the device as ``offline``; transport requests FAIL with ``device offline``.
        With ``requests=N`` it comes back online after refusing N transport requests."""
        with self._phone.lock:
            self._offline_requests = requests
            self._phone.set_online(False)

    def come_online(self) -> None:
        """Bring the device back to the ``device`` state."""
        with self._phone.lock:
            self._offline_requests = None
            self._phone.set_online(True)

    def ignore_taps(self, text: str | None = None, resource_id: str | None = None) -> None:
        """Swallow taps on views with this text or resource id (the tap still costs time)."""
        if text is None and resource_id is None:
            raise ValueError("ignore_taps needs text= or resource_id=")
        with self._phone.lock:
            self._ignore.append((text, resource_id))

    def hide_toasts(self, hidden: bool = True) -> None:
        """Apps show no toast while on (an app that never confirms): transient evidence that never
        appeared must not be found by any check."""
        with self._phone.lock:
            self.toasts_hidden = hidden

    def clear(self) -> None:
        """Remove every fault and bring the device online (a shown dialog stays)."""
        with self._phone.lock:
            self._reset()
            self._phone.set_online(True)

    # -- hooks used by the phone and the server ---------------------------------

    @staticmethod
    def _take(counter: int | None) -> tuple[bool, int | None]:
        if counter is None:
            return True, None
        if counter > 0:
            return True, counter - 1
        return False, 0

    def take_screencap_failure(self) -> bool:
        """Consume one screencap failure if armed."""
        hit, self._screencap_fail = self._take(self._screencap_fail)
        return hit

    def take_uiautomator_failure(self) -> bool:
        """Consume one uiautomator failure if armed."""
        hit, self._uiautomator_fail = self._take(self._uiautomator_fail)
        return hit

    def refuse_transport(self) -> bool:
        """Called per transport request while offline; counts down ``go_offline(requests=N)``."""
        if self._phone.online:
            return False
        if self._offline_requests is not None:
            self._offline_requests -= 1
            if self._offline_requests <= 0:
                self._offline_requests = None
                self._phone.set_online(True)
        return True

    def after_input(self) -> None:
        """Count one input command towards a pending crash."""
        if self._pending_crash is None:
            return
        pkg, left = self._pending_crash
        if left <= 1:
            self._pending_crash = None
            self._phone.crash(pkg)
        else:
            self._pending_crash = (pkg, left - 1)

    def ignores(self, node: Node) -> bool:
        """True when a tap on ``node`` must be swallowed: it, or a view inside it
        (e.g. the title of a clickable row), has an ignored text or resource id."""
        return any((t is not None and n.text == t) or (r is not None and n.rid == r)
                   for t, r in self._ignore for n in node.walk())

    def describe(self) -> dict:
        """Armed faults as plain data (for ``simctl state``)."""
        return {
            "screencap_delay_s": self.screencap_delay_s,
            "screencap_fail": "forever" if self._screencap_fail is None else self._screencap_fail,
            "uiautomator_fail": "forever" if self._uiautomator_fail is None
            else self._uiautomator_fail,
            "pending_crash": list(self._pending_crash) if self._pending_crash else None,
            "ignore_taps": [{"text": t, "resource_id": r} for t, r in self._ignore],
            "shell_crlf": self.shell_crlf,
            "exec_refused": self.exec_refused,
            "raw_frame": list(self.raw_frame),
            "toasts_hidden": self.toasts_hidden,
        }
