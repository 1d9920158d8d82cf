"""Parsers from raw probe output (the formats of real Android 7-15 devices) to typed probe outputs.

Each parser is a pure function ``(raw, params) -> output | Unreadable``. It never raises: text that is
not the probe's format (an error message, a permission denial, noise) gives ``Unreadable`` with the
reason, so a check over it is inconclusive rather than decided by what happened not to match.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from pytest_artemis.contracts.probe_outputs import (
    BatteryOutput,
    ContentOutput,
    ForegroundOutput,
    NotificationsOutput,
    PackagesOutput,
    PostedNotification,
    ProbeOutput,
    PropOutput,
    SettingOutput,
    TextOutput,
    Unreadable,
    WindowFocusOutput,
)

from .alarm_parser import parse_alarms

Parsed = ProbeOutput | Unreadable
Parser = Callable[[str, Mapping[str, str]], Parsed]

_RECORD = r"ActivityRecord\{\S+\s+(?:u(\d+)\s+)?([\w.]+)/([\w.$]+)\}?(?:\s+t(\d+))?"
_TOP_RESUMED = re.compile(r"\btopResumedActivity=" + _RECORD)
_RESUMED = re.compile(r"(?<![A-Za-z])(?:mResumedActivity|ResumedActivity|Resumed|mFocusedActivity):\s*"
                      + _RECORD)
_FOCUSED_APP = re.compile(r"\bmFocusedApp=.*?" + _RECORD)
_FOCUSED_TASK = re.compile(r"\btopDisplayFocusedRootTask=Task\{\S+\s+#(\d+)")
_ACTIVITY_DUMP = re.compile(r"ACTIVITY MANAGER ACTIVITIES|ResumedActivity|mFocusedApp=")
_WM_SECTION = re.compile(r"^WINDOW MANAGER .*?\(dumpsys window (\w+)\)")
_DISPLAY = re.compile(r"^\s*Display: mDisplayId=(\d+)")
_FOCUS = re.compile(r"^\s*mCurrentFocus=(.*)$")
_APP = re.compile(r"^\s*mFocusedApp=(.*)$")
_TOP_DISPLAY = re.compile(r"^\s*mTopFocusedDisplayId=(-?\d+)")
_WINDOW = re.compile(r"Window\{[0-9a-f]+\s+(?:u(\d+)\s+)?(.*?)(?:\s+(?:paused|EXITING)=?\w*)?\}\s*$")
_ERROR_TITLES = ("Application Error: ", "Application Not Responding: ")
_NOTIF = re.compile(r"NotificationRecord\(0x[0-9a-f]+:\s+pkg=(\S+)\s+user=(?:UserHandle\{(-?\d+)\}|\S+)\s+"
                    r"id=(-?\d+)\s+tag=")
_NOTIF_BODY = re.compile(r":\s+Notification\(")
_TRAILING_INTS = re.compile(r"(?:\s+\w+=-?\d+)+$")
_TRAILING_FIELDS = re.compile(r"(?:\s+\w+=\S*)+$")
_CHANNEL = re.compile(r"^channel=(.*?)(?= \w+=|\)*$)")
_EXTRA = re.compile(r"^\s*android\.(title|text)=\w*String \((.*)\)\s*$")
_ROW = re.compile(r"^Row:\s*(\d+)\s?(.*)$")
_ROW_SPLIT = re.compile(r", (?=[A-Za-z_][A-Za-z0-9_]*=)")
_BATTERY_KEYS = {
    "ac powered": "ac_powered", "usb powered": "usb_powered", "wireless powered": "wireless_powered",
    "dock powered": "dock_powered", "max charging current": "max_charging_current",
    "max charging voltage": "max_charging_voltage", "charge counter": "charge_counter",
    "charging counter": "charge_counter", "status": "status", "health": "health", "present": "present",
    "level": "level", "scale": "scale", "voltage": "voltage", "temperature": "temperature",
    "technology": "technology",
}
_BATTERY_LINE = re.compile(r"^\s*([A-Za-z][A-Za-z ]*?):\s*(.*?)\s*$")
_ONE_LINE_ERRORS = ("Error", "Exception", "cmd: Failure", "/system/bin/sh:", "Permission Denial", "java.")


def parse_battery(raw: str, params: Mapping[str, str]) -> Parsed:
    """``dumpsys battery`` → the ``Current Battery Service state`` fields (the first value of each
    wins, so vendor history lines further down never override it) and ``percent``."""
    values: dict[str, object] = {}
    for line in raw.splitlines():
        m = _BATTERY_LINE.match(line)
        field = _BATTERY_KEYS.get(m.group(1).lower()) if m else None
        if m is None or field is None or field in values:
            continue
        text = m.group(2)
        if field == "technology":
            values[field] = text
        elif text in ("true", "false"):
            values[field] = text == "true"
        elif re.fullmatch(r"-?\d+", text):
            values[field] = int(text)
    if "level" not in values:
        return Unreadable(reason="no `level:` line of a battery service dump")
    output = BatteryOutput.model_validate(values)
    if output.level is not None and output.scale:
        output = output.model_copy(update={"percent": round(100 * output.level / output.scale)})
    return output


def _record(m: re.Match[str]) -> ForegroundOutput:
    user, package, activity, _task = m.groups()
    full = package + activity if activity.startswith(".") else activity
    return ForegroundOutput(package=package, activity=full, user=None if user is None else int(user))


def parse_foreground(raw: str, params: Mapping[str, str]) -> Parsed:
    """``dumpsys activity activities`` → the top resumed activity: ``topResumedActivity`` (the one
    with input focus across displays) when printed, else the resumed activity in the root task named
    by ``topDisplayFocusedRootTask`` (several displays each print theirs), else the first one printed
    (displays are listed top first), else the focused app."""
    if m := _TOP_RESUMED.search(raw):
        return _record(m)
    resumed = list(_RESUMED.finditer(raw))
    task = _FOCUSED_TASK.search(raw)
    focused = [r for r in resumed if task is not None and r.group(4) == task.group(1)]
    if focused or resumed:
        return _record((focused or resumed)[0])
    if m := _FOCUSED_APP.search(raw):
        return _record(m)
    if _ACTIVITY_DUMP.search(raw):
        return ForegroundOutput()
    return Unreadable(reason="no resumed activity or activity manager dump")


def _window(text: str) -> tuple[str | None, int | None]:
    """``Window{hash u0 title}`` → (title, user); ``null`` → (None, None)."""
    text = text.strip()
    m = _WINDOW.fullmatch(text)
    if m is None:
        return (None if text in ("", "null") else text), None
    return m.group(2).strip(), None if m.group(1) is None else int(m.group(1))


def _focus_lines(raw: str) -> tuple[list[tuple[int | None, str, str | None]], int | None]:
    """Every (display, mCurrentFocus, mFocusedApp) outside the last ANR's frozen copy, and the
    ``mTopFocusedDisplayId`` when printed."""
    found: list[tuple[int | None, str, str | None]] = []
    display: int | None = None
    top: int | None = None
    frozen = False
    for line in raw.splitlines():
        if section := _WM_SECTION.match(line):
            frozen, display = section.group(1) == "lastanr", None
        elif frozen:
            continue
        elif m := _DISPLAY.match(line):
            display = int(m.group(1))
        elif m := _FOCUS.match(line):
            found.append((display, m.group(1), None))
        elif (m := _APP.match(line)) and found and found[-1][2] is None:
            found[-1] = (found[-1][0], found[-1][1], m.group(1))
        elif m := _TOP_DISPLAY.match(line):
            top = int(m.group(1))
    return found, top


def parse_window_focus(raw: str, params: Mapping[str, str]) -> Parsed:
    """``dumpsys window`` → the focus of the display named by ``mTopFocusedDisplayId`` (multi-display
    phones print one focus per display), skipping the last ANR's frozen copy of the window state.

    ``error_dialog`` is the process named by a focused "Application Error" / "Application Not
    Responding" dialog.
    """
    found, top = _focus_lines(raw)
    if not found:
        return Unreadable(reason="no mCurrentFocus line")
    chosen = next((f for f in found if top is not None and f[0] == top), found[0])
    display, focus, app = chosen
    window, user = _window(focus)
    package = window.split("/", 1)[0] if window and "/" in window else None
    error = None
    for prefix in _ERROR_TITLES:
        if window and window.startswith(prefix):
            error = package = window[len(prefix):].strip()
    focused = re.search(_RECORD, app) if app else None
    return WindowFocusOutput(window=window, package=package, error_dialog=error,
                             focused_app=focused.group(2) if focused else None, user=user,
                             display=display if display is not None else top)


def _notification(line: str) -> PostedNotification | None:
    """One ``NotificationRecord(…)`` line, split by hand (no nested repeats, so any text reads in
    linear time): the fields before ``key=`` end with ``importance=`` (8+) or ``score=`` (7); after the
    key, HyperOS adds a field and Android 9/10 glue ``appImportanceLocked=`` to it."""
    head = _NOTIF.search(line)
    body = _NOTIF_BODY.search(line, head.end()) if head else None
    if head is None or body is None:
        return None
    fields = line[head.end():body.start()]
    at = fields.rfind(" key=")
    if at < 0:
        return None
    tag = _TRAILING_INTS.sub("", fields[:at]).strip()
    key = _TRAILING_FIELDS.sub("", fields[at + len(" key="):].split("appImportanceLocked=")[0]).strip()
    package, user, ident = head.groups()
    channel = _CHANNEL.match(line[body.end():])
    return PostedNotification(package=package, id=int(ident), tag=None if tag == "null" else tag, key=key,
                              user=None if user is None else int(user),
                              channel=channel.group(1) if channel else None)


def _with_extra(record: PostedNotification, field: str, value: str) -> PostedNotification:
    """The record with its title or text filled in from the first extras line naming it."""
    if field == "title" and record.title is None:
        return record.model_copy(update={"title": value})
    if field == "text" and record.text is None:
        return record.model_copy(update={"text": value})
    return record


def parse_notifications(raw: str, params: Mapping[str, str]) -> Parsed:
    """``dumpsys notification --noredact`` → each posted ``NotificationRecord`` once (by key), with
    title/text from its extras when they are printed unredacted."""
    records: dict[str, PostedNotification] = {}
    last: str | None = None
    for line in raw.splitlines():
        if record := _notification(line):
            last = record.key if record.key not in records else None
            records.setdefault(record.key, record)
        elif last is not None and (extra := _EXTRA.match(line)):
            records[last] = _with_extra(records[last], extra.group(1), extra.group(2))
    if not records and "Notification List" not in raw and "Notification Manager state" not in raw:
        return Unreadable(reason="no notification records or notification manager dump")
    return NotificationsOutput(notifications=tuple(records.values()))


def _one_line(raw: str, what: str) -> str | Unreadable:
    lines = [ln for ln in raw.splitlines() if ln.strip()]
    if len(lines) > 1:
        return Unreadable(reason=f"{what} printed {len(lines)} lines, not one value")
    value = lines[0].strip() if lines else ""
    if value.startswith(_ONE_LINE_ERRORS):
        return Unreadable(reason=f"{what} printed an error: {value[:200]}")
    return value


def parse_setting(raw: str, params: Mapping[str, str]) -> Parsed:
    """``settings get NS KEY`` → the value; ``null`` (unset) becomes None."""
    value = _one_line(raw, "settings get")
    if isinstance(value, Unreadable):
        return value
    if not value:
        return Unreadable(reason="settings get printed nothing")
    return SettingOutput(namespace=params.get("ns", ""), key=params.get("key", ""),
                         value=None if value == "null" else value)


def _row_values(body: str) -> dict[str, str | None]:
    row: dict[str, str | None] = {}
    for part in _ROW_SPLIT.split(body):
        key, sep, value = part.partition("=")
        if sep:
            row[key.strip()] = None if value == "NULL" else value
    return row


def parse_content(raw: str, params: Mapping[str, str]) -> Parsed:
    """``content query`` → the rows (``NULL`` becomes None); ``No result found.`` is zero rows.

    The tool prints ``Error while accessing provider`` and still exits 0 when the query fails: that
    is unreadable, not an empty result. A value containing ``, word=`` cannot be told apart from a
    new column (the tool's own format is ambiguous there).
    """
    if "Error while accessing provider" in raw:
        first = next(ln for ln in raw.splitlines() if "Error while accessing provider" in ln)
        return Unreadable(reason=first.strip()[:200])
    rows = tuple(_row_values(m.group(2)) for line in raw.splitlines() if (m := _ROW.match(line.strip())))
    if not rows and raw.strip() != "No result found.":
        return Unreadable(reason="neither `Row:` lines nor `No result found.`")
    return ContentOutput(uri=params.get("uri", ""), rows=rows)


def parse_packages(raw: str, params: Mapping[str, str]) -> Parsed:
    """``pm list packages`` → the sorted package names (``-f`` paths dropped)."""
    names = {line.strip()[len("package:"):].rpartition("=")[2] for line in raw.splitlines()
             if line.strip().startswith("package:")}
    names.discard("")
    if not names:
        return Unreadable(reason="no `package:` lines")
    return PackagesOutput(packages=tuple(sorted(names)))


def parse_prop(raw: str, params: Mapping[str, str]) -> Parsed:
    """``getprop KEY`` → the value (an unset property reads as the empty string)."""
    value = _one_line(raw, "getprop")
    return value if isinstance(value, Unreadable) else PropOutput(key=params.get("key", ""), value=value)


def parse_text(raw: str, params: Mapping[str, str]) -> Parsed:
    """Any output → its text, stripped (the default for plugin probe kinds without a parser)."""
    return TextOutput(text=raw.strip())


__all__ = [
    "Parsed",
    "Parser",
    "parse_alarms",
    "parse_battery",
    "parse_content",
    "parse_foreground",
    "parse_notifications",
    "parse_packages",
    "parse_prop",
    "parse_setting",
    "parse_text",
    "parse_window_focus",
]
