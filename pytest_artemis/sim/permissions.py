"""Runtime permissions of the simulated phone's apps (Android 13-14 rules): what each app requests, what is
granted with which flags, the groups the permission controller shows, and what each app asks for at launch.

By default every requested runtime permission is granted, as the system image's default grants leave them,
so no app asks. ``Permissions.ask(pkg)`` puts an app in the state of a fresh install from a store: nothing
granted, and the app asks for its launch permissions when it starts (also after ``pm clear``).
"""

from __future__ import annotations

from dataclasses import dataclass

CLOCK = "com.google.android.deskclock"
CONTACTS = "com.android.contacts"
SETTINGS = "com.android.settings"
CHROME = "com.android.chrome"
CAMERA = "com.android.camera2"
PERMISSION_CONTROLLER = "com.google.android.permissioncontroller"

_P = "android.permission."
NOTIFICATIONS = _P + "POST_NOTIFICATIONS"

#: Runtime ("dangerous") permissions → the group the permission controller shows them in.
RUNTIME: dict[str, str] = {
    NOTIFICATIONS: "Notifications",
    _P + "READ_CONTACTS": "Contacts", _P + "WRITE_CONTACTS": "Contacts", _P + "GET_ACCOUNTS": "Contacts",
    _P + "CAMERA": "Camera", _P + "RECORD_AUDIO": "Microphone",
    _P + "ACCESS_FINE_LOCATION": "Location", _P + "ACCESS_COARSE_LOCATION": "Location",
    _P + "CALL_PHONE": "Phone", _P + "READ_PHONE_STATE": "Phone",
    _P + "READ_CALENDAR": "Calendar", _P + "WRITE_CALENDAR": "Calendar",
    _P + "READ_MEDIA_AUDIO": "Music and audio", _P + "READ_MEDIA_IMAGES": "Photos and videos",
    _P + "READ_MEDIA_VIDEO": "Photos and videos", _P + "SEND_SMS": "SMS", _P + "READ_SMS": "SMS",
}
#: Development permissions: not runtime, but ``pm grant`` may change them.
DEVELOPMENT = frozenset(_P + n for n in ("WRITE_SECURE_SETTINGS", "DUMP", "READ_LOGS", "SET_ANIMATION_SCALE",
                                         "PACKAGE_USAGE_STATS", "CHANGE_CONFIGURATION"))
#: Install-time permissions: granted at install, never changeable by ``pm``.
INSTALL = frozenset(_P + n for n in (
    "INTERNET", "ACCESS_NETWORK_STATE", "ACCESS_WIFI_STATE", "WAKE_LOCK", "VIBRATE", "RECEIVE_BOOT_COMPLETED",
    "FOREGROUND_SERVICE", "SCHEDULE_EXACT_ALARM", "USE_EXACT_ALARM", "DISABLE_KEYGUARD", "NFC",
    "READ_SYNC_SETTINGS", "WRITE_SYNC_SETTINGS", "MODIFY_AUDIO_SETTINGS", "BLUETOOTH", "WRITE_SETTINGS",
    "CHANGE_WIFI_STATE", "STATUS_BAR", "MANAGE_USERS", "SET_ALARM", "USE_FULL_SCREEN_INTENT"))

#: What the permission controller asks for each group (Android 13-14 wording; the app's name is bold there).
QUESTIONS = {
    "Notifications": "Allow {app} to send you notifications?",
    "Contacts": "Allow {app} to access your contacts?",
    "Camera": "Allow {app} to take pictures and record video?",
    "Microphone": "Allow {app} to record audio?",
    "Location": "Allow {app} to access this device\u2019s location?",
    "Phone": "Allow {app} to make and manage phone calls?",
    "Calendar": "Allow {app} to access your calendar?",
    "Music and audio": "Allow {app} to access music and audio on this device?",
    "Photos and videos": "Allow {app} to access photos and videos on this device?",
    "SMS": "Allow {app} to send and view SMS messages?",
}
#: The permission controller's deny label (with a typographic apostrophe, as Android writes it).
DENY_LABEL = "Don\u2019t allow"
#: Groups whose Allow is "while using the app" (their radio buttons say so).
FOREGROUND_GROUPS = frozenset({"Camera", "Microphone", "Location"})

#: The permissions each package's manifest requests (install and runtime).
REQUESTED: dict[str, tuple[str, ...]] = {
    CLOCK: tuple(_P + n for n in (
        "POST_NOTIFICATIONS", "READ_MEDIA_AUDIO", "WAKE_LOCK", "VIBRATE", "RECEIVE_BOOT_COMPLETED",
        "SCHEDULE_EXACT_ALARM", "USE_EXACT_ALARM", "FOREGROUND_SERVICE", "DISABLE_KEYGUARD", "SET_ALARM",
        "USE_FULL_SCREEN_INTENT", "INTERNET")),
    CONTACTS: tuple(_P + n for n in (
        "READ_CONTACTS", "WRITE_CONTACTS", "GET_ACCOUNTS", "CALL_PHONE", "READ_PHONE_STATE",
        "POST_NOTIFICATIONS", "INTERNET", "NFC", "READ_SYNC_SETTINGS", "WRITE_SYNC_SETTINGS", "WAKE_LOCK")),
    SETTINGS: tuple(_P + n for n in (
        "WRITE_SETTINGS", "WRITE_SECURE_SETTINGS", "ACCESS_NETWORK_STATE", "ACCESS_WIFI_STATE",
        "CHANGE_WIFI_STATE", "BLUETOOTH", "MODIFY_AUDIO_SETTINGS", "STATUS_BAR", "MANAGE_USERS", "INTERNET")),
    CHROME: tuple(_P + n for n in (
        "CAMERA", "RECORD_AUDIO", "ACCESS_FINE_LOCATION", "ACCESS_COARSE_LOCATION", "POST_NOTIFICATIONS",
        "INTERNET", "ACCESS_NETWORK_STATE", "WAKE_LOCK", "VIBRATE")),
    CAMERA: tuple(_P + n for n in (
        "CAMERA", "RECORD_AUDIO", "ACCESS_FINE_LOCATION", "ACCESS_COARSE_LOCATION", "VIBRATE", "WAKE_LOCK")),
}
#: The groups an app asks for when it starts without them, in order (one dialog each).
ASKS_AT_LAUNCH: dict[str, tuple[str, ...]] = {CLOCK: ("Notifications",), CONTACTS: ("Contacts",)}

GRANTED_BY_DEFAULT = "GRANTED_BY_DEFAULT"
USER_SET = "USER_SET"
USER_FIXED = "USER_FIXED"
SENSITIVE = ("USER_SENSITIVE_WHEN_GRANTED", "USER_SENSITIVE_WHEN_DENIED")


class PermissionRefused(Exception):
    """``pm grant``/``revoke`` refused the change: ``java_class`` and message as Android throws them."""

    def __init__(self, java_class: str, message: str):
        super().__init__(message)
        self.java_class = java_class


@dataclass
class Grant:
    """One runtime permission of one package: granted or not, and Android's permission flags."""

    granted: bool
    flags: frozenset[str] = frozenset()


def runtime_requested(pkg: str) -> tuple[str, ...]:
    """The runtime permissions ``pkg`` requests, in manifest order."""
    return tuple(p for p in REQUESTED.get(pkg, ()) if p in RUNTIME)


def groups(pkg: str) -> dict[str, tuple[str, ...]]:
    """Permission group → the permissions of it ``pkg`` requests (groups in first-request order)."""
    found: dict[str, list[str]] = {}
    for perm in runtime_requested(pkg):
        found.setdefault(RUNTIME[perm], []).append(perm)
    return {group: tuple(perms) for group, perms in found.items()}


class Permissions:
    """The runtime-permission state of one phone: what ``pm``, Settings and the permission dialog change."""

    def __init__(self) -> None:
        self._asking: set[str] = set()
        self._state: dict[str, dict[str, Grant]] = {}
        for pkg in REQUESTED:
            self.reset(pkg)

    def reset(self, pkg: str) -> None:
        """Back to the package's first state: granted by default, or nothing granted while it asks."""
        granted = pkg not in self._asking
        flags = frozenset({GRANTED_BY_DEFAULT} if granted else ()) | frozenset(SENSITIVE)
        self._state[pkg] = {perm: Grant(granted, flags) for perm in runtime_requested(pkg)}

    def ask(self, pkg: str, asking: bool = True) -> None:
        """Set ``pkg`` to start with nothing granted and ask at launch (``asking``), or to the default."""
        if asking:
            self._asking.add(pkg)
        else:
            self._asking.discard(pkg)
        self.reset(pkg)

    def grant(self, pkg: str, perm: str) -> Grant:
        """The state of one requested runtime permission (KeyError when not requested)."""
        return self._state[pkg][perm]

    def is_granted(self, pkg: str, perm: str) -> bool:
        """True when ``pkg`` requests ``perm`` and it is granted (a system package's absent entry: False)."""
        entry = self._state.get(pkg, {}).get(perm)
        return entry is not None and entry.granted

    def set(self, pkg: str, perm: str, granted: bool, *, by_user: bool) -> None:
        """Grant or revoke; a user's choice (Settings, the dialog) is marked USER_SET, as Android does."""
        old = self._state[pkg][perm]
        flags = old.flags | {USER_SET} if by_user else old.flags
        if granted and by_user:
            flags -= {USER_FIXED}
        self._state[pkg][perm] = Grant(granted, flags)

    def group_granted(self, pkg: str, group: str) -> bool:
        """A group is allowed when any permission of it the app requests is granted."""
        return any(self.is_granted(pkg, p) for p in groups(pkg).get(group, ()))

    def set_group(self, pkg: str, group: str, allow: bool) -> None:
        """The user allows or denies a whole group (Settings' Allow / Don't allow, the dialog's buttons)."""
        for perm in groups(pkg).get(group, ()):
            self.set(pkg, perm, allow, by_user=True)

    def deny_from_dialog(self, pkg: str, group: str) -> None:
        """"Don't allow" in the dialog: a second denial means don't ask again (USER_FIXED, Android 11+)."""
        for perm in groups(pkg).get(group, ()):
            old = self._state[pkg][perm]
            fixed = {USER_FIXED} if USER_SET in old.flags else set()
            self._state[pkg][perm] = Grant(False, old.flags | {USER_SET} | fixed)

    def to_ask(self, pkg: str) -> list[str]:
        """The launch groups ``pkg`` would ask for now: requested, not granted, not fixed by the user."""
        pending = []
        for group in ASKS_AT_LAUNCH.get(pkg, ()):
            perms = groups(pkg).get(group, ())
            if perms and not self.group_granted(pkg, group) \
                    and not any(USER_FIXED in self._state[pkg][p].flags for p in perms):
                pending.append(group)
        return pending

    def check_change(self, pkg: str, perm: str) -> None:
        """Raise PermissionRefused as ``pm grant``/``revoke`` does for ``perm`` of an installed ``pkg``."""
        if perm not in RUNTIME and perm not in INSTALL and perm not in DEVELOPMENT:
            raise PermissionRefused("java.lang.IllegalArgumentException", f"Unknown permission: {perm}")
        if perm not in RUNTIME and perm not in DEVELOPMENT:
            raise PermissionRefused("java.lang.SecurityException", f"Permission {perm} requested by {pkg} is "
                                                                   "not a changeable permission type")
        if perm not in REQUESTED.get(pkg, ()):
            raise PermissionRefused("java.lang.SecurityException",
                                    f"Package {pkg} has not requested permission {perm}")

    def to_json(self) -> dict[str, dict[str, bool]]:
        """Package → runtime permission → granted (for ``simctl state``)."""
        return {pkg: {perm: g.granted for perm, g in perms.items()}
                for pkg, perms in sorted(self._state.items()) if perms}
