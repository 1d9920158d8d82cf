"""Quick Settings: the tiles and the brightness slider of the notification shade, as a Pixel shows them.

Each tile is a view the way SystemUI's QSTileViewImpl reports itself to accessibility: an
``android.widget.Switch`` whose content-desc is the tile's label, text "On"/"Off", checkable and checked,
with the label (``tile_label``) and the state (``app_label``) inside; an unavailable tile (Battery Saver
while charging) is a plain ``android.widget.LinearLayout``, not clickable. A tap flips the setting the tile
stands for (the same settings-store key Settings writes); a long press opens that setting's Settings page.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, NamedTuple

from . import power, toggles
from .apps import settings
from .ui import Kit
from .widgets import Node, bind

if TYPE_CHECKING:
    from .phone import SimPhone

SYSUI = "com.android.systemui"
_ID = SYSUI + ":id/"


class Tile(NamedTuple):
    """One Quick Settings tile: its label, its state and action, the Settings page a long press opens."""

    label: str
    is_on: Callable[[SimPhone], bool]
    flip: Callable[[SimPhone], None]
    page: str
    on_label: str = "On"
    available: Callable[[SimPhone], bool] = lambda phone: True


def _toggle_tile(label: str, toggle: toggles.Toggle, page: str, on_label: str = "On") -> Tile:
    return Tile(label, toggle.is_on, toggle.flip, page, on_label)


TILES = (
    _toggle_tile("Wi\u2011Fi", toggles.WIFI, "network", on_label="AndroidWifi"),
    _toggle_tile("Bluetooth", toggles.BLUETOOTH, "bluetooth"),
    _toggle_tile("Do Not Disturb", toggles.DO_NOT_DISTURB, "dnd"),
    _toggle_tile("Airplane mode", toggles.AIRPLANE, "network"),
    _toggle_tile("Auto-rotate", toggles.AUTO_ROTATE, "display"),
    Tile("Battery Saver", power.saver_on, lambda phone: power.set_saver(phone, not power.saver_on(phone)),
         "battery_saver", available=lambda phone: not power.plugged(phone)),
    _toggle_tile("Dark theme", toggles.DARK_THEME, "display"),
    _toggle_tile("Location", toggles.LOCATION, "location"),
)
#: The first swipe shows this many tiles (Quick Quick Settings), the second all of them.
QQS_TILES = 4


def _open_page(phone: SimPhone, page: str) -> None:
    phone.shade = 0
    settings.open_page(phone, page)


def tile_node(phone: SimPhone, kit: Kit, tile: Tile, box: tuple[int, int, int, int]) -> Node:
    """The view of one tile."""
    s = kit.s
    available = tile.available(phone)
    on = available and tile.is_on(phone)
    state = (tile.on_label if on else "Off") if available else "Unavailable"
    node = Node(box, cls="android.widget.Switch" if available else "android.widget.LinearLayout",
                text=("On" if on else "Off") if available else "", desc=tile.label, checkable=available,
                checked=on, clickable=available, focusable=True, style="tile",
                action=bind(tile.flip, phone) if available else None,
                long_action=bind(_open_page, phone, tile.page))
    x1, y1, x2, y2 = box
    color = "on_primary" if on else "text" if available else "track_off"
    node.add(kit.text((x1 + s(140), y1 + s(30), x2 - s(20), y1 + s(100)), tile.label, size=36, bold=True,
                      rid=_ID + "tile_label", color=color))
    node.add(kit.text((x1 + s(140), y1 + s(100), x2 - s(20), y2 - s(30)), state, size=34,
                      rid=_ID + "app_label", color=color))
    return node


def tiles_panel(phone: SimPhone, kit: Kit, top: int, expanded: bool) -> Node:
    """``quick_qs_panel`` (the first four tiles) or, ``expanded``, ``quick_settings_panel``: the brightness
    slider above every tile. Two tiles a row."""
    s = kit.s
    shown = TILES if expanded else TILES[:QQS_TILES]
    y = top + (s(150) if expanded else 0)
    rows = (len(shown) + 1) // 2
    panel = Node((0, top, kit.w, y + rows * s(210)), cls="android.widget.LinearLayout",
                 rid=_ID + ("quick_settings_panel" if expanded else "quick_qs_panel"))
    if expanded:
        panel.add(_brightness(phone, kit, top))
    width = (kit.w - s(120)) // 2
    for i, tile in enumerate(shown):
        x = s(40) + (i % 2) * (width + s(40))
        ty = y + (i // 2) * s(210)
        panel.add(tile_node(phone, kit, tile, (x, ty, x + width, ty + s(190))))
    return panel


def _brightness(phone: SimPhone, kit: Kit, top: int) -> Node:
    s = kit.s
    box = (s(40), top + s(10), kit.w - s(40), top + s(130))
    holder = Node(box, cls="android.widget.LinearLayout", rid=_ID + "brightness_slider")
    return holder.add(kit.slider(box, settings.brightness(phone), 255, _ID + "slider", "Display brightness",
                                 partial(settings.set_brightness, phone)))
