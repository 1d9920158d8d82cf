"""The notification shade (SystemUI's NotificationShade window): closed, open on the notifications with the
first Quick Settings tiles, or expanded to every tile and the brightness slider.

A swipe down from the status bar opens it; a second swipe down expands Quick Settings (as on a Pixel, where
a second pull does); a swipe up closes it. BACK goes one level back, HOME and the overview close it.
``cmd statusbar expand-notifications|expand-settings|collapse`` do the same from the shell. The shade is built
only while it is open; it covers the app, so the hierarchy holds its window alone, as a real dump does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .apps import settings
from .keys import KEYCODES
from .notifications import posted
from .quick_settings import SYSUI, tiles_panel
from .shell import Ctx
from .state import local_time
from .ui import Kit
from .widgets import Node, bind

if TYPE_CHECKING:
    from .notifications import Notification
    from .phone import SimPhone

CLOSED, NOTIFICATIONS, QUICK_SETTINGS = 0, 1, 2
LEVELS = {CLOSED: "closed", NOTIFICATIONS: "notifications", QUICK_SETTINGS: "quick_settings"}
_ID = SYSUI + ":id/"
_PULL = 300  # design px a swipe must travel to count


def set_level(phone: SimPhone, level: int) -> None:
    """Open the shade at ``level`` (or close it with CLOSED)."""
    if phone.shade != level:
        phone.shade = level
        phone.changed()


def on_swipe(phone: SimPhone, x1: int, y1: int, x2: int, y2: int) -> bool:
    """Pull the shade down or push it up; True when the swipe was the shade's. A swipe up from the gesture
    bar is not: it closes the shade and goes home."""
    kit, far = phone.kit, phone.kit.s(_PULL)
    if phone.shade == CLOSED:
        if y1 < kit.top and y2 - y1 > far:
            set_level(phone, NOTIFICATIONS)
            return True
        return False
    if y1 >= kit.bottom and y1 - y2 > far:
        set_level(phone, CLOSED)
        return False
    if y2 - y1 > far:
        set_level(phone, QUICK_SETTINGS)
    elif y1 - y2 > far:
        set_level(phone, CLOSED)
    return True


def on_key(phone: SimPhone, code: int) -> bool:
    """Keys while the shade is open: BACK goes a level back; HOME and the overview close it and go on (False);
    anything else finds nothing focused."""
    if phone.shade == CLOSED:
        return False
    if code in (KEYCODES["HOME"], KEYCODES["APP_SWITCH"]):
        set_level(phone, CLOSED)
        return False
    if code == KEYCODES["BACK"]:
        set_level(phone, phone.shade - 1)
    return True


def _open_app(phone: SimPhone, pkg: str) -> None:
    set_level(phone, CLOSED)
    phone.launch(pkg)


def _open_settings(phone: SimPhone) -> None:
    set_level(phone, CLOSED)
    settings.open_page(phone, "main")


def build(phone: SimPhone, kit: Kit) -> Node:
    """The shade's window at its current level."""
    s = kit.s
    root = Node((0, 0, kit.w, kit.h), package=SYSUI, rid=_ID + "legacy_window_root", style="fill",
                color="surface")
    panel = Node((0, 0, kit.w, kit.h), rid=_ID + "notification_panel")
    parent = Node((0, 0, kit.w, kit.h), cls="android.view.ViewGroup",
                  rid=_ID + "notification_container_parent")
    top = s(230)
    expanded = phone.shade == QUICK_SETTINGS
    qs = tiles_panel(phone, kit, top, expanded)
    frame = Node((0, 0, kit.w, qs.bounds[3]), rid=_ID + "qs_frame").add(_header(phone, kit), qs)
    parent.add(frame)
    if expanded:
        y = qs.bounds[3] + s(30)
        frame.bounds = (0, 0, kit.w, y + s(120))
        frame.add(Node((kit.w - s(170), y, kit.w - s(50), y + s(120)), cls="android.widget.FrameLayout",
                       rid=_ID + "settings_button_container", desc="Open settings", clickable=True,
                       focusable=True, style="gear", action=bind(_open_settings, phone)))
    else:
        parent.add(_notifications(phone, kit, qs.bounds[3] + s(40)))
    return root.add(panel.add(parent))


def _header(phone: SimPhone, kit: Kit) -> Node:
    s = kit.s
    now = local_time(phone.clock_ms)
    clock = f"{now.hour % 12 or 12}:{now.minute:02d}"
    header = Node((0, 0, kit.w, s(220)), cls="android.view.ViewGroup", rid=_ID + "shade_header_root")
    header.add(kit.text((s(56), s(40), s(400), s(150)), clock, size=72, rid=_ID + "clock", desc=clock),
               kit.text((s(56), s(150), s(600), s(215)), now.strftime("%a, %b ") + str(now.day), size=38,
                        color="text2", rid=_ID + "date"))
    level = phone.battery_level
    header.add(Node((s(770), s(40), kit.w - s(48), s(150)), cls="android.widget.LinearLayout",
                    text=f"{level}%", desc=f"Battery {level} percent.", style="battery", size=s(36),
                    value=level, rid=_ID + "batteryRemainingIcon"))
    return header


def _notifications(phone: SimPhone, kit: Kit, top: int) -> Node:
    s = kit.s
    stack = Node((0, top, kit.w, kit.bottom), cls="android.widget.ScrollView",
                 rid=_ID + "notification_stack_scroller")
    shown = posted(phone)
    if not shown:
        return stack.add(kit.text((0, top, kit.w, top + s(160)), "No notifications", size=44, color="text2",
                                  align="center", rid=_ID + "no_notifications"))
    y = top
    if all(n.importance <= 2 for n in shown):
        # Low-importance notifications are listed under "Silent", as SystemUI sections them.
        stack.add(kit.text((s(70), y, kit.w - s(70), y + s(90)), "Silent", size=40, bold=True, color="text2",
                           rid=_ID + "header_label"))
        y += s(100)
    for n in shown:
        stack.add(_row(phone, kit, n, y))
        y += s(250)
    return stack


def _row(phone: SimPhone, kit: Kit, n: Notification, y: int) -> Node:
    s = kit.s
    row = Node((s(30), y, kit.w - s(30), y + s(230)), rid=_ID + "expandableNotificationRow", clickable=True,
               focusable=True, style="card", action=bind(_open_app, phone, n.opens))
    row.add(kit.text((s(80), y + s(20), kit.w - s(80), y + s(80)), n.app, size=34, color="text2",
                     rid="android:id/app_name_text"),
            kit.text((s(80), y + s(80), kit.w - s(80), y + s(150)), n.title, size=44, bold=True,
                     rid="android:id/title"),
            kit.text((s(80), y + s(150), kit.w - s(80), y + s(215)), n.text, size=40, color="text2",
                     rid="android:id/text"))
    return row


def statusbar(ctx: Ctx, args: list[str]) -> int:
    """``cmd statusbar expand-notifications|expand-settings|collapse``."""
    levels = {"expand-notifications": NOTIFICATIONS, "expand-settings": QUICK_SETTINGS, "collapse": CLOSED}
    if len(args) == 1 and args[0] in levels:
        set_level(ctx.phone, levels[args[0]])
        return 0
    ctx.out("Status bar commands:\n  help\n    Print this help text.\n\n  expand-notifications\n"
            "    Open the notifications panel.\n\n  expand-settings\n    Open the notifications panel and "
            "expand quick settings if present.\n\n  collapse\n    Collapse the notifications and settings "
            "panel.\n")
    return 0 if args[:1] in ([], ["help"]) else 1

