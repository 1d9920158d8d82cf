"""Parsers from raw probe output (real Android formats, and the simulated phone's) to JSON data.

Each parser is a pure function ``(raw, params) -> JsonValue``; it never raises on unexpected text,
it returns what it could read (the raw text stays the evidence).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from pydantic import JsonValue

_STAMP = r"(\d{4}-\d{2}-\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.\d+)?"
_NEXT_CLOCK = re.compile(r"user:(\d+)\s+pendingSend:\S+\s+time:(\d+)\s*=\s*" + _STAMP)
_ALARM = re.compile(
    r"^\s*(RTC_WAKEUP|RTC|ELAPSED_WAKEUP|ELAPSED)\s+#\d+:\s+Alarm\{\S+\s+type\s+-?\d+\s+"
    r"(?:origWhen|when)\s+(-?\d+)\b.*?\s(\S+)\}\s*$"
)
_ALARM_ORIG = re.compile(r"origWhen=" + _STAMP)
_TAG = re.compile(r"^\s*tag=(\S+)")
_DESKCLOCK = re.compile(
    r'^\s*Alarm\{id=(\d+) hour=(\d+) minutes=(\d+) enabled=(true|false)\b.*?label="((?:[^"\\]|\\.)*)"\}'
)
_ACTIVITY = re.compile(
    r"(?:topResumedActivity|mResumedActivity|ResumedActivity|mFocusedActivity)[=:]\s*"
    r"ActivityRecord\{\S+\s+u\d+\s+([\w.]+)/([\w.$]+)"
)
_FOCUS = re.compile(r"mCurrentFocus=(?:Window\{\S+\s+u\d+\s+([^}]*)\}|(\S+))")
_FOCUSED_APP = re.compile(r"mFocusedApp=.*?ActivityRecord\{\S+\s+u\d+\s+([\w.]+)/")
_NOTIF = re.compile(
    r"NotificationRecord\(0x[0-9a-f]+:\s+pkg=(\S+)\s+user=\S+\s+id=(-?\d+)\s+tag=(\S+)"
    r"(?:\s+importance=(-?\d+))?\s+key=(\S+?):\s+Notification\((.*)$"
)
_EXTRA = re.compile(r"^\s*android\.(title|text|bigText|subText)=\w*String \((.*)\)\s*$")
_ROW = re.compile(r"^Row:\s*(\d+)\s?(.*)$")
_ROW_SPLIT = re.compile(r", (?=[A-Za-z_][A-Za-z0-9_]*=)")


def _hhmm(hour: str, minute: str) -> str:
    return f"{int(hour):02d}:{int(minute):02d}"


def _next_alarm_clocks(raw: str) -> list[JsonValue]:
    found: list[JsonValue] = []
    for m in _NEXT_CLOCK.finditer(raw):
        user, millis, day, hh, mm, ss = m.groups()
        found.append({"user": int(user), "time_ms": int(millis), "time": f"{day} {hh}:{mm}:{ss}",
                      "hhmm": _hhmm(hh, mm)})
    return found


def _pending_alarms(lines: list[str]) -> list[JsonValue]:
    alarms: list[dict[str, JsonValue]] = []
    for line in lines:
        m = _ALARM.match(line)
        if m:
            alarms.append({"type": m.group(1), "when_ms": int(m.group(2)), "package": m.group(3),
                           "tag": "", "time": None, "hhmm": None, "alarm_clock": False})
            continue
        if not alarms:
            continue
        current = alarms[-1]
        if (t := _TAG.match(line)) and not current["tag"]:
            current["tag"] = t.group(1)
        elif (o := _ALARM_ORIG.search(line)) and current["time"] is None:
            day, hh, mm, ss = o.groups()
            current["time"] = f"{day} {hh}:{mm}:{ss}"
            current["hhmm"] = _hhmm(hh, mm)
        elif "alarmClock=AlarmClockInfo" in line:
            current["alarm_clock"] = True
    return list(alarms)


def _deskclock(lines: list[str]) -> list[JsonValue] | None:
    """The ``DeskClock alarms`` section (every alarm, enabled or not), or None when not printed."""
    if not any("DeskClock alarms" in line for line in lines):
        return None
    found: list[JsonValue] = []
    for line in lines:
        if m := _DESKCLOCK.match(line):
            ident, hour, minute, enabled, label = m.groups()
            found.append({"id": int(ident), "hhmm": _hhmm(hour, minute), "enabled": enabled == "true",
                          "label": re.sub(r"\\(.)", r"\1", label)})
    return found


def parse_alarms(raw: str, params: Mapping[str, str]) -> JsonValue:
    """``dumpsys alarm`` → ``{next_alarm, next_alarm_clocks, alarms, deskclock}``.

    ``next_alarm`` is the earliest "Next alarm clock information" entry (``time_ms``, local
    ``time`` and ``hhmm``) or None; ``alarms`` lists pending alarms (type, package, tag, local
    time, whether they are alarm clocks). ``deskclock`` lists every DeskClock alarm
    (``id, hhmm, enabled, label``) when the dump has that section (the simulated phone prints it;
    stock Android does not, so it is None there and only scheduled alarms are visible).
    """
    lines = raw.splitlines()
    clocks = _next_alarm_clocks(raw)
    first = min(clocks, key=lambda c: c["time_ms"], default=None)  # type: ignore[index]
    return {"next_alarm": first, "next_alarm_clocks": clocks, "alarms": _pending_alarms(lines),
            "deskclock": _deskclock(lines)}


def _scalar(value: str) -> JsonValue:
    if value in ("true", "false"):
        return value == "true"
    if re.fullmatch(r"-?\d+", value):
        return int(value)
    return value


def parse_battery(raw: str, params: Mapping[str, str]) -> JsonValue:
    """``dumpsys battery`` → every ``Key: value`` as snake_case keys (bools and ints typed),
    plus ``percent`` when level and scale are known."""
    out: dict[str, JsonValue] = {}
    for line in raw.splitlines():
        key, sep, value = line.strip().partition(":")
        if not sep or not key or " state" in key:
            continue
        out[re.sub(r"[^a-z0-9]+", "_", key.strip().lower()).strip("_")] = _scalar(value.strip())
    level, scale = out.get("level"), out.get("scale")
    if isinstance(level, int) and isinstance(scale, int) and scale > 0:
        out["percent"] = round(100 * level / scale)
    return out


def parse_foreground(raw: str, params: Mapping[str, str]) -> JsonValue:
    """``dumpsys activity activities`` → ``{package, activity}`` of the top resumed activity."""
    m = _ACTIVITY.search(raw)
    if m is None:
        return {"package": None, "activity": None}
    package, activity = m.groups()
    if activity.startswith("."):
        activity = package + activity
    return {"package": package, "activity": activity}


def parse_window_focus(raw: str, params: Mapping[str, str]) -> JsonValue:
    """``dumpsys window`` → ``{window, package, error_dialog, focused_app}`` from ``mCurrentFocus`` and
    ``mFocusedApp``; ``error_dialog`` names the package of a focused crash/ANR dialog."""
    m = _FOCUS.search(raw)
    window = None if m is None else (m.group(1) or m.group(2)).strip()
    if window == "null":
        window = None
    package = window.split("/", 1)[0] if window and "/" in window else None
    error = None
    for prefix in ("Application Error: ", "Application Not Responding: "):
        if window and window.startswith(prefix):
            error = package = window[len(prefix):].strip()
    app = _FOCUSED_APP.search(raw)
    return {"window": window, "package": package, "error_dialog": error,
            "focused_app": app.group(1) if app else None}


def parse_notifications(raw: str, params: Mapping[str, str]) -> JsonValue:
    """``dumpsys notification --noredact`` → ``{notifications: [{package, id, tag, key, channel,
    title, text}]}`` (title/text from the record's extras when printed)."""
    records: list[dict[str, JsonValue]] = []
    for line in raw.splitlines():
        m = _NOTIF.search(line)
        if m:
            pkg, nid, tag, _importance, key, rest = m.groups()
            channel = re.search(r"channel=(.*?) (?:shortcut|contentView)=", rest)
            records.append({"package": pkg, "id": int(nid), "tag": None if tag == "null" else tag,
                            "key": key, "channel": channel.group(1) if channel else None,
                            "title": None, "text": None})
            continue
        extra = _EXTRA.match(line)
        if extra and records and extra.group(1) in ("title", "text") and records[-1][extra.group(1)] is None:
            records[-1][extra.group(1)] = extra.group(2)
    return {"notifications": list(records)}


def parse_setting(raw: str, params: Mapping[str, str]) -> JsonValue:
    """``settings get NS KEY`` → ``{namespace, key, value}``; ``null`` (unset) becomes None."""
    value = raw.strip()
    return {"namespace": params.get("ns"), "key": params.get("key"),
            "value": None if value == "null" else value}


def _row_values(body: str) -> dict[str, JsonValue]:
    row: dict[str, JsonValue] = {}
    for part in _ROW_SPLIT.split(body):
        key, sep, value = part.partition("=")
        if sep:
            row[key.strip()] = None if value == "NULL" else value
    return row


def parse_content(raw: str, params: Mapping[str, str]) -> JsonValue:
    """``content query`` → ``{uri, rows: [{column: value}], count}``; ``NULL`` becomes None.

    Row lines are ``Row: N col=value, col=value``; a value containing ``, word=`` cannot be told
    apart from a new column (the tool's own format is ambiguous there).
    """
    rows = [_row_values(m.group(2)) for line in raw.splitlines() if (m := _ROW.match(line.strip()))]
    return {"uri": params.get("uri"), "rows": list(rows), "count": len(rows)}


def parse_packages(raw: str, params: Mapping[str, str]) -> JsonValue:
    """``pm list packages`` → ``{packages: [sorted names]}``."""
    names = {line.strip()[len("package:"):].rpartition("=")[2] for line in raw.splitlines()
             if line.strip().startswith("package:")}
    return {"packages": sorted(names)}


def parse_prop(raw: str, params: Mapping[str, str]) -> JsonValue:
    """``getprop KEY`` → ``{key, value}`` (an unset property reads as the empty string)."""
    return {"key": params.get("key"), "value": raw.strip()}
