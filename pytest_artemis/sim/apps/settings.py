"""Settings: main list, Network & internet (Wi-Fi, Airplane mode), Bluetooth and
Display (Dark theme, Brightness slider).  Every control reads and writes the
phone's settings store, so ``settings put`` is reflected on screen and UI
changes are visible to ``settings get``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..state import Page
from ..ui import Kit
from ..widgets import Node

if TYPE_CHECKING:
    from ..phone import SimPhone

PACKAGE = "com.android.settings"
LABEL = "Settings"
MAIN_ACTIVITY = "com.android.settings.Settings"
ICON_COLOR = "#5F6368"
ACTIVITIES = {
    MAIN_ACTIVITY: "main",
    "com.android.settings.Settings$NetworkDashboardActivity": "network",
    "com.android.settings.Settings$WifiSettingsActivity": "network",
    "com.android.settings.Settings$ConnectedDeviceDashboardActivity": "bluetooth",
    "com.android.settings.Settings$DisplaySettingsActivity": "display",
}
_PAGE_ACTIVITY = {
    "main": MAIN_ACTIVITY,
    "network": "com.android.settings.Settings$NetworkDashboardActivity",
    "bluetooth": "com.android.settings.Settings$ConnectedDeviceDashboardActivity",
    "display": "com.android.settings.Settings$DisplaySettingsActivity",
}
_TITLES = {"network": "Network & internet", "bluetooth": "Bluetooth", "display": "Display"}



def new_page(name: str) -> Page:
    """Fresh page for ``am start``."""
    return Page(name)

def activity(page: Page) -> str:
    """Activity class for a settings page."""
    return _PAGE_ACTIVITY.get(page.name, MAIN_ACTIVITY)


def text_filter(page: Page, key: str, text: str) -> str:
    """Settings has no text fields."""
    return text


def on_enter(phone: SimPhone, page: Page) -> None:
    """ENTER has no effect in Settings."""


def _flip(phone: SimPhone, ns: str, key: str) -> None:
    phone.put_setting(ns, key, "0" if phone.get_setting(ns, key) == "1" else "1")


def _flip_night(phone: SimPhone) -> None:
    phone.put_setting("secure", "ui_night_mode", "1" if _night(phone) else "2")


def _night(phone: SimPhone) -> bool:
    return phone.get_setting("secure", "ui_night_mode") == "2"


def slider_value(bounds: tuple[int, int, int, int], x: int, pad: int) -> int:
    """Brightness 0-255 for a touch at x on a slider (same geometry the renderer uses)."""
    a, b = bounds[0] + pad, bounds[2] - pad
    return max(0, min(255, round((x - a) * 255 / (b - a))))


def brightness(phone: SimPhone) -> int:
    """Current screen_brightness, clamped to 0-255 (garbage reads as the default)."""
    try:
        return max(0, min(255, int(phone.get_setting("system", "screen_brightness") or "102")))
    except ValueError:
        return 102


def build(phone: SimPhone, kit: Kit, page: Page) -> Node:
    """Window for one settings page."""
    win = kit.window(PACKAGE)
    on = phone.get_setting
    if page.name == "main":
        y = kit.appbar(win, "Settings", pkg=PACKAGE)
        wifi = "Wi‑Fi" if on("global", "wifi_on") == "1" else "Wi‑Fi off"
        if on("global", "airplane_mode_on") == "1":
            wifi = "Airplane mode is on"
        bt = "On" if on("global", "bluetooth_on") == "1" else "Off"
        rows = (
            ("Network & internet", f"Mobile, {wifi}, hotspot", "network"),
            ("Bluetooth", f"Bluetooth is {bt.lower()}", "bluetooth"),
            ("Display", "Dark theme, font size, brightness", "display"),
            ("Battery", f"{phone.battery_level}%", ""),
            ("Apps", "Recent apps, default apps", ""),
            ("About phone", "sdk_gphone64_x86_64", ""),
        )
        for title, summary, target in rows:
            action = (lambda x, yy, t=target: phone.push_page(PACKAGE, Page(t))) if target else None
            y = kit.row(win, y, title, summary=summary, action=action)
        return win
    y = kit.appbar(win, _TITLES.get(page.name, "Settings"), back=lambda x, yy: phone.pop_page(),
                   pkg=PACKAGE)
    if page.name == "network":
        y = kit.row(win, y, "Wi‑Fi", switch=(on("global", "wifi_on") == "1",
                                            lambda x, yy: _flip(phone, "global", "wifi_on")))
        y = kit.row(win, y, "Airplane mode", switch=(
            on("global", "airplane_mode_on") == "1",
            lambda x, yy: _flip(phone, "global", "airplane_mode_on")))
        kit.row(win, y, "Hotspot & tethering", summary="Off")
    elif page.name == "bluetooth":
        kit.row(win, y, "Use Bluetooth", switch=(on("global", "bluetooth_on") == "1",
                                                lambda x, yy: _flip(phone, "global", "bluetooth_on")))
    elif page.name == "display":
        y = kit.row(win, y, "Dark theme", switch=(_night(phone), lambda x, yy: _flip_night(phone)))
        value = brightness(phone)
        win.add(kit.text((kit.s(64), y + kit.s(20), kit.w - kit.s(64), y + kit.s(110)),
                         f"Brightness level  {round(value * 100 / 255)}%", size=48,
                         rid="android:id/title"))
        box = (kit.s(40), y + kit.s(110), kit.w - kit.s(40), y + kit.s(230))
        pad = kit.s(30)

        def set_level(x: int, yy: int) -> None:
            phone.put_setting("system", "screen_brightness", str(slider_value(box, x, pad)))

        win.add(Node(box, cls="android.widget.SeekBar", text=str(value), rid=PACKAGE + ":id/seekbar",
                     desc="Brightness level", clickable=True, focusable=True, style="slider",
                     value=value, action=set_level))
    return win
