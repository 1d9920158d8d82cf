"""The ``dumpsys alarm`` parser: next alarm clocks and pending alarms, Android 7-15 layouts."""

from __future__ import annotations

import re
from collections.abc import Mapping

from pytest_artemis.contracts.probe_outputs import AlarmClock, AlarmsOutput, PendingAlarm, Unreadable

_STAMP = r"(\d{4}-\d{2}-\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.\d+)?"
_NEXT_CLOCK = re.compile(r"user:(\d+)\s+pendingSend:\S+\s+time:(\d+)\s*=\s*" + _STAMP)
# Android 12+: ``Alarm{hash type N origWhen MILLIS whenElapsed E pkg}``; Android 7-11:
# ``Alarm{hash type N when MILLIS pkg}``.
_HEADER = re.compile(
    r"^\s*(RTC_WAKEUP|RTC|ELAPSED_WAKEUP|ELAPSED)\s+#\d+:\s+Alarm\{\S+\s+type\s+-?\d+\s+"
    r"(?:origWhen|when)\s+(-?\d+)\b.*?\s(\S+)\}\s*$"
)
# The local wall time of an RTC alarm: ``origWhen=STAMP`` (Android 12+) or ``when=STAMP`` (7-11).
_WALL = re.compile(r"(?:^|\s)(?:origWhen|when)=" + _STAMP)
_TAG = re.compile(r"^\s*tag=(.*?)\s*$")
_TRIGGER = re.compile(r"^\s*triggerTime=" + _STAMP)
_SHOW = re.compile(r"^\s*showIntent=PendingIntent\{\S+\s+PendingIntentRecord\{\S+\s+([\w.]+)")
_ANCHORS = ("Alarm Manager state", "Next alarm clock information", "pending alarm", "Pending alarm")
_LIST_START = re.compile(r"^\s*(?:\d+ pending alarms:|Pending alarm batches:)")
_DECLARED = re.compile(r"^\s*(\d+) pending alarms:", re.MULTILINE)
# Sections that print alarm-like lines of their own but are not pending alarms.
_LIST_END = re.compile(r"^\s*(?:Past-due non-wakeup alarms|Pending user blocked|Pending alarms per uid|"
                       r"App Alarm history|Top Alarms|Alarm Stats|Removal history|LazyAlarmStore stats)")


def _hhmm(hour: str, minute: str) -> str:
    return f"{int(hour):02d}:{int(minute):02d}"


def _next_alarm_clocks(raw: str) -> list[AlarmClock]:
    found = []
    for m in _NEXT_CLOCK.finditer(raw):
        user, millis, day, hh, mm, ss = m.groups()
        found.append(AlarmClock(user=int(user), time_ms=int(millis), time=f"{day} {hh}:{mm}:{ss}",
                                hhmm=_hhmm(hh, mm)))
    return found


class _Alarm:
    """A pending alarm being read, line by line, until the next header."""

    def __init__(self, m: re.Match[str]) -> None:
        self.fields: dict[str, object] = {"type": m.group(1), "when_ms": int(m.group(2)),
                                          "package": m.group(3), "tag": ""}
        self.in_clock = False

    def read(self, line: str) -> None:
        f = self.fields
        if (t := _TAG.match(line)) and not f["tag"]:
            f["tag"] = t.group(1)
        elif line.strip() == "Alarm clock:" or "alarmClock=AlarmClockInfo" in line:
            f["alarm_clock"], self.in_clock = True, True
        elif self.in_clock and (s := _SHOW.match(line)):
            f["show_package"] = s.group(1)
        elif (w := _WALL.search(line)) and "time" not in f and str(f["type"]).startswith("RTC"):
            day, hh, mm, ss = w.groups()
            f["time"], f["hhmm"] = f"{day} {hh}:{mm}:{ss}", _hhmm(hh, mm)

    def done(self) -> PendingAlarm:
        return PendingAlarm.model_validate(self.fields)


def _pending(lines: list[str]) -> list[PendingAlarm]:
    alarms: list[PendingAlarm] = []
    current: _Alarm | None = None
    skipping = False
    for line in lines:
        if _LIST_END.match(line) or _LIST_START.match(line):
            if current is not None:
                alarms.append(current.done())
            current, skipping = None, bool(_LIST_END.match(line))
        elif skipping:
            continue
        elif m := _HEADER.match(line):
            if current is not None:
                alarms.append(current.done())
            current = _Alarm(m)
        elif current is not None:
            current.read(line)
    if current is not None:
        alarms.append(current.done())
    return alarms


def _owner(clock: AlarmClock, alarms: list[PendingAlarm]) -> AlarmClock:
    """The clock entry with the app that scheduled it, read off the pending alarm clock it names."""
    owners = {a.package for a in alarms if a.alarm_clock and a.type.startswith("RTC")
              and a.when_ms == clock.time_ms}
    return clock.model_copy(update={"package": owners.pop()}) if len(owners) == 1 else clock


def parse_alarms(raw: str, params: Mapping[str, str]) -> AlarmsOutput | Unreadable:
    """``dumpsys alarm`` → the next alarm clock (the soonest, with its owner when a pending alarm
    clock shows it) and the pending alarms in the order printed (past-due and history sections are
    not pending alarms). Tags keep their spaces; ``Alarm clock:`` blocks (Android 12+) and
    ``alarmClock=AlarmClockInfo`` lines (older) both mark alarm clocks.
    """
    if not any(anchor in raw for anchor in _ANCHORS):
        return Unreadable(reason="no `dumpsys alarm` sections (alarm manager state, next alarm clock, "
                                 "pending alarms)")
    alarms = _pending(raw.splitlines())
    clocks = [_owner(c, alarms) for c in _next_alarm_clocks(raw)]
    first = min(clocks, key=lambda c: c.time_ms, default=None)
    return AlarmsOutput(next_alarm=first, next_alarm_clocks=tuple(clocks), alarms=tuple(alarms),
                        pending_complete=_pending_complete(raw, alarms))


def _pending_complete(raw: str, alarms: list[PendingAlarm]) -> bool:
    """Whether the whole pending list was read (an excerpt or a garbled dump cannot prove absence)."""
    declared = [int(n) for n in _DECLARED.findall(raw)]
    if declared:
        return len(declared) == 1 and declared[0] == len(alarms) > 0
    return "Pending alarm batches:" in raw and len(alarms) > 0
