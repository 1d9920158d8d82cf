"""Draw a step's actions on its screenshot: an SVG in the device's own coordinate system.

The SVG sits absolutely positioned over the thumbnail with ``viewBox`` = device width × height, so
a tap at (540, 1210) lands on the right pixel whatever size the thumbnail is shown at, and the PNG
is never re-encoded.
"""

from __future__ import annotations

import math
import re
import struct
from collections.abc import Sequence
from pathlib import Path

from pytest_artemis.contracts import Action, ActionResult, LongPress, Scroll, Swipe, Tap, TypeText

from .markup import esc

_PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
# The engine's resolved-target detail ("tap 540,1210 on 'Save'") is the only place an element
# tap's coordinates are recorded; without it the tap is listed but not drawn.
_XY = re.compile(r"(\d+)\s*,\s*(\d+)")
_LABEL_MAX = 40


def png_size(path: Path) -> tuple[int, int] | None:
    """Width and height from a PNG's IHDR chunk (no decoding); None if missing or not a PNG."""
    try:
        with path.open("rb") as fh:
            head = fh.read(24)
    except OSError:
        return None
    if len(head) < 24 or not head.startswith(_PNG_MAGIC) or head[12:16] != b"IHDR":
        return None
    width, height = struct.unpack(">II", head[16:24])
    return (width, height) if width and height else None


def _point(action: Tap | LongPress | TypeText, result: ActionResult | None) -> tuple[int, int] | None:
    x, y = getattr(action, "x", None), getattr(action, "y", None)
    if x is not None and y is not None:
        return x, y
    match = _XY.search(result.detail) if result is not None else None
    return (int(match.group(1)), int(match.group(2))) if match else None


class _Pen:
    """Accumulates SVG shapes, sized relative to the screen so they read the same on any device."""

    def __init__(self, width: int, height: int):
        self.w, self.h = width, height
        self.u = max(width, height) / 100.0  # one "unit" = 1 % of the long side
        self.parts: list[str] = []

    def label(self, x: float, y: float, text: str, cls: str) -> None:
        size = 3.4 * self.u
        fits = min(_LABEL_MAX, int((self.w * 0.96 - 2 * self.u) / (0.62 * size)))
        text = text if len(text) <= fits else text[: fits - 1] + "…"
        box_w = min(self.w * 0.96, 0.62 * size * len(text) + 2 * self.u)
        x = min(max(x, 0.02 * self.w), self.w * 0.98 - box_w)
        y = min(max(y, size * 1.4), self.h - size * 0.6)
        self.parts.append(
            f'<g class="ov-label {cls}"><rect x="{x:.0f}" y="{y - size * 1.1:.0f}" width="{box_w:.0f}" '
            f'height="{size * 1.5:.0f}" rx="{self.u:.0f}"/>'
            f'<text x="{x + self.u:.0f}" y="{y:.0f}" font-size="{size:.0f}">{esc(text)}</text></g>'
        )

    def tap(self, x: int, y: int, n: int, long: bool, *, labelled: bool = True) -> None:
        r = 3.2 * self.u
        self.parts.append(
            f'<g class="ov-tap{" ov-long" if long else ""}"><circle cx="{x}" cy="{y}" r="{r:.0f}" '
            f'stroke-width="{0.7 * self.u:.1f}"/>'
            f'<circle cx="{x}" cy="{y}" r="{0.8 * self.u:.0f}" class="dot"/></g>'
        )
        if labelled:
            self.label(x + r * 0.8, y - r * 1.5, f"{n}. {'long press' if long else 'tap'}", "ov-tapl")

    def arrow(self, x1: float, y1: float, x2: float, y2: float, text: str) -> None:
        angle = math.atan2(y2 - y1, x2 - x1)
        head = 3.5 * self.u
        pts = [
            (x2, y2),
            (x2 - head * math.cos(angle - 0.45), y2 - head * math.sin(angle - 0.45)),
            (x2 - head * math.cos(angle + 0.45), y2 - head * math.sin(angle + 0.45)),
        ]
        poly = " ".join(f"{px:.0f},{py:.0f}" for px, py in pts)
        self.parts.append(
            f'<g class="ov-swipe"><line x1="{x1:.0f}" y1="{y1:.0f}" x2="{x2:.0f}" y2="{y2:.0f}" '
            f'stroke-width="{0.8 * self.u:.1f}"/><polygon points="{poly}"/>'
            f'<circle cx="{x1:.0f}" cy="{y1:.0f}" r="{1.2 * self.u:.0f}"/></g>'
        )
        self.label(min(x1, x2), min(y1, y2) - 2 * self.u, text, "ov-swipel")

    def scroll(self, direction: str, n: int) -> None:
        cx, cy, half = self.w / 2, self.h / 2, self.h * 0.18
        dx, dy = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}[direction]
        span = half if dy else self.w * 0.3
        self.arrow(cx - dx * span, cy - dy * span, cx + dx * span, cy + dy * span, f"{n}. scroll {direction}")

    def svg(self) -> str:
        return (
            f'<svg class="overlay" viewBox="0 0 {self.w} {self.h}" preserveAspectRatio="none" '
            f'xmlns="http://www.w3.org/2000/svg" aria-hidden="true">{"".join(self.parts)}</svg>'
        )


def _draw(pen: _Pen, n: int, action: Action, result: ActionResult | None, chip_y: list[float]) -> None:
    if isinstance(action, Tap | LongPress):
        point = _point(action, result)
        if point is not None:
            pen.tap(point[0], point[1], n, isinstance(action, LongPress))
            return
    elif isinstance(action, Swipe):
        pen.arrow(action.x1, action.y1, action.x2, action.y2, f"{n}. swipe")
        return
    elif isinstance(action, Scroll):
        pen.scroll(action.direction, n)
        return
    elif isinstance(action, TypeText):
        point = _point(action, result)
        if point is not None:
            pen.tap(point[0], point[1], n, False, labelled=False)
            pen.label(point[0] - 20 * pen.u, point[1] + 8 * pen.u, f"{n}. ⌨ “{action.text}”", "ov-type")
        else:
            pen.label(pen.w * 0.06, pen.h * 0.62, f"{n}. ⌨ “{action.text}”", "ov-type")
        return
    # Keys, launches, waits, finish and untargeted taps: a chip near the top, one per action.
    pen.label(pen.w * 0.04, chip_y[0], f"{n}. {describe(action)}", "ov-chip")
    chip_y[0] += 5.5 * pen.u


def action_overlay(actions: Sequence[Action], results: Sequence[ActionResult], size: tuple[int, int]) -> str:
    """An SVG overlay drawing ``actions`` (numbered in order) on a screen of ``size`` pixels."""
    pen = _Pen(*size)
    chip_y = [pen.h * 0.08]
    for n, action in enumerate(actions, start=1):
        result = results[n - 1] if n - 1 < len(results) else None
        _draw(pen, n, action, result, chip_y)
    return pen.svg()


def describe(action: Action) -> str:
    """A one-line plain-text description of an action."""
    match action.kind:
        case "tap" | "long_press":
            where = f"#{action.element}" if action.element is not None else f"{action.x},{action.y}"
            return f"{action.kind.replace('_', ' ')} {where}"
        case "swipe":
            return f"swipe {action.x1},{action.y1} → {action.x2},{action.y2}"
        case "scroll":
            return f"scroll {action.direction}"
        case "type":
            target = f" into #{action.element}" if action.element is not None else ""
            return f"type “{action.text}”{target}"
        case "key":
            return f"key {action.key}"
        case "launch":
            return f"launch {action.package}" + (f"/{action.activity}" if action.activity else "")
        case "wait":
            return f"wait {action.ms} ms"
        case _:
            return "finish" + (f": {action.summary}" if action.summary else "")
