"""Clock (DeskClock): alarm list with switches and delete, and a keyboard-mode
time picker (hour and minute fields, AM/PM buttons, OK/Cancel).

To set 7:30 AM: tap "Add alarm", tap the hour field, ``input text 7``, tap the
minute field, ``input text 30``, tap "AM", tap "OK".  A focused hour or minute
field replaces its prefilled value with the first key typed or deleted, as the
Material picker clears its prefilled text (``clearPrefilledText``); after
``KEYCODE_MOVE_END`` typing appends, as in any field.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..state import Alarm, Page, fmt_12h, local_time
from ..ui import Kit
from ..widgets import Node, bind

if TYPE_CHECKING:
    from ..phone import SimPhone

PACKAGE = "com.google.android.deskclock"
LABEL = "Clock"
MAIN_ACTIVITY = "com.android.deskclock.DeskClock"
ACTIVITIES = {MAIN_ACTIVITY: "list"}
ICON_COLOR = "#0B57D0"
_ID = PACKAGE + ":id/"



def _upcoming(phone: SimPhone, alarm: Alarm) -> str:
    """When an enabled alarm rings next, as DeskClock says it: later today, else tomorrow."""
    now = local_time(phone.clock_ms)
    return "Today" if (alarm.hour, alarm.minute) > (now.hour, now.minute) else "Tomorrow"


def new_page(name: str, uri: str = "") -> Page:
    """Fresh page for ``am start`` (only the alarm list is exported; intent data is ignored)."""
    return Page(name)

def activity(page: Page) -> str:
    """Activity class shown for a page (the picker is a dialog inside DeskClock)."""
    return MAIN_ACTIVITY


def text_filter(page: Page, key: str, text: str) -> str:
    """Keep only what a field accepts: digits (max 2) for hour and minute."""
    if key in ("hour", "minute"):
        return "".join(c for c in text if c.isdigit())[:2]
    return text


def on_enter(phone: SimPhone, page: Page) -> None:
    """ENTER confirms the time picker."""
    if page.name == "edit":
        _save(phone, page)


def _open_editor(phone: SimPhone) -> None:
    now = local_time(phone.clock_ms)
    page = Page("edit", {"hour": str(now.hour % 12 or 12), "minute": f"{now.minute:02d}",
                         "ampm": "AM" if now.hour < 12 else "PM", "label": "", "error": ""})
    phone.push_page(PACKAGE, page)
    phone.focus(page, "hour")


def _save(phone: SimPhone, page: Page) -> None:
    d = page.data
    try:
        hour, minute = int(d["hour"]), int(d["minute"])
    except ValueError:
        hour, minute = -1, -1
    if not (1 <= hour <= 12 and 0 <= minute <= 59):
        d["error"] = "Enter a valid time"
        phone.changed()
        return
    hour24 = hour % 12 + (12 if d["ampm"] == "PM" else 0)
    phone.alarms.append(Alarm(hour24, minute, True, d["label"]))
    phone.alarms.sort(key=lambda a: (a.hour, a.minute))
    phone.pop_page()
    phone.show_toast(f"Alarm set for {fmt_12h(hour24, minute)}")


def _toggle(phone: SimPhone, alarm: Alarm) -> None:
    i = phone.alarms.index(alarm)
    phone.alarms[i] = alarm._replace(enabled=not alarm.enabled)
    phone.changed()


def _delete(phone: SimPhone, alarm: Alarm) -> None:
    phone.alarms.remove(alarm)
    phone.show_toast("Alarm deleted")


def _set_ampm(phone: SimPhone, page: Page, value: str) -> None:
    page.data["ampm"] = value
    phone.changed()


def build(phone: SimPhone, kit: Kit, page: Page) -> Node:
    """Window for the alarm list or the time picker."""
    win = kit.window(PACKAGE)
    s = kit.s
    if page.name == "edit":
        return _build_editor(phone, kit, page, win)
    y = kit.appbar(win, "Alarm", pkg=PACKAGE)
    lst = Node((0, y, kit.w, kit.bottom), cls="androidx.recyclerview.widget.RecyclerView",
               rid=_ID + "alarm_recycler_view", scrollable=False)
    win.add(lst)
    if not phone.alarms:
        lst.add(kit.text((0, y, kit.w, y + s(300)), "No alarms", size=48, color="text2",
                         align="center", rid=_ID + "alarms_empty_view"))
    for alarm in list(phone.alarms):
        h = s(250)
        card = Node((s(32), y + s(16), kit.w - s(32), y + h), cls="android.widget.FrameLayout",
                    rid=_ID + "alarm_item", style="card")
        when = fmt_12h(alarm.hour, alarm.minute)
        card.add(kit.text((s(80), y + s(30), s(640), y + s(170)), when, size=96,
                          rid=_ID + "digital_clock"))
        status = alarm.label or (_upcoming(phone, alarm) if alarm.enabled else "Not scheduled")
        card.add(kit.text((s(84), y + s(165), s(640), y + h - s(10)), status, size=38,
                          color="text2", rid=_ID + "upcoming_instance_label"))
        card.add(Node((s(660), y + s(80), s(780), y + s(200)), cls="android.widget.ImageButton",
                      rid=_ID + "delete", desc=f"Delete alarm {when}", clickable=True, focusable=True,
                      style="delete", action=bind(_delete, phone, alarm)))
        card.add(kit.switch((s(800), y + s(70), kit.w - s(60), y + s(210)), alarm.enabled,
                            _ID + "onoff", bind(_toggle, phone, alarm),
                            desc=f"{when} alarm"))
        lst.add(card)
        y += h
    kit.fab(win, PACKAGE, "fab", "Add alarm", lambda x, yy: _open_editor(phone))
    return win


def _build_editor(phone: SimPhone, kit: Kit, page: Page, win: Node) -> Node:
    s, d = kit.s, page.data
    y = kit.appbar(win, "Set alarm", back=lambda x, yy: phone.pop_page(), pkg=PACKAGE)
    win.add(kit.text((s(96), y + s(20), kit.w, y + s(120)), "Enter time", size=40, color="text2",
                     rid=_ID + "header_title"))
    fy = y + s(150)
    for key, x1, hint in (("hour", 96, "hh"), ("minute", 520, "mm")):
        win.add(kit.edit((s(x1), fy, s(x1) + s(330), fy + s(210)), d[key], hint,
                         _ID + ("material_hour_text_input" if key == "hour"
                                else "material_minute_text_input"),
                         phone.is_focused(page, key),
                         bind(phone.focus, page, key), size=110, align="center"))
    win.add(kit.text((s(426), fy, s(520), fy + s(210)), ":", size=110, align="center"))
    win.add(kit.text((s(96), fy + s(215), s(426), fy + s(285)), "Hour", size=36, color="text2",
                     align="center"))
    win.add(kit.text((s(520), fy + s(215), s(850), fy + s(285)), "Minute", size=36,
                     color="text2", align="center"))
    for i, value in enumerate(("AM", "PM")):
        top = fy + i * s(105)
        node = Node((s(880), top, kit.w - s(40), top + s(100)), cls="android.widget.Button",
                    text=value, rid=_ID + f"material_clock_period_{value.lower()}_button",
                    checkable=True, checked=d["ampm"] == value, selected=d["ampm"] == value,
                    clickable=True, focusable=True, style="toggle", size=s(44), bold=True,
                    action=bind(_set_ampm, phone, page, value))
        win.add(node)
    ly = fy + s(340)
    win.add(kit.edit((s(96), ly, kit.w - s(96), ly + s(140)), d["label"], "Label", _ID + "label",
                     phone.is_focused(page, "label"), lambda x, yy: phone.focus(page, "label")))
    if d["error"]:
        win.add(kit.text((s(96), ly + s(160), kit.w, ly + s(240)), d["error"], size=40,
                         color="error", rid=_ID + "error"))
    by = ly + s(280)
    win.add(kit.button((s(420), by, s(700), by + s(130)), "Cancel", "android:id/button2",
                       lambda x, yy: phone.pop_page(), filled=False))
    win.add(kit.button((s(740), by, kit.w - s(96), by + s(130)), "OK", "android:id/button1",
                       lambda x, yy: _save(phone, page)))
    return win
