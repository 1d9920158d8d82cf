"""Chrome, as far as the simulated phone goes: it opens the web links it is sent (``VIEW`` of an http or
https URL) in a tab that shows the address and that the phone has no internet; it loads nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from ..state import Page
from ..ui import Kit
from ..widgets import Node

if TYPE_CHECKING:
    from ..phone import SimPhone

PACKAGE = "com.android.chrome"
LABEL = "Chrome"
MAIN_ACTIVITY = "com.google.android.apps.chrome.Main"
ACTIVITIES = {MAIN_ACTIVITY: "tab"}
ICON_COLOR = "#EA4335"
_ID = PACKAGE + ":id/"
VIEW = "android.intent.action.VIEW"


def new_page(name: str) -> Page:
    """A new tab (the start page: no address)."""
    return Page("tab", {"url": ""})


def activity(page: Page) -> str:
    """Every tab is Chrome's one activity."""
    return MAIN_ACTIVITY


def text_filter(page: Page, key: str, text: str) -> str:
    """The address bar takes any text."""
    return text


def on_enter(phone: SimPhone, page: Page) -> None:
    """ENTER in the address bar does nothing: there is no network to load from."""


def on_intent(phone: SimPhone, action: str, extras: dict[str, object], data: str | None,
              mime: str | None) -> bool:
    """``VIEW`` of a web link: a new tab showing it in front."""
    if action != VIEW or not data or urlsplit(data).scheme.lower() not in ("http", "https"):
        return False
    phone.launch(PACKAGE)
    phone.push_page(PACKAGE, Page("tab", {"url": data}))
    return True


def build(phone: SimPhone, kit: Kit, page: Page) -> Node:
    """A tab: the address bar and the offline page."""
    s = kit.s
    win = kit.window(PACKAGE)
    url = page.data.get("url", "")
    top = kit.top + s(24)
    win.add(Node((s(32), top, kit.w - s(32), top + s(120)), cls="android.widget.EditText",
                 text=url or "Search or type URL", rid=_ID + "url_bar", clickable=True, focusable=True,
                 style="edit", size=s(42)))
    host = urlsplit(url).hostname or ""
    y = top + s(400)
    if url:
        win.add(kit.text((s(80), y, kit.w - s(80), y + s(120)), "No internet", size=64, bold=True,
                         rid=_ID + "main-message"))
        win.add(kit.text((s(80), y + s(140), kit.w - s(80), y + s(260)), f"{host} could not be reached",
                         size=42, color="text2"))
    return win
