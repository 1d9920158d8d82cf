"""Layout kit shared by the simulated apps: geometry scaled to the screen size
and factories for the common Material views (app bar, list row, switch, slider, radio button, FAB, alert
dialog)."""

from __future__ import annotations

from collections.abc import Callable

from .widgets import Action, Node


def slider_value(bounds: tuple[int, int, int, int], x: int, pad: int, top: int = 255) -> int:
    """The level 0..top a touch at x sets on a slider (the geometry the renderer draws)."""
    a, b = bounds[0] + pad, bounds[2] - pad
    return max(0, min(top, round((x - a) * top / (b - a))))


class Kit:
    """Geometry for one screen size; all lengths are designed for 1080 px width."""

    def __init__(self, width: int, height: int):
        self.w = width
        self.h = height
        self.k = width / 1080
        self.top = self.s(110)  # status bar
        self.bottom = height - self.s(90)  # gesture navigation bar

    def s(self, v: float) -> int:
        """Scale a 1080-wide design length to this screen."""
        return round(v * self.k)

    def window(self, package: str) -> Node:
        """Root of an app window between the status bar and the navigation bar."""
        return Node((0, self.top, self.w, self.bottom), package=package, style="fill")

    def text(self, box, text: str, *, size: int = 44, bold: bool = False, color: str = "",
             rid: str = "", align: str = "left", desc: str = "", wrap: bool = False) -> Node:
        """A TextView (``wrap``: drawn on as many lines as it needs)."""
        return Node(tuple(box), cls="android.widget.TextView", text=text, rid=rid, desc=desc,
                    style="text", size=self.s(size), bold=bold, color=color, align=align, wrap=wrap)

    def appbar(self, win: Node, title: str, back: Action | None = None, pkg: str = "") -> int:
        """Add a top app bar (optional Navigate up button); return the y below it."""
        y1, y2 = self.top, self.top + self.s(190)
        bar = Node((0, y1, self.w, y2), cls="android.view.ViewGroup",
                   rid=f"{pkg}:id/toolbar" if pkg else "", style="")
        x = self.s(48)
        if back is not None:
            bar.add(Node((self.s(20), y1 + self.s(45), self.s(120), y1 + self.s(145)),
                         cls="android.widget.ImageButton", desc="Navigate up", clickable=True,
                         focusable=True, style="back", action=back))
            x = self.s(150)
        bar.add(self.text((x, y1, self.w - self.s(48), y2), title, size=60, rid="", bold=False))
        win.add(bar)
        return y2

    def row(self, win: Node, y: int, title: str, *, summary: str = "", action: Action | None = None,
            switch: tuple[bool, Action] | None = None, rid: str = "", height: int = 0) -> int:
        """A list row with title, optional summary and trailing switch; return next y."""
        h = height or (self.s(200) if summary else self.s(160))
        row = Node((0, y, self.w, y + h), cls="android.widget.LinearLayout", rid=rid,
                   clickable=action is not None or switch is not None, focusable=True,
                   style="row", action=action)
        right = self.w - (self.s(220) if switch else self.s(48))
        if summary:
            row.add(self.text((self.s(64), y + self.s(30), right, y + self.s(110)), title, size=48,
                              rid="android:id/title"))
            row.add(self.text((self.s(64), y + self.s(110), right, y + h - self.s(24)), summary,
                              size=38, color="text2", rid="android:id/summary"))
        else:
            row.add(self.text((self.s(64), y, right, y + h), title, size=48, rid="android:id/title"))
        if switch is not None:
            checked, toggle = switch
            row.action = toggle
            row.add(self.switch((self.w - self.s(210), y, self.w - self.s(48), y + h), checked,
                                "android:id/switch_widget", toggle))
        win.add(row)
        return y + h

    def switch(self, box, checked: bool, rid: str, action: Action, desc: str = "") -> Node:
        """A checkable Switch."""
        return Node(tuple(box), cls="android.widget.Switch", text="ON" if checked else "OFF",
                    rid=rid, desc=desc, checkable=True, checked=checked, clickable=True,
                    focusable=True, style="switch", action=action)

    def fab(self, win: Node, pkg: str, rid: str, desc: str, action: Action, label: str = "") -> Node:
        """Floating action button at the bottom right (extended when labelled)."""
        size = self.s(180)
        right, bottom = self.w - self.s(60), self.bottom - self.s(80)
        left = right - (self.s(480) if label else size)
        node = Node((left, bottom - size, right, bottom), cls="android.widget.ImageButton"
                    if not label else "android.widget.Button", text=label, rid=f"{pkg}:id/{rid}",
                    desc=desc, clickable=True, focusable=True, style="fab", size=self.s(46),
                    bold=True, action=action)
        win.add(node)
        return node

    def button(self, box, text: str, rid: str, action: Action, *, filled: bool = True,
               desc: str = "", outlined: bool = False, enabled: bool = True) -> Node:
        """A Button (filled, outlined or text style)."""
        style = "outlined" if outlined else "button" if filled else "textbutton"
        return Node(tuple(box), cls="android.widget.Button", text=text, rid=rid, desc=desc,
                    clickable=True, focusable=True, style=style, size=self.s(46), bold=True,
                    action=action, enabled=enabled)

    def slider(self, box, value: int, top: int, rid: str, desc: str, setter: Callable[[int], None]) -> Node:
        """A SeekBar at ``value`` of 0..top; a tap or a drag sets the level where it lands."""
        bounds = tuple(box)
        pad = self.s(30)

        def set_level(x: int, y: int) -> None:
            setter(slider_value(bounds, x, pad, top))

        return Node(bounds, cls="android.widget.SeekBar", text=str(value), rid=rid, desc=desc,
                    clickable=True, focusable=True, style="slider", value=value * 255 // max(1, top),
                    action=set_level)

    def radio(self, box, text: str, checked: bool, rid: str, action: Action) -> Node:
        """A RadioButton with its label."""
        return Node(tuple(box), cls="android.widget.RadioButton", text=text, rid=rid, checkable=True,
                    checked=checked, clickable=True, focusable=True, style="radio", size=self.s(48),
                    action=action)

    def alert(self, title: str, message: str, buttons: tuple[tuple[str, Action], ...],
              package: str) -> list[Node]:
        """A modal AlertDialog over a scrim: title, message, then buttons right to left as
        ``android:id/button1``, ``button2`` (so the confirming one comes first)."""
        s = self.s
        top, bottom = self.h // 2 - s(330), self.h // 2 + s(330)
        scrim = Node((0, 0, self.w, self.h), style="scrim", dump=False, clickable=True,
                     action=lambda x, y: None)
        dlg = Node((s(80), top, self.w - s(80), bottom), package=package, style="dialog",
                   rid="android:id/parentPanel")
        dlg.add(self.text((s(150), top + s(60), self.w - s(150), top + s(180)), title, size=56,
                          rid="android:id/alertTitle"))
        dlg.add(self.text((s(150), top + s(200), self.w - s(150), top + s(460)), message, size=42,
                          color="text2", rid="android:id/message", wrap=True))
        right = self.w - s(130)
        for i, (label, action) in enumerate(buttons):
            width = s(60) + s(30) * len(label)
            dlg.add(self.button((right - width, bottom - s(160), right, bottom - s(40)), label,
                                f"android:id/button{i + 1}", action, filled=False))
            right -= width + s(30)
        return [scrim, dlg]

    def edit(self, box, text: str, hint: str, rid: str, focused: bool, action: Action, *,
             size: int = 48, align: str = "left") -> Node:
        """An EditText; shows the hint in grey when empty."""
        return Node(tuple(box), cls="android.widget.EditText", text=text, hint=hint, rid=rid,
                    clickable=True, focusable=True, focused=focused, style="edit",
                    size=self.s(size), align=align, action=action)
