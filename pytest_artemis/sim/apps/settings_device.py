"""Settings' device pages: Battery and Battery Saver (``global low_power``), Location (``secure
location_mode``), Sound & vibration (``system volume_*``) and Do Not Disturb (``global zen_mode``).

Battery Saver's switch is unavailable while the phone is plugged in, as Android's is (:mod:`power`).
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from .. import permissions, power, toggles
from ..state import Page
from ..ui import Kit
from ..widgets import Node, bind

if TYPE_CHECKING:
    from ..phone import SimPhone

_ID = "com.android.settings:id/"
#: (title, settings key, highest level) of each volume slider; the store holds the stream's level.
VOLUMES = (("Media volume", "volume_music", 25), ("Call volume", "volume_voice", 5),
           ("Ring & notification volume", "volume_ring", 7), ("Alarm volume", "volume_alarm", 7))
TITLES = {"battery": "Battery", "battery_saver": "Battery Saver", "location": "Location",
          "sound": "Sound & vibration", "dnd": "Do Not Disturb"}


def open_subpage(phone: SimPhone, name: str, **data: object) -> None:
    """Open Settings' page ``name`` over the current one (what tapping a row does)."""
    phone.push_page("com.android.settings", Page(name, dict(data)))


def main_switch(kit: Kit, win: Node, y: int, title: str, on: bool, flip, enabled: bool = True) -> int:
    """The main switch bar at the top of a page ("Use Battery Saver"); return the y below it."""
    s = kit.s
    bar = Node((s(40), y + s(20), kit.w - s(40), y + s(200)), cls="android.widget.LinearLayout",
               rid=_ID + "main_switch_bar", clickable=True, focusable=True, style="card", action=flip,
               enabled=enabled)
    bar.add(kit.text((s(100), y + s(20), kit.w - s(260), y + s(200)), title, size=50,
                     rid=_ID + "switch_text"))
    switch = kit.switch((kit.w - s(250), y + s(20), kit.w - s(80), y + s(200)), on,
                        "android:id/switch_widget", flip)
    switch.enabled = bar.children[0].enabled = enabled
    win.add(bar.add(switch))
    return y + s(240)


def _battery(phone: SimPhone, kit: Kit, page: Page, win: Node, y: int) -> None:
    s = kit.s
    win.add(kit.text((s(64), y + s(20), kit.w, y + s(170)), f"{phone.battery_level}%", size=96,
                     rid=_ID + "battery_percent"))
    status = "Charging" if power.plugged(phone) else "Battery Saver is on" if power.saver_on(phone) else ""
    win.add(kit.text((s(64), y + s(170), kit.w, y + s(240)), status, size=40, color="text2",
                     rid=_ID + "summary1"))
    y += s(280)
    kit.row(win, y, "Battery Saver", summary="On" if power.saver_on(phone) else "Off",
            action=bind(open_subpage, phone, "battery_saver"))


def _flip_saver(phone: SimPhone) -> None:
    power.set_saver(phone, not power.saver_on(phone))


def _battery_saver(phone: SimPhone, kit: Kit, page: Page, win: Node, y: int) -> None:
    y = main_switch(kit, win, y, "Use Battery Saver", power.saver_on(phone), bind(_flip_saver, phone),
                    enabled=not power.plugged(phone))
    y = kit.row(win, y, "Set a schedule", summary="No schedule")
    kit.row(win, y, "Turn off when charged", summary="Battery Saver turns off when your phone charges")


def _location(phone: SimPhone, kit: Kit, page: Page, win: Node, y: int) -> None:
    y = main_switch(kit, win, y, "Use location", toggles.LOCATION.is_on(phone),
                    bind(toggles.LOCATION.flip, phone))
    asking = [pkg for pkg in permissions.REQUESTED if "Location" in permissions.groups(pkg)]
    allowed = [pkg for pkg in asking if phone.permissions.group_granted(pkg, "Location")]
    kit.row(win, y, "App location permissions",
            summary=f"{len(allowed)} of {len(asking)} apps have access to location")


def volume(phone: SimPhone, key: str, top: int) -> int:
    """A stream's volume level from the store, clamped to 0..top (garbage reads as 0)."""
    value = phone.get_setting("system", key) or "0"
    return max(0, min(top, int(value))) if value.isdigit() else 0


def _set_volume(phone: SimPhone, key: str, level: int) -> None:
    phone.put_setting("system", key, str(level))


def zen_summary(phone: SimPhone) -> str:
    """"Off", or "On / " and the mode (Priority only, Alarms only, Total silence)."""
    mode = phone.get_setting("global", "zen_mode") or "0"
    return f"On / {toggles.ZEN_MODES[mode]}" if mode in toggles.ZEN_MODES else "Off"


def _sound(phone: SimPhone, kit: Kit, page: Page, win: Node, y: int) -> None:
    s = kit.s
    for title, key, top in VOLUMES:
        win.add(kit.text((s(64), y + s(20), kit.w - s(64), y + s(100)), title, size=46,
                         rid="android:id/title"))
        win.add(kit.slider((s(40), y + s(100), kit.w - s(40), y + s(200)), volume(phone, key, top), top,
                           "android:id/seekbar", title, partial(_set_volume, phone, key)))
        y += s(220)
    kit.row(win, y, "Do Not Disturb", summary=zen_summary(phone), action=bind(open_subpage, phone, "dnd"))


def _dnd(phone: SimPhone, kit: Kit, page: Page, win: Node, y: int) -> None:
    s = kit.s
    on = toggles.DO_NOT_DISTURB.is_on(phone)
    y = kit.row(win, y, "Do Not Disturb", summary=zen_summary(phone))
    label, rid = ("Turn off now", "zen_mode_settings_turn_off_button") if on else \
        ("Turn on now", "zen_mode_settings_turn_on_button")
    win.add(kit.button((s(64), y + s(40), s(600), y + s(170)), label, _ID + rid,
                       bind(toggles.DO_NOT_DISTURB.set, phone, not on)))


BUILDERS = {"battery": _battery, "battery_saver": _battery_saver, "location": _location, "sound": _sound,
            "dnd": _dnd}
