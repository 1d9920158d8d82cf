"""The permission dialog an app shows when it starts without a permission it asks for: the permission
controller's GrantPermissionsActivity, over the app, one dialog per permission group.

"Allow" grants the group, "Don’t allow" denies it (a second denial also stops the app from asking again, as
on Android 11+), BACK closes the dialog without an answer. The dialog belongs to the app's task: it is shown
while that app is in front, and goes when the app is stopped.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from .apps.launcher import app_label
from .keys import KEYCODES
from .permissions import DENY_LABEL, PERMISSION_CONTROLLER, QUESTIONS
from .ui import Kit
from .widgets import Node, bind

if TYPE_CHECKING:
    from .phone import SimPhone

GRANT_ACTIVITY = "com.android.permissioncontroller.permission.ui.GrantPermissionsActivity"
_ID = "com.android.permissioncontroller:id/"


class Prompt(NamedTuple):
    """The groups ``pkg`` is asking for, the one shown first."""

    pkg: str
    groups: tuple[str, ...]


def prompt_at_start(phone: SimPhone, pkg: str) -> Prompt | None:
    """The dialog ``pkg`` opens when it starts now, if it lacks a permission it asks for."""
    groups = phone.permissions.to_ask(pkg)
    return Prompt(pkg, tuple(groups)) if groups else None


def visible(phone: SimPhone) -> bool:
    """True when the dialog is in front: its app is, with no overview or crash dialog over it."""
    prompt = phone.prompt
    return prompt is not None and prompt.pkg == phone.fg and not phone.overview and phone.dialog_pkg is None


def answer(phone: SimPhone, allow: bool) -> None:
    """The user's answer to the group shown; the next group's dialog follows, if the app asks for more."""
    prompt = phone.prompt
    if prompt is None:
        return
    group = prompt.groups[0]
    if allow:
        phone.permissions.set_group(prompt.pkg, group, True)
    else:
        phone.permissions.deny_from_dialog(prompt.pkg, group)
    rest = prompt.groups[1:]
    phone.prompt = Prompt(prompt.pkg, rest) if rest else None
    phone.changed()


def on_key(phone: SimPhone, code: int) -> bool:
    """Keys while the dialog is in front: BACK closes it unanswered; HOME and the overview go on (False);
    any other key is the dialog's (no field of the app below has focus)."""
    if not visible(phone) or code in (KEYCODES["HOME"], KEYCODES["APP_SWITCH"]):
        return False
    if code == KEYCODES["BACK"]:
        phone.prompt = None
        phone.changed()
    return True


def build(phone: SimPhone, kit: Kit, prompt: Prompt) -> list[Node]:
    """The scrim (blocks the app below) and the dialog's window."""
    s = kit.s
    scrim = Node((0, 0, kit.w, kit.h), style="scrim", dump=False, clickable=True, action=lambda x, y: None)
    top, bottom = kit.h // 2 - s(420), kit.h // 2 + s(420)
    win = Node((0, 0, kit.w, kit.h), package=PERMISSION_CONTROLLER)
    content = Node((0, 0, kit.w, kit.h), rid="android:id/content")
    box = (s(60), top, kit.w - s(60), bottom)
    single = Node(box, cls="android.widget.LinearLayout", rid=_ID + "grant_singleton")
    dialog = Node(box, cls="android.widget.LinearLayout", rid=_ID + "grant_dialog", style="dialog")
    message = QUESTIONS[prompt.groups[0]].format(app=app_label(prompt.pkg))
    dialog.add(kit.text((s(110), top + s(80), kit.w - s(110), top + s(400)), message, size=54, align="center",
                        rid=_ID + "permission_message", wrap=True))
    buttons = Node((s(100), top + s(470), kit.w - s(100), bottom - s(40)), cls="android.widget.LinearLayout")
    for i, (label, rid, allow) in enumerate((("Allow", "permission_allow_button", True),
                                             (DENY_LABEL, "permission_deny_button", False))):
        y = top + s(480) + i * s(160)
        buttons.add(kit.button((s(100), y, kit.w - s(100), y + s(140)), label, _ID + rid,
                               bind(answer, phone, allow), filled=False, outlined=True))
    dialog.add(buttons)
    win.add(content.add(single.add(dialog)))
    return [scrim, win]
