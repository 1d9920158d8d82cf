"""Draw a widget tree into an image with Pillow (``frames`` encodes it as ``screencap`` writes it).

Text uses a real TrueType font (DejaVu Sans when installed) at 40-64 px with
high contrast so both people and OCR can read screenshots.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from .widgets import Node

LIGHT = {
    "bg": "#FFFFFF", "surface": "#F1F3F4", "text": "#1F1F1F", "text2": "#444746",
    "primary": "#0B57D0", "on_primary": "#FFFFFF", "divider": "#DADCE0",
    "track_off": "#9AA0A6", "fab": "#D3E3FD", "on_fab": "#041E49", "toast": "#303030",
    "on_toast": "#FFFFFF", "status": "#F1F3F4", "error": "#B3261E", "card": "#E8EAED",
}
DARK = {
    "bg": "#121212", "surface": "#242628", "text": "#E8EAED", "text2": "#C4C7C5",
    "primary": "#A8C7FA", "on_primary": "#062E6F", "divider": "#3C4043",
    "track_off": "#5F6368", "fab": "#004A77", "on_fab": "#C2E7FF", "toast": "#E8EAED",
    "on_toast": "#1F1F1F", "status": "#1B1B1B", "error": "#F2B8B5", "card": "#303134",
}
_FONT_DIRS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/TTF", "/usr/share/fonts/dejavu")


@lru_cache(maxsize=2)
def _font_path(bold: bool) -> str | None:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    for d in _FONT_DIRS:
        if os.path.exists(os.path.join(d, name)):
            return os.path.join(d, name)
    if shutil.which("fc-match"):
        # Ask fontconfig once per weight; the answer is cached for the process.
        pattern = "sans-serif:bold" if bold else "sans-serif"
        out = subprocess.run(
            ["fc-match", "-f", "%{file}", pattern], capture_output=True, text=True, check=False
        ).stdout.strip()
        if out.endswith((".ttf", ".otf")) and os.path.exists(out):
            return out
    return None


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """A cached font of ``size`` px (Pillow's scalable default font as a fallback)."""
    path = _font_path(bold)
    if path:
        return ImageFont.truetype(path, size)
    return ImageFont.load_default(size=size)


def _fit(text: str, fnt, width: int) -> str:
    if fnt.getlength(text) <= width:
        return text
    while text and fnt.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"


class _Painter:
    def __init__(self, img: Image.Image, pal: dict[str, str], scale: float):
        self.img = img
        self.d = ImageDraw.Draw(img)
        self.p = pal
        self.k = scale

    def s(self, v: float) -> int:
        return max(1, round(v * self.k))

    def col(self, node: Node, default: str) -> str:
        return self.p.get(node.color, node.color) if node.color else self.p[default]

    def text(self, node: Node, color: str, box=None, align=None) -> None:
        x1, y1, x2, y2 = box or node.bounds
        size = node.size or self.s(44)
        fnt = font(size, node.bold)
        label = node.text or node.hint
        if not label:
            return
        if node.wrap:
            self._wrapped(label, fnt, (x1, y1, x2, y2), color, align or node.align)
            return
        label = _fit(label, fnt, x2 - x1)
        align = align or node.align
        cy = (y1 + y2) // 2
        if align == "center":
            self.d.text(((x1 + x2) // 2, cy), label, font=fnt, fill=color, anchor="mm")
        elif align == "right":
            self.d.text((x2, cy), label, font=fnt, fill=color, anchor="rm")
        else:
            self.d.text((x1, cy), label, font=fnt, fill=color, anchor="lm")

    def _wrapped(self, label: str, fnt, box, color: str, align: str) -> None:
        # Word-wrapped lines, centred as a block in the box's height.
        x1, y1, x2, y2 = box
        lines: list[str] = []
        for word in label.split():
            if lines and fnt.getlength(lines[-1] + " " + word) <= x2 - x1:
                lines[-1] += " " + word
            else:
                lines.append(word)
        step = round(fnt.size * 1.3)
        y = (y1 + y2) // 2 - step * (len(lines) - 1) // 2
        for line in lines:
            if align == "center":
                self.d.text(((x1 + x2) // 2, y), line, font=fnt, fill=color, anchor="mm")
            else:
                self.d.text((x1, y), line, font=fnt, fill=color, anchor="lm")
            y += step

    def draw(self, node: Node) -> None:
        getattr(self, "_" + node.style, self._none)(node)
        for child in node.children:
            self.draw(child)

    def _none(self, node: Node) -> None:
        pass

    def _fill(self, node: Node) -> None:
        self.d.rectangle(node.bounds, fill=self.col(node, "bg"))

    def _text(self, node: Node) -> None:
        self.text(node, self.col(node, "text") if node.enabled else self.p["track_off"])

    def _row(self, node: Node) -> None:
        x1, _, x2, y2 = node.bounds
        self.d.line((x1 + self.s(48), y2 - 1, x2 - self.s(48), y2 - 1), fill=self.p["divider"], width=2)

    def _button(self, node: Node) -> None:
        x1, y1, x2, y2 = node.bounds
        fill = self.col(node, "primary") if node.enabled else self.p["divider"]
        self.d.rounded_rectangle(node.bounds, radius=(y2 - y1) // 2, fill=fill)
        self.text(node, self.p["on_primary"] if node.enabled else self.p["track_off"], align="center")

    def _textbutton(self, node: Node) -> None:
        self.text(node, self.col(node, "primary") if node.enabled else self.p["track_off"], align="center")

    def _outlined(self, node: Node) -> None:
        x1, y1, x2, y2 = node.bounds
        self.d.rounded_rectangle(node.bounds, radius=(y2 - y1) // 2, outline=self.p["track_off"],
                                 width=self.s(3))
        self.text(node, self.p["primary"], align="center")

    def _radio(self, node: Node) -> None:
        x1, y1, x2, y2 = node.bounds
        cy, r = (y1 + y2) // 2, self.s(26)
        cx = x1 + self.s(60)
        ring = self.p["primary"] if node.checked else self.p["text2"]
        self.d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=ring, width=self.s(6))
        if node.checked:
            dot = self.s(13)
            self.d.ellipse((cx - dot, cy - dot, cx + dot, cy + dot), fill=ring)
        self.text(node, self.p["text"], box=(x1 + self.s(130), y1, x2, y2))

    def _tile(self, node: Node) -> None:
        # A Quick Settings tile: filled in the accent colour when on, dimmed when unavailable.
        fill = self.p["primary"] if node.checked else self.p["card"]
        self.d.rounded_rectangle(node.bounds, radius=self.s(60), fill=fill)
        x1, y1, x2, y2 = node.bounds
        cx, cy, r = x1 + self.s(80), (y1 + y2) // 2, self.s(30)
        mark = self.p["on_primary"] if node.checked else self.p["text2" if node.clickable else "track_off"]
        self.d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=mark, width=self.s(7))

    def _gear(self, node: Node) -> None:
        x1, y1, x2, y2 = node.bounds
        cx, cy, r = (x1 + x2) // 2, (y1 + y2) // 2, self.s(30)
        self.d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=self.p["text"], width=self.s(8))
        self.d.ellipse((cx - r // 3, cy - r // 3, cx + r // 3, cy + r // 3), fill=self.p["text"])

    def _toggle(self, node: Node) -> None:
        # AM/PM style segmented button: filled when selected.
        x1, y1, x2, y2 = node.bounds
        r = self.s(20)
        if node.selected:
            self.d.rounded_rectangle(node.bounds, radius=r, fill=self.p["primary"])
            self.text(node, self.p["on_primary"], align="center")
        else:
            self.d.rounded_rectangle(node.bounds, radius=r, outline=self.p["track_off"], width=self.s(3))
            self.text(node, self.p["text"], align="center")

    def _fab(self, node: Node) -> None:
        x1, y1, x2, y2 = node.bounds
        self.d.rounded_rectangle(node.bounds, radius=self.s(48), fill=self.p["fab"])
        c = self.p["on_fab"]
        arm, w = self.s(28), self.s(7)
        if node.text:
            cx, cy = x1 + self.s(80), (y1 + y2) // 2
            self.text(node, c, box=(x1 + self.s(130), y1, x2 - self.s(20), y2))
        else:
            cx, cy = (x1 + x2) // 2, (y1 + y2) // 2
        self.d.line((cx - arm, cy, cx + arm, cy), fill=c, width=w)
        self.d.line((cx, cy - arm, cx, cy + arm), fill=c, width=w)

    def _switch(self, node: Node) -> None:
        x1, y1, x2, y2 = node.bounds
        cy = (y1 + y2) // 2
        tw, th = self.s(130), self.s(72)
        tx2 = x2 - self.s(8)
        box = (tx2 - tw, cy - th // 2, tx2, cy + th // 2)
        if node.checked:
            track = self.p["primary" if node.enabled else "divider"]
            self.d.rounded_rectangle(box, radius=th // 2, fill=track)
            r, cx, knob = self.s(26), tx2 - th // 2, self.p["on_primary"]
        else:
            self.d.rounded_rectangle(box, radius=th // 2, fill=self.p["bg"], outline=self.p["track_off"],
                                     width=self.s(5))
            r, cx, knob = self.s(17), tx2 - tw + th // 2, self.p["track_off"]
        self.d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=knob)

    def _edit(self, node: Node) -> None:
        x1, y1, x2, y2 = node.bounds
        focused = node.focused
        line = self.p["primary"] if focused else self.p["track_off"]
        w = self.s(6) if focused else self.s(3)
        self.d.rectangle((x1, y2 - w, x2, y2), fill=line)
        color = self.p["text"] if node.text else self.p["text2"]
        self.text(node, color, box=(x1 + self.s(12), y1, x2 - self.s(12), y2 - w))
        if focused:
            fnt = font(node.size or self.s(44), node.bold)
            if node.align == "center":
                cx = (x1 + x2) // 2 + int(fnt.getlength(node.text) / 2) + self.s(6)
            else:
                cx = x1 + self.s(12) + int(fnt.getlength(node.text)) + self.s(4)
            self.d.rectangle((cx, y1 + self.s(24), cx + self.s(4), y2 - self.s(24)), fill=line)

    def _slider(self, node: Node) -> None:
        x1, y1, x2, y2 = node.bounds
        cy = (y1 + y2) // 2
        pad = self.s(30)
        a, b = x1 + pad, x2 - pad
        pos = a + (b - a) * node.value // 255
        h = self.s(8)
        self.d.rounded_rectangle((a, cy - h, b, cy + h), radius=h, fill=self.p["divider"])
        self.d.rounded_rectangle((a, cy - h, max(pos, a + 2 * h), cy + h), radius=h, fill=self.p["primary"])
        r = self.s(26)
        self.d.ellipse((pos - r, cy - r, pos + r, cy + r), fill=self.p["primary"])

    def _avatar(self, node: Node) -> None:
        x1, y1, x2, y2 = node.bounds
        self.d.ellipse(node.bounds, fill=self.col(node, "primary"))
        letter = (node.desc or node.text or "?")[:1].upper()
        fnt = font(self.s(48), True)
        self.d.text(((x1 + x2) // 2, (y1 + y2) // 2), letter, font=fnt, fill="#FFFFFF", anchor="mm")

    def _app_icon(self, node: Node) -> None:
        x1, y1, x2, y2 = node.bounds
        d = self.s(150)
        cx = (x1 + x2) // 2
        top = y1 + self.s(20)
        self.d.ellipse((cx - d // 2, top, cx + d // 2, top + d), fill=self.col(node, "primary"))
        fnt = font(self.s(72), True)
        self.d.text((cx, top + d // 2), node.text[:1], font=fnt, fill="#FFFFFF", anchor="mm")
        self.text(node, self.p["text"], box=(x1, top + d, x2, y2), align="center")

    def _delete(self, node: Node) -> None:
        # A simple trash-can glyph: lid, handle and body.
        x1, y1, x2, y2 = node.bounds
        cx, cy = (x1 + x2) // 2, (y1 + y2) // 2
        c, w = self.p["text2"], self.s(5)
        u = self.s(22)
        self.d.line((cx - u - self.s(8), cy - u, cx + u + self.s(8), cy - u), fill=c, width=w)
        self.d.rectangle((cx - self.s(10), cy - u - self.s(10), cx + self.s(10), cy - u), outline=c, width=w)
        self.d.rectangle((cx - u, cy - u, cx + u, cy + u + self.s(8)), outline=c, width=w)

    def _back(self, node: Node) -> None:
        x1, y1, x2, y2 = node.bounds
        cx, cy = (x1 + x2) // 2, (y1 + y2) // 2
        u, c, w = self.s(24), self.p["text"], self.s(6)
        self.d.line((cx - u, cy, cx + u, cy), fill=c, width=w)
        self.d.line((cx - u, cy, cx, cy - u), fill=c, width=w)
        self.d.line((cx - u, cy, cx, cy + u), fill=c, width=w)

    def _card(self, node: Node) -> None:
        self.d.rounded_rectangle(node.bounds, radius=self.s(40), fill=self.p["card"])

    def _dialog(self, node: Node) -> None:
        self.d.rounded_rectangle(node.bounds, radius=self.s(48), fill=self.p["surface"])

    def _scrim(self, node: Node) -> None:
        # Darken whatever is below, as the platform dims behind dialogs.
        x1, y1, x2, y2 = node.bounds
        mask = Image.new("L", (x2 - x1, y2 - y1), 120)
        self.img.paste((0, 0, 0), (x1, y1, x2, y2), mask)

    def _toast(self, node: Node) -> None:
        self.d.rounded_rectangle(node.bounds, radius=(node.bounds[3] - node.bounds[1]) // 2,
                                 fill=self.p["toast"])
        self.text(node, self.p["on_toast"], align="center")

    def _battery(self, node: Node) -> None:
        x1, y1, x2, y2 = node.bounds
        c = self.p["text"]
        body = (x2 - self.s(60), y1 + self.s(30), x2 - self.s(8), y2 - self.s(30))
        self.d.rounded_rectangle(body, radius=self.s(6), outline=c, width=self.s(4))
        inner_w = (body[2] - body[0] - self.s(12)) * node.value // 100
        self.d.rectangle((body[0] + self.s(6), body[1] + self.s(6), body[0] + self.s(6) + inner_w,
                          body[3] - self.s(6)), fill=c)
        self.text(node, c, box=(x1, y1, body[0] - self.s(12), y2), align="right")

    def _pill(self, node: Node) -> None:
        x1, y1, x2, y2 = node.bounds
        cx, cy = (x1 + x2) // 2, (y1 + y2) // 2
        self.d.rounded_rectangle((cx - self.s(110), cy - self.s(6), cx + self.s(110), cy + self.s(6)),
                                 radius=self.s(6), fill=self.p["text"])


def render_image(root: Node, size: tuple[int, int], dark: bool, scale: float) -> Image.Image:
    """Draw ``root`` onto a ``size`` RGB canvas."""
    pal = DARK if dark else LIGHT
    img = Image.new("RGB", size, pal["bg"])
    _Painter(img, pal, scale).draw(root)
    return img
