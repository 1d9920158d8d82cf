"""Settings' Apps pages: All apps, App info (Open, Force stop), its Notifications switch, Storage & cache
(Clear storage) and the permission controller's App permissions with each group's Allow / Don't allow.

Force stop and Clear storage ask first, as Android does ("Force stop?", "Delete app data?"); what they do is
what ``am force-stop`` and ``pm clear`` do. The permission pages belong to the permission controller
(``com.google.android.permissioncontroller``) and change the state ``pm`` and ``dumpsys package`` read.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .. import package_manager, permissions
from ..state import Page
from ..ui import Kit
from ..widgets import Node, bind
from .settings_device import main_switch, open_subpage

if TYPE_CHECKING:
    from ..phone import SimPhone

APP_INFO_ACTIVITY = "com.android.settings.applications.InstalledAppDetails"
_MANAGE_PERMISSIONS = "com.android.permissioncontroller.permission.ui.ManagePermissionsActivity"
PAGE_ACTIVITIES = {"storage": "com.android.settings.SubSettings", "app_permissions": _MANAGE_PERMISSIONS,
                   "permission": _MANAGE_PERMISSIONS}
#: Pages about one app: ``am start`` needs ``-d package:PKG`` for them.
PER_APP = frozenset({"app_info", "app_notifications"})
TITLES: dict[str, str | Callable[[Page], str]] = {
    "apps": "All apps", "app_info": "App info", "app_notifications": "Notifications", "storage": "Storage",
    "app_permissions": "App permissions", "permission": lambda page: f"{page.data['group']} permission"}
_ID = "com.android.settings:id/"
#: The permission controller's resources are named for its AOSP package, as its ids show on a Pixel.
ID_PACKAGE = "com.android.permissioncontroller"
_PC_ID = ID_PACKAGE + ":id/"
#: Installed size of each app (its APK), in MB.
_APP_MB = {permissions.CLOCK: 21.4, permissions.CONTACTS: 17.9, permissions.SETTINGS: 42.6,
           permissions.CHROME: 236.0, permissions.CAMERA: 9.8}


def launcher_apps() -> dict[str, str]:
    """Package → label of every app with a launcher icon, by label."""
    from . import APPS, INERT_APPS  # the table is complete once this package has been imported

    labels = {pkg: app.LABEL for pkg, app in APPS.items()} | {pkg: v[0] for pkg, v in INERT_APPS.items()}
    return dict(sorted(labels.items(), key=lambda kv: kv[1]))


def page_for_uri(name: str, uri: str) -> Page | None:
    """The page for ``-d package:PKG``; None (the activity finishes) without an installed app."""
    pkg = uri.removeprefix("package:")
    return Page(name, {"pkg": pkg}) if uri.startswith("package:") and pkg in launcher_apps() else None


def _kb(pkg: str, phone: SimPhone) -> int:
    """The app's user data in kB (its alarms or contacts take room)."""
    items = {permissions.CLOCK: len(phone.alarms), permissions.CONTACTS: len(phone.contacts)}.get(pkg, 0)
    return 8 + 4 * items


def _sizes(phone: SimPhone, pkg: str) -> dict[str, str]:
    app_mb, data_kb = _APP_MB.get(pkg, 12.0), _kb(pkg, phone)
    return {"App size": f"{app_mb:.2f} MB", "User data": f"{data_kb:.2f} kB", "Cache": "0 B",
            "Total": f"{app_mb + data_kb / 1000:.2f} MB"}


def _apps(phone: SimPhone, kit: Kit, page: Page, win: Node, y: int) -> None:
    for pkg, label in launcher_apps().items():
        y = kit.row(win, y, label, summary=_sizes(phone, pkg)["Total"],
                    action=bind(open_subpage, phone, "app_info", pkg=pkg))


def _confirm(phone: SimPhone, page: Page, title: str, message: str, then) -> None:
    phone.push_page(permissions.SETTINGS, Page("confirm", {"below": page, "title": title, "message": message,
                                                            "then": then}))


def _confirmed(phone: SimPhone, page: Page) -> None:
    phone.pop_page()
    page.data["then"](phone, page.data["below"].data["pkg"])


def confirm_dialog(phone: SimPhone, kit: Kit, page: Page) -> list[Node]:
    """The AlertDialog of a "confirm" page, over the page below it: OK does it, Cancel (or BACK) does not."""
    return kit.alert(page.data["title"], page.data["message"],
                     (("OK", bind(_confirmed, phone, page)), ("Cancel", lambda x, y: phone.pop_page())),
                     permissions.SETTINGS)


def _allowed_groups(phone: SimPhone, pkg: str) -> list[str]:
    return [g for g in permissions.groups(pkg) if phone.permissions.group_granted(pkg, g)]


def _permissions_summary(phone: SimPhone, pkg: str) -> str:
    if not permissions.groups(pkg):
        return "No permissions requested"
    allowed = _allowed_groups(phone, pkg)
    if not allowed:
        return "No permissions allowed"
    return allowed[0] if len(allowed) == 1 else ", ".join(allowed[:-1]) + " and " + allowed[-1]


def _force_stop(phone: SimPhone, pkg: str) -> None:
    phone.force_stop(pkg)


def _app_info(phone: SimPhone, kit: Kit, page: Page, win: Node, y: int) -> None:
    from . import APPS

    s, pkg = kit.s, page.data["pkg"]
    win.add(kit.text((s(64), y + s(20), kit.w - s(64), y + s(140)), launcher_apps()[pkg], size=64,
                     align="center", rid=_ID + "entity_header_title"))
    y += s(170)
    half = (kit.w - s(192)) // 2
    win.add(kit.button((s(64), y, s(64) + half, y + s(130)), "Open", _ID + "button1",
                       bind(phone.launch, pkg), enabled=pkg in APPS))
    win.add(kit.button((kit.w - s(64) - half, y, kit.w - s(64), y + s(130)), "Force stop", _ID + "button3",
                       bind(_confirm, phone, page, "Force stop?",
                            "If you force stop an app, it may misbehave.", _force_stop),
                       enabled=pkg in phone.tasks))
    y += s(170)
    notified = phone.permissions.is_granted(pkg, permissions.NOTIFICATIONS)
    y = kit.row(win, y, "Notifications", summary="On" if notified else "Off",
                action=bind(open_subpage, phone, "app_notifications", pkg=pkg))
    y = kit.row(win, y, "Permissions", summary=_permissions_summary(phone, pkg),
                action=bind(_open_permissions, phone, pkg))
    kit.row(win, y, "Storage & cache", summary=f"{_sizes(phone, pkg)['Total']} used in internal storage",
            action=bind(open_subpage, phone, "storage", pkg=pkg))


def _flip_notifications(phone: SimPhone, pkg: str) -> None:
    allowed = phone.permissions.is_granted(pkg, permissions.NOTIFICATIONS)
    phone.permissions.set(pkg, permissions.NOTIFICATIONS, not allowed, by_user=True)
    phone.changed()


def _app_notifications(phone: SimPhone, kit: Kit, page: Page, win: Node, y: int) -> None:
    pkg = page.data["pkg"]
    main_switch(kit, win, y, f"All {launcher_apps()[pkg]} notifications",
                phone.permissions.is_granted(pkg, permissions.NOTIFICATIONS),
                bind(_flip_notifications, phone, pkg),
                enabled=permissions.NOTIFICATIONS in permissions.REQUESTED.get(pkg, ()))


def _storage(phone: SimPhone, kit: Kit, page: Page, win: Node, y: int) -> None:
    s, pkg = kit.s, page.data["pkg"]
    for title, size in _sizes(phone, pkg).items():
        y = kit.row(win, y, title, summary=size)
    half = (kit.w - s(192)) // 2
    win.add(kit.button((s(64), y + s(40), s(64) + half, y + s(170)), "Clear storage", _ID + "button1",
                       bind(_confirm, phone, page, "Delete app data?",
                            "All this app\u2019s data will be deleted permanently. This includes all files, "
                            "settings, accounts, databases, etc.", package_manager.clear)))
    win.add(kit.button((kit.w - s(64) - half, y + s(40), kit.w - s(64), y + s(170)), "Clear cache",
                       _ID + "button2", lambda x, yy: None, enabled=False))


def _open_permissions(phone: SimPhone, pkg: str, group: str = "") -> None:
    name = "permission" if group else "app_permissions"
    phone.push_page(permissions.SETTINGS, Page(name, {"pkg": pkg, "group": group},
                                               package=permissions.PERMISSION_CONTROLLER))


def _app_permissions(phone: SimPhone, kit: Kit, page: Page, win: Node, y: int) -> None:
    s, pkg = kit.s, page.data["pkg"]
    win.add(kit.text((s(64), y, kit.w, y + s(100)), launcher_apps()[pkg], size=52, rid=_PC_ID + "name"))
    y += s(110)
    groups = list(permissions.groups(pkg))
    if not groups:
        win.add(kit.text((s(64), y, kit.w, y + s(120)), "No permissions requested", size=46, color="text2"))
        return
    allowed = _allowed_groups(phone, pkg)
    for heading, shown in (("Allowed", allowed), ("Not allowed", [g for g in groups if g not in allowed])):
        if not shown:
            continue
        win.add(kit.text((s(64), y, kit.w, y + s(90)), heading, size=40, bold=True, color="primary",
                         rid="android:id/title"))
        y += s(100)
        for group in shown:
            y = kit.row(win, y, group, action=bind(_open_permissions, phone, pkg, group))


def _choose(phone: SimPhone, pkg: str, group: str, allow: bool) -> None:
    phone.permissions.set_group(pkg, group, allow)
    phone.changed()


def _permission(phone: SimPhone, kit: Kit, page: Page, win: Node, y: int) -> None:
    s, pkg, group = kit.s, page.data["pkg"], page.data["group"]
    win.add(kit.text((s(64), y, kit.w, y + s(100)), launcher_apps()[pkg], size=52, rid=_PC_ID + "app_name"))
    y += s(130)
    allowed = phone.permissions.group_granted(pkg, group)
    foreground = group in permissions.FOREGROUND_GROUPS
    choices = (("Allow only while using the app" if foreground else "Allow",
                "allow_foreground_only_radio_button" if foreground else "allow_radio_button", True),
               (permissions.DENY_LABEL, "deny_radio_button", False))
    for label, rid, allow in choices:
        win.add(kit.radio((s(40), y, kit.w - s(40), y + s(150)), label, allowed == allow, _PC_ID + rid,
                          bind(_choose, phone, pkg, group, allow)))
        y += s(160)


BUILDERS = {"apps": _apps, "app_info": _app_info, "app_notifications": _app_notifications,
            "storage": _storage, "app_permissions": _app_permissions, "permission": _permission}
