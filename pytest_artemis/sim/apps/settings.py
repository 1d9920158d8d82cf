"""Settings: the main list and its pages — Network & internet (Wi-Fi, Airplane mode), Bluetooth, Display
(Dark theme, Brightness), Battery (Battery Saver), Sound & vibration (volumes, Do Not Disturb), Location and
Apps (App info: Force stop, Storage & cache, Permissions, Notifications). Every control reads and writes the
phone's settings store (or its permission state), so ``settings put`` shows on screen and a change made on
screen shows in ``settings get``. Each page is also an activity ``am start -n`` opens by its name, as on a
phone.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from .. import power, toggles
from ..state import Page
from ..ui import Kit
from ..widgets import Action, Node, bind
from . import settings_apps, settings_device

if TYPE_CHECKING:
    from ..phone import SimPhone

PACKAGE = "com.android.settings"
LABEL = "Settings"
MAIN_ACTIVITY = "com.android.settings.Settings"
ICON_COLOR = "#5F6368"
_S = "com.android.settings.Settings$"
ACTIVITIES = {
    MAIN_ACTIVITY: "main",
    _S + "NetworkDashboardActivity": "network",
    _S + "WifiSettingsActivity": "network",
    _S + "ConnectedDeviceDashboardActivity": "bluetooth",
    _S + "DisplaySettingsActivity": "display",
    _S + "PowerUsageSummaryActivity": "battery",
    _S + "BatterySaverSettingsActivity": "battery_saver",
    _S + "LocationSettingsActivity": "location",
    _S + "SoundSettingsActivity": "sound",
    _S + "ZenModeSettingsActivity": "dnd",
    _S + "ManageApplicationsActivity": "apps",
    _S + "AppNotificationSettingsActivity": "app_notifications",
    settings_apps.APP_INFO_ACTIVITY: "app_info",
}
_PAGE_ACTIVITY = {page: activity for activity, page in ACTIVITIES.items()
                  if activity != _S + "WifiSettingsActivity"}
_PAGE_ACTIVITY.update(settings_apps.PAGE_ACTIVITIES)
_TITLES: dict[str, str | Callable[[Page], str]] = {
    "network": "Network & internet", "bluetooth": "Bluetooth", "display": "Display",
    **settings_device.TITLES, **settings_apps.TITLES}
Builder = Callable[["SimPhone", Kit, Page, Node, int], None]


def new_page(name: str, uri: str = "") -> Page | None:
    """The page ``am start`` opens: an app's pages need ``-d package:PKG`` of an installed app (else the
    activity finishes at once, as Settings' does)."""
    if name in settings_apps.PER_APP:
        return settings_apps.page_for_uri(name, uri)
    return Page(name)


def activity(page: Page) -> str:
    """Activity class for a settings page (a confirmation dialog belongs to the page below it)."""
    if page.name == "confirm":
        return activity(page.data["below"])
    return _PAGE_ACTIVITY.get(page.name, MAIN_ACTIVITY)


def text_filter(page: Page, key: str, text: str) -> str:
    """Settings has no text fields."""
    return text


def on_enter(phone: SimPhone, page: Page) -> None:
    """ENTER has no effect in Settings."""


def open_page(phone: SimPhone, name: str) -> None:
    """Bring Settings to the front on page ``name`` (what a tile's long press and the shade's gear do)."""
    phone.launch(PACKAGE)
    if phone.tasks[PACKAGE][-1].name != name:
        phone.push_page(PACKAGE, Page(name))


def brightness(phone: SimPhone) -> int:
    """Current screen_brightness, clamped to 0-255 (garbage reads as the default)."""
    try:
        return max(0, min(255, int(phone.get_setting("system", "screen_brightness") or "102")))
    except ValueError:
        return 102


def build(phone: SimPhone, kit: Kit, page: Page) -> Node:
    """Window for one settings page."""
    if page.name == "confirm":
        win = build(phone, kit, page.data["below"])
        return win.add(*settings_apps.confirm_dialog(phone, kit, page))
    win = kit.window(page.package or PACKAGE)
    if page.name == "main":
        _main(phone, kit, win)
        return win
    title = _TITLES.get(page.name, "Settings")
    y = kit.appbar(win, title if isinstance(title, str) else title(page), back=lambda x, yy: phone.pop_page(),
                   pkg=settings_apps.ID_PACKAGE if page.package else PACKAGE)
    _BUILDERS[page.name](phone, kit, page, win, y)
    return win


def _main(phone: SimPhone, kit: Kit, win: Node) -> None:
    y = kit.appbar(win, "Settings", pkg=PACKAGE)
    wifi = "Wi‑Fi" if toggles.WIFI.is_on(phone) else "Wi‑Fi off"
    if toggles.AIRPLANE.is_on(phone):
        wifi = "Airplane mode is on"
    saver = ", Battery Saver on" if power.saver_on(phone) else ""
    rows = (
        ("Network & internet", f"Mobile, {wifi}, hotspot", "network"),
        ("Bluetooth", f"Bluetooth is {'on' if toggles.BLUETOOTH.is_on(phone) else 'off'}", "bluetooth"),
        ("Display", "Dark theme, font size, brightness", "display"),
        ("Battery", f"{phone.battery_level}%{saver}", "battery"),
        ("Apps", "Recent apps, default apps", "apps"),
        ("Sound & vibration", "Volume, haptics, Do Not Disturb", "sound"),
        ("Location", "On" if toggles.LOCATION.is_on(phone) else "Off", "location"),
        ("About phone", "sdk_gphone64_x86_64", ""),
    )
    for title, summary, target in rows:
        action = bind(settings_device.open_subpage, phone, target) if target else None
        y = kit.row(win, y, title, summary=summary, action=action)


def _switch(phone: SimPhone, toggle: toggles.Toggle) -> tuple[bool, Action]:
    """A row's switch over one on/off setting."""
    return toggle.is_on(phone), bind(toggle.flip, phone)


def _network(phone: SimPhone, kit: Kit, page: Page, win: Node, y: int) -> None:
    y = kit.row(win, y, "Wi‑Fi", switch=_switch(phone, toggles.WIFI))
    y = kit.row(win, y, "Airplane mode", switch=_switch(phone, toggles.AIRPLANE))
    kit.row(win, y, "Hotspot & tethering", summary="Off")


def _bluetooth(phone: SimPhone, kit: Kit, page: Page, win: Node, y: int) -> None:
    kit.row(win, y, "Use Bluetooth", switch=_switch(phone, toggles.BLUETOOTH))


def set_brightness(phone: SimPhone, level: int) -> None:
    """Write the brightness level 0-255 (the Display page's slider and Quick Settings' write it)."""
    phone.put_setting("system", "screen_brightness", str(level))


def _display(phone: SimPhone, kit: Kit, page: Page, win: Node, y: int) -> None:
    y = kit.row(win, y, "Dark theme", switch=_switch(phone, toggles.DARK_THEME))
    value = brightness(phone)
    win.add(kit.text((kit.s(64), y + kit.s(20), kit.w - kit.s(64), y + kit.s(110)),
                     f"Brightness level  {round(value * 100 / 255)}%", size=48, rid="android:id/title"))
    box = (kit.s(40), y + kit.s(110), kit.w - kit.s(40), y + kit.s(230))
    win.add(kit.slider(box, value, 255, PACKAGE + ":id/seekbar", "Brightness level",
                       partial(set_brightness, phone)))


_BUILDERS: dict[str, Builder] = {"network": _network, "bluetooth": _bluetooth, "display": _display,
                                 **settings_device.BUILDERS, **settings_apps.BUILDERS}
