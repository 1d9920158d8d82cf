"""Draw a step's actions and cited evidence on its screenshot: an SVG in the device's coordinate system.

The SVG sits over the image with ``viewBox`` = device width × height, so a tap at (540, 1210) lands on the
right pixel at any display size and the PNG is never re-encoded. Positions come from the typed action
results (``ActionResult.at``/``to``/``element``) and verdict citations, never from prose. Every label is
placed outside the rectangle it points at (and away from the other marks) and joined to it by a leader
line, so a label never hides the control it names; a label that fits nowhere is left out (the action list
still names it). Each label carries its target rectangle in ``data-target`` for tools and tests.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pytest_artemis.contracts import Action, ActionResult, Citation, Point

from .markup import esc

_PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
_LABEL_MAX = 36
Rect = tuple[float, float, float, float]


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


def _overlaps(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@dataclass(frozen=True)
class Mark:
    """Something drawn for one action or citation: its shape's rectangle and its label."""

    target: Rect
    label: str
    cls: str


class Pen:
    """Accumulates SVG shapes sized relative to the screen, and places labels clear of every mark."""

    def __init__(self, width: int, height: int) -> None:
        self.w, self.h = width, height
        self.u = max(width, height) / 100.0  # one "unit" = 1 % of the long side
        self.shapes: list[str] = []
        self.labels: list[str] = []
        self.taken: list[Rect] = []  # every target and every placed label

    def _box(self, text: str) -> tuple[str, float, float]:
        size = 3.0 * self.u
        fits = min(_LABEL_MAX, int(self.w * 0.9 / (0.64 * size)))
        text = text if len(text) <= fits else text[: fits - 1] + "…"
        return text, 0.64 * size * len(text) + 2 * self.u, size * 1.6

    def _free(self, box: Rect, target: Rect) -> bool:
        if box[1] < 0 or box[3] > self.h or _overlaps(box, target):
            return False
        return not any(_overlaps(box, other) for other in self.taken)

    def _spot(self, target: Rect, bw: float, bh: float) -> Rect | None:
        """A place for a ``bw`` × ``bh`` label clear of ``target`` and every mark: right next to the target
        (below, above, right, left) when there is room, else the free place nearest to it on the screen."""
        gap = 2.5 * self.u
        cx, cy = (target[0] + target[2]) / 2, (target[1] + target[3]) / 2
        near = [
            (cx - bw / 2, target[3] + gap),
            (cx - bw / 2, target[1] - gap - bh),
            (target[2] + gap, cy - bh / 2),
            (target[0] - gap - bw, cy - bh / 2),
        ]
        far = [
            (x, y)
            for y in (i * bh / 2 for i in range(int((self.h - bh) / (bh / 2)) + 1))
            for x in (0.0, (self.w - bw) / 2, self.w - bw)
        ]
        far.sort(key=lambda p: (p[0] + bw / 2 - cx) ** 2 + (p[1] + bh / 2 - cy) ** 2)
        for x, y in near + far:
            x = min(max(x, 0.01 * self.w), self.w * 0.99 - bw)
            box = (x, y, x + bw, y + bh)
            if self._free(box, target):
                return box
        return None

    def label(self, mark: Mark) -> None:
        """Place ``mark``'s label clear of every mark so far, with a leader line to its target."""
        text, bw, bh = self._box(mark.label)
        box = self._spot(mark.target, bw, bh)
        if box is None:
            return
        self.taken.append(box)
        t = mark.target
        tx, ty = min(max((box[0] + box[2]) / 2, t[0]), t[2]), min(max((box[1] + box[3]) / 2, t[1]), t[3])
        lx, ly = min(max(tx, box[0]), box[2]), min(max(ty, box[1]), box[3])
        target = ",".join(f"{v:.0f}" for v in t)
        self.labels.append(
            f'<g class="ov-label {mark.cls}" data-target="{target}">'
            f'<line x1="{lx:.0f}" y1="{ly:.0f}" x2="{tx:.0f}" y2="{ty:.0f}" '
            f'stroke-width="{0.5 * self.u:.1f}"/>'
            f'<rect x="{box[0]:.0f}" y="{box[1]:.0f}" width="{bw:.0f}" height="{bh:.0f}" rx="{self.u:.0f}"/>'
            f'<text x="{box[0] + self.u:.0f}" y="{box[1] + bh * 0.72:.0f}" font-size="{3.0 * self.u:.0f}" '
            f'textLength="{bw - 2 * self.u:.0f}" lengthAdjust="spacingAndGlyphs">{esc(text)}</text></g>'
        )

    def claim(self, target: Rect) -> None:
        self.taken.append(target)

    def tap(self, at: Point, bounds: Rect | None, long: bool) -> Rect:
        r = 3.0 * self.u
        if bounds is not None:
            x1, y1, x2, y2 = bounds
            self.shapes.append(
                f'<rect class="ov-target" x="{x1:.0f}" y="{y1:.0f}" width="{x2 - x1:.0f}" '
                f'height="{y2 - y1:.0f}" stroke-width="{0.45 * self.u:.1f}"/>'
            )
        self.shapes.append(
            f'<g class="ov-tap{" ov-long" if long else ""}"><circle cx="{at.x}" cy="{at.y}" r="{r:.0f}" '
            f'stroke-width="{0.7 * self.u:.1f}"/><circle cx="{at.x}" cy="{at.y}" r="{0.8 * self.u:.0f}" '
            f'class="dot"/></g>'
        )
        ring = (at.x - r, at.y - r, at.x + r, at.y + r)
        if bounds is None:
            return ring
        return (
            min(bounds[0], ring[0]),
            min(bounds[1], ring[1]),
            max(bounds[2], ring[2]),
            max(bounds[3], ring[3]),
        )

    def arrow(self, start: Point, end: Point) -> Rect:
        angle = math.atan2(end.y - start.y, end.x - start.x)
        head = 3.5 * self.u
        pts = [
            (end.x, end.y),
            (end.x - head * math.cos(angle - 0.45), end.y - head * math.sin(angle - 0.45)),
            (end.x - head * math.cos(angle + 0.45), end.y - head * math.sin(angle + 0.45)),
        ]
        poly = " ".join(f"{px:.0f},{py:.0f}" for px, py in pts)
        self.shapes.append(
            f'<g class="ov-swipe"><line x1="{start.x}" y1="{start.y}" x2="{end.x}" y2="{end.y}" '
            f'stroke-width="{0.8 * self.u:.1f}"/><polygon points="{poly}"/>'
            f'<circle cx="{start.x}" cy="{start.y}" r="{1.2 * self.u:.0f}"/></g>'
        )
        r = 1.5 * self.u
        return (start.x - r, start.y - r, start.x + r, start.y + r)

    def evidence(self, bounds: Rect, cls: str) -> Rect:
        x1, y1, x2, y2 = bounds
        self.shapes.append(
            f'<rect class="ov-evidence {cls}" x="{x1:.0f}" y="{y1:.0f}" width="{x2 - x1:.0f}" '
            f'height="{y2 - y1:.0f}" stroke-width="{0.6 * self.u:.1f}"/>'
        )
        return bounds

    def svg(self) -> str:
        return (
            f'<svg class="overlay" viewBox="0 0 {self.w} {self.h}" preserveAspectRatio="none" '
            f'xmlns="http://www.w3.org/2000/svg" aria-hidden="true">{"".join(self.shapes)}'
            f"{''.join(self.labels)}</svg>"
        )


def _action_mark(pen: Pen, n: int, action: Action, result: ActionResult) -> Mark | None:
    """Draw one executed action's shape; returns its label to place, or None when it has no place."""
    bounds = result.element.bounds if result.element is not None else None
    rect = (bounds.left, bounds.top, bounds.right, bounds.bottom) if bounds is not None else None
    if action.kind in ("tap", "long_press") and result.at is not None:
        word = "long press" if action.kind == "long_press" else "tap"
        return Mark(pen.tap(result.at, rect, action.kind == "long_press"), f"{n}. {word}", "ov-tapl")
    if action.kind == "type":
        target = pen.tap(result.at, rect, False) if result.at is not None else None
        text = f"{n}. ⌨ “{result.typed if result.typed is not None else action.text}”"
        if target is not None:
            return Mark(target, text, "ov-type")
    if action.kind in ("swipe", "scroll") and result.at is not None and result.to is not None:
        word = "swipe" if action.kind == "swipe" else f"scroll {action.direction}"
        return Mark(pen.arrow(result.at, result.to), f"{n}. {word}", "ov-swipel")
    return None  # keys, launches, waits, finish: named under the screenshot, never drawn over it


def drawn(result: ActionResult) -> bool:
    """Whether :func:`step_overlay` draws this action (it has a recorded place on the screen)."""
    kind = result.action.kind
    if not result.ok or result.at is None:
        return False
    return kind in ("tap", "long_press", "type") or (kind in ("swipe", "scroll") and result.to is not None)


def step_overlay(
    results: Sequence[ActionResult],
    citations: Sequence[tuple[Citation, str, str]],
    size: tuple[int, int],
) -> str:
    """An SVG drawing ``results`` (numbered in order) and cited evidence on a screen of ``size`` pixels.

    ``citations`` are (citation with bounds, label, CSS class) to outline. Refused actions are not drawn.
    """
    pen = Pen(*size)
    marks: list[Mark] = []
    for n, result in enumerate(results, start=1):
        if drawn(result):
            mark = _action_mark(pen, n, result.action, result)
            if mark is not None:
                marks.append(mark)
    for citation, text, cls in citations:
        if citation.bounds is not None:
            marks.append(Mark(pen.evidence(citation.bounds, cls), text, f"ov-evl {cls}"))
    for mark in marks:
        pen.claim(mark.target)
    for mark in marks:
        pen.label(mark)
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
        case "type_secret":
            target = f" into #{action.element}" if action.element is not None else ""
            return f"type the secret {action.name!r}{target}"
        case "key":
            return f"key {action.key}"
        case "launch":
            return f"launch {action.package}" + (f"/{action.activity}" if action.activity else "")
        case "wait":
            return f"wait {action.ms} ms"
        case "give_up":
            return f"give up: {action.reason}"
        case _:
            return "finish" + (f": {action.summary}" if action.summary else "")
