"""The Device protocol and the plain values it returns (captures, hierarchies, device info)."""

from __future__ import annotations

import hashlib
import io
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, Protocol, runtime_checkable

from pytest_artemis.contracts import ProbeResult, ProbeSpec, UIElement
from pytest_artemis.contracts._base import Contract

from .probe_table import ProbeTable

if TYPE_CHECKING:
    from PIL import Image

    from .frames import RawFrame

#: Key names the operator may press, mapped to Android key codes for ``input keyevent``.
KEYCODES: dict[str, str] = {
    "BACK": "KEYCODE_BACK",
    "HOME": "KEYCODE_HOME",
    "ENTER": "KEYCODE_ENTER",
    "DEL": "KEYCODE_DEL",
    "APP_SWITCH": "KEYCODE_APP_SWITCH",
    "TAB": "KEYCODE_TAB",
    "SPACE": "KEYCODE_SPACE",
}


class Capture:
    """A verified screenshot as the device sent it (a raw frame, or a PNG), its pixel size and content hash.

    ``sha256`` is the hash of the bytes the device sent for it (the raw frame with its header, or the PNG
    file): it names the screen everywhere (``screens/<sha256>.png``, the OCR cache, the model image cache).
    ``png`` is the lossless PNG of the screen (a raw frame is encoded on first use, once).
    """

    __slots__ = ("_lock", "_png", "frame", "height", "sha256", "width")

    def __init__(self, *, width: int, height: int, sha256: str, png: bytes | None = None,
                 frame: RawFrame | None = None) -> None:
        if (png is None) == (frame is None):
            raise ValueError("a capture is a PNG or a raw frame")
        self.width, self.height, self.sha256 = width, height, sha256
        self.frame = frame
        self._png = png
        self._lock = threading.Lock()

    @classmethod
    def from_png(cls, png: bytes, width: int, height: int) -> Capture:
        """Build a capture of a PNG, hashing its bytes."""
        return cls(width=width, height=height, sha256=hashlib.sha256(png).hexdigest(), png=png)

    @classmethod
    def from_frame(cls, frame: RawFrame, raw: bytes | bytearray | memoryview) -> Capture:
        """Build a capture of a raw frame, hashing ``raw`` (the frame as sent: header and pixels)."""
        sha = hashlib.sha256(raw).hexdigest()
        return cls(width=frame.width, height=frame.height, sha256=sha, frame=frame)

    @property
    def png(self) -> bytes:
        """The screen as a lossless PNG (a raw frame's is encoded once, on first use)."""
        with self._lock:
            if self._png is None:
                assert self.frame is not None  # one of the two is always set
                self._png = self.frame.png()
            return self._png

    def opaque_image(self) -> Image.Image:
        """The screen as an opaque RGB or RGBX image (a raw frame's pixels without a copy where possible)."""
        if self.frame is not None:
            return self.frame.opaque_image()
        from PIL import Image  # Pillow loads with the first screenshot, not with the protocol

        img = Image.open(io.BytesIO(self.png))
        img.load()
        return img if img.mode == "RGB" else img.convert("RGB")

    def __repr__(self) -> str:
        kind = "raw" if self.frame is not None else "png"
        return f"Capture({kind}, {self.width}x{self.height}, sha256={self.sha256[:12]}…)"


@dataclass(frozen=True)
class Hierarchy:
    """A uiautomator dump: the raw XML (kept as evidence) and the parsed, indexed elements."""

    xml: str = field(repr=False)
    elements: tuple[UIElement, ...]


class DeviceInfo(Contract):
    """Identity and screen size of a device."""

    serial: str
    model: str = ""
    sdk: int = 0
    width: int
    height: int


@runtime_checkable
class Device(Protocol):
    """The only way the engine touches a phone: blocking calls, each bounded by a timeout."""

    @property
    def serial(self) -> str:
        """The serial on the device's adb server (what ``adb -s`` takes)."""
        ...

    @property
    def name(self) -> str:
        """How reports and messages name the device: unique across a farm (``HOST:PORT/SERIAL`` for adb)."""
        ...

    @property
    def probe_table(self) -> ProbeTable:
        """The probe kinds this device runs; the checker is told exactly these."""
        ...

    def screenshot(self) -> Capture: ...

    def hierarchy(self) -> Hierarchy: ...

    def tap(self, x: int, y: int) -> None: ...

    def long_press(self, x: int, y: int, duration_ms: int = 800) -> None: ...

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> None: ...

    def type_text(self, text: str) -> None:
        """Type ``text`` at the cursor of the focused field (Android's ``input text``: it inserts, so it
        appends to a field whose cursor is at its end)."""
        ...

    def clear_text(self, chars: int) -> None:
        """Delete up to ``chars`` characters of the focused field: the cursor to the end of its text
        (``KEYCODE_MOVE_END``), then ``chars`` presses of DEL."""
        ...

    def key(self, name: str) -> None: ...

    def launch(self, package: str, activity: str | None = None) -> None: ...

    def stop(self, package: str) -> None: ...

    def reset(self, scope: Literal["app", "full"], package: str | None = None) -> None:
        """Before a run: ``app`` clears ``package``'s data and force-stops it (nothing without a
        package); ``full`` returns the whole device to its initial state, or raises ``UsageError`` on a
        device that has no such reset (a real phone)."""
        ...

    def current_app(self) -> str: ...

    def check(self, argv: Sequence[str], *, timeout: float | None = None) -> str:
        """Run one shell command (argv, each word passed unchanged) and return its output; a non-zero
        exit raises ``DeviceCommandFailed`` with that output. For the harness's deterministic device steps
        (``DeviceSetup``): never the agent's way to act."""
        ...

    def push(self, data: bytes, remote: str) -> None:
        """Write ``data`` to the file ``remote`` on the device (``adb push``: the sync service)."""
        ...

    def probe(self, kind: str, **params: str) -> ProbeResult: ...

    def probe_spec(self, spec: ProbeSpec) -> ProbeResult: ...

    def info(self) -> DeviceInfo: ...
