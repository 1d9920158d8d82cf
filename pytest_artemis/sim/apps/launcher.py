"""Home screen (Pixel launcher), recents, and the system chrome drawn around
apps: status bar, gesture bar, crash dialog and toast."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import render
from ..state import LAUNCHER, local_time
from ..ui import Kit
from ..widgets import Node, bind
from . import APPS, INERT_APPS

if TYPE_CHECKING:
    from ..phone import SimPhone

_ID = LAUNCHER + ":id/"


def app_label(pkg: str) -> str:
    """The name the launcher shows for an installed app (the package name for others)."""
    app = APPS.get(pkg)
    return app.LABEL if app else INERT_APPS.get(pkg, (pkg, ""))[0]


def build_home(phone: SimPhone, kit: Kit) -> Node:
    """The home screen: date glance and a grid of app icons."""
    s = kit.s
    win = kit.window(LAUNCHER)
    now = local_time(phone.clock_ms)
    win.add(kit.text((s(64), kit.top + s(60), kit.w, kit.top + s(170)),
                     now.strftime("%A, %b ") + str(now.day), size=56, rid=_ID + "date"))
    icons = [(app.LABEL, pkg, app.ICON_COLOR) for pkg, app in APPS.items()]
    icons += [(label, pkg, color) for pkg, (label, color) in INERT_APPS.items()]
    cell_w, cell_h = kit.w // 4, s(300)
    grid = Node((0, kit.top + s(900), kit.w, kit.top + s(900) + 2 * cell_h),
                cls="android.view.ViewGroup", rid=_ID + "workspace")
    for i, (label, pkg, color) in enumerate(icons):
        x, y = (i % 4) * cell_w, grid.bounds[1] + (i // 4) * cell_h
        action = bind(phone.launch, pkg) if pkg in APPS else (lambda xx, yy: None)
        grid.add(Node((x, y, x + cell_w, y + cell_h), cls="android.widget.TextView", text=label,
                      desc=label, clickable=True, focusable=True, style="app_icon", size=s(40),
                      color=color, action=action))
    win.add(grid)
    return win


def build_recents(phone: SimPhone, kit: Kit) -> Node:
    """Overview: one card per recent task, most recent first, and Clear all."""
    s = kit.s
    win = kit.window(LAUNCHER)
    win.color = "surface"
    y = kit.top + s(80)
    if not phone.recents:
        win.add(kit.text((0, y, kit.w, y + s(200)), "No recent items", size=48, align="center",
                         color="text2"))
    for pkg in phone.recents[:5]:
        card = Node((s(140), y, kit.w - s(140), y + s(260)), cls="android.widget.FrameLayout",
                    rid=_ID + "snapshot", desc=app_label(pkg), clickable=True, focusable=True,
                    style="card", action=bind(phone.launch, pkg))
        card.add(kit.text((s(200), y, kit.w - s(200), y + s(260)), app_label(pkg), size=52,
                          align="center", rid=_ID + "title"))
        win.add(card)
        y += s(300)
    win.add(kit.button(((kit.w - s(400)) // 2, kit.bottom - s(200), (kit.w + s(400)) // 2,
                        kit.bottom - s(80)), "Clear all", _ID + "clear_all",
                       lambda x, yy: phone.clear_recents(), filled=False))
    return win


def build_status_bar(phone: SimPhone, kit: Kit) -> Node:
    """Status bar (systemui): time on the left, Wi-Fi and battery on the right."""
    s = kit.s
    bar = Node((0, 0, kit.w, kit.top), package="com.android.systemui", style="fill",
               color="status", rid="com.android.systemui:id/status_bar")
    now = local_time(phone.clock_ms)
    clock = f"{now.hour % 12 or 12}:{now.minute:02d}"
    bar.add(kit.text((s(56), 0, s(400), kit.top), clock, size=42, bold=True,
                     rid="com.android.systemui:id/clock", desc=clock))
    net = "Airplane mode" if phone.get_setting("global", "airplane_mode_on") == "1" else (
        "Wi‑Fi" if phone.get_setting("global", "wifi_on") == "1" else "")
    if net:
        bar.add(kit.text((s(480), 0, s(760), kit.top), net, size=34, align="right",
                         rid="com.android.systemui:id/wifi_combo", desc=net))
    level = phone.battery_level
    bar.add(Node((s(770), 0, kit.w - s(48), kit.top), cls="android.widget.LinearLayout",
                 text=f"{level}%", desc=f"Battery {level} percent.", style="battery", size=s(36),
                 value=level, rid="com.android.systemui:id/battery"))
    root = Node((0, 0, kit.w, kit.h), dump=False)
    return root.add(bar, build_nav_bar(kit))


def build_nav_bar(kit: Kit) -> Node:
    """The gesture navigation bar (drawn, not dumped)."""
    nav = Node((0, kit.bottom, kit.w, kit.h), style="fill", color="status", dump=False)
    return nav.add(Node(nav.bounds, style="pill", dump=False))


def build_crash_dialog(phone: SimPhone, kit: Kit, pkg: str) -> list[Node]:
    """System "X keeps stopping" dialog, modal over a scrim."""
    s = kit.s
    scrim = Node((0, 0, kit.w, kit.h), style="scrim", dump=False, clickable=True,
                 action=lambda x, y: None)
    top, bottom = kit.h // 2 - s(330), kit.h // 2 + s(330)
    dlg = Node((s(80), top, kit.w - s(80), bottom), package="android", style="dialog",
               rid="android:id/parentPanel")
    dlg.add(kit.text((s(150), top + s(60), kit.w - s(150), top + s(200)),
                     f"{app_label(pkg)} keeps stopping", size=54, rid="android:id/alertTitle"))
    y = top + s(240)
    for label, rid, action in (("App info", "com.android.server:id/aerr_app_info",
                                phone.crash_app_info),
                               ("Close app", "com.android.server:id/aerr_close", phone.dismiss_dialog)):
        dlg.add(kit.button((s(120), y, kit.w - s(120), y + s(150)), label, rid,
                           bind(action), filled=False))
        y += s(170)
    return [scrim, dlg]


def build_toast(kit: Kit, text: str) -> Node:
    """A toast pill above the gesture bar (not in the hierarchy, as on Android)."""
    s = kit.s
    width = min(kit.w - s(80), int(render.font(s(42)).getlength(text)) + s(120))
    y2 = kit.bottom - s(220)
    return Node(((kit.w - width) // 2, y2 - s(120), (kit.w + width) // 2, y2), text=text,
                style="toast", size=s(42), dump=False)
