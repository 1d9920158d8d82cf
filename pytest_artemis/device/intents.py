"""The shell commands of the setup steps: ``am start`` intents, contacts-provider inserts, launches (argv
lists, each word passed unchanged, validated before anything reaches the device)."""

from __future__ import annotations

import re

SET_ALARM = "android.intent.action.SET_ALARM"
SET_TIMER = "android.intent.action.SET_TIMER"
VIEW = "android.intent.action.VIEW"
EXTRA = "android.intent.extra.alarm."
_CONTACTS = "content://com.android.contacts/"
_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:[^\s]+")
_WORD = re.compile(r"[A-Za-z0-9_.]+")
_ACTIVITY = re.compile(r"\.?[A-Za-z_][A-Za-z0-9_$]*(\.[A-Za-z_][A-Za-z0-9_$]*)*")
_ID = re.compile(r"_id=(\d+)")
_MIMETYPES = {"name": "vnd.android.cursor.item/name", "phone": "vnd.android.cursor.item/phone_v2",
              "email": "vnd.android.cursor.item/email_v2"}


def check_word(value: str, what: str) -> None:
    """A permission or extra name: letters, digits, ``_`` and ``.`` only."""
    if not isinstance(value, str) or not _WORD.fullmatch(value):
        raise ValueError(f"{what}: {value!r} is not a name like android.permission.CAMERA")


def check_remote_path(path: str) -> None:
    """An absolute device path without whitespace or ``..``."""
    if not isinstance(path, str) or not path.startswith("/") or ".." in path.split("/") \
            or any(c.isspace() for c in path):
        raise ValueError(f"not an absolute device path: {path!r} (e.g. /sdcard/Download/notes.txt)")


def launch_argv(package: str, activity: str | None) -> list[str]:
    """``am start -W -n PKG/ACTIVITY``, or the launcher intent of ``package`` (``monkey``, as adb tools
    do)."""
    if activity:
        if not _ACTIVITY.fullmatch(activity):
            raise ValueError(f"launch: not an activity class name: {activity!r}")
        return ["am", "start", "-W", "-n", f"{package}/{activity}"]
    return ["monkey", "-p", package, "-c", "android.intent.category.LAUNCHER", "1"]


def view_argv(url: str, package: str | None) -> list[str]:
    """``am start -W -a android.intent.action.VIEW -d URL [-p PACKAGE]``."""
    if not isinstance(url, str) or not _URL.fullmatch(url):
        raise ValueError(f"open_url: {url!r} is not a URL or deep link (scheme:…, no spaces)")
    return ["am", "start", "-W", "-a", VIEW, "-d", url, *(["-p", package] if package else [])]


def set_alarm_argv(hour: int, minute: int, label: str | None) -> list[str]:
    """The clock's ``SET_ALARM`` intent with ``SKIP_UI``: the alarm is set without showing the clock."""
    if isinstance(hour, bool) or not isinstance(hour, int) or not 0 <= hour <= 23:
        raise ValueError(f"set_alarm: hour must be 0-23 (24-hour clock), got {hour!r}")
    if isinstance(minute, bool) or not isinstance(minute, int) or not 0 <= minute <= 59:
        raise ValueError(f"set_alarm: minute must be 0-59, got {minute!r}")
    argv = ["am", "start", "-a", SET_ALARM, "--ei", EXTRA + "HOUR", str(hour), "--ei", EXTRA + "MINUTES",
            str(minute)]
    if label:
        argv += ["--es", EXTRA + "MESSAGE", label]
    return [*argv, "--ez", EXTRA + "SKIP_UI", "true"]


def set_timer_argv(seconds: int, label: str | None) -> list[str]:
    """The clock's ``SET_TIMER`` intent with ``SKIP_UI``: the timer starts without showing the clock."""
    if isinstance(seconds, bool) or not isinstance(seconds, int) or not 1 <= seconds <= 86400:
        raise ValueError(f"set_timer: seconds must be 1-86400, got {seconds!r}")
    argv = ["am", "start", "-a", SET_TIMER, "--ei", EXTRA + "LENGTH", str(seconds)]
    if label:
        argv += ["--es", EXTRA + "MESSAGE", label]
    return [*argv, "--ez", EXTRA + "SKIP_UI", "true"]


def raw_contact_argv() -> list[str]:
    """A new raw contact in the device's local account (``content insert`` into ``raw_contacts``)."""
    return ["content", "insert", "--uri", _CONTACTS + "raw_contacts", "--bind", "account_type:n:",
            "--bind", "account_name:n:"]


def raw_contact_ids_argv() -> list[str]:
    """The raw contacts' ids (the newest is the one just inserted)."""
    return ["content", "query", "--uri", _CONTACTS + "raw_contacts", "--projection", "_id"]


def newest_id(rows: str) -> int | None:
    """The largest ``_id=N`` of a ``content query`` listing, None when it lists none."""
    ids = [int(m.group(1)) for m in _ID.finditer(rows)]
    return max(ids) if ids else None


def contact_data_argvs(raw_id: int, name: str, phone: str | None, email: str | None) -> list[list[str]]:
    """The data rows of a contact: its name, then its mobile number and its email when given."""
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"add_contact: a contact needs a name, got {name!r}")
    rows: list[tuple[str, str, list[str]]] = [("name", name.strip(), [])]
    if phone:
        rows.append(("phone", phone, ["--bind", "data2:i:2"]))  # TYPE_MOBILE
    if email:
        rows.append(("email", email, ["--bind", "data2:i:1"]))  # TYPE_HOME
    return [["content", "insert", "--uri", _CONTACTS + "data", "--bind", f"raw_contact_id:i:{raw_id}",
             "--bind", f"mimetype:s:{_MIMETYPES[kind]}", "--bind", f"data1:s:{value}", *extra]
            for kind, value, extra in rows]
