"""Probe output parsers, case by case: typed outputs, layouts of several Android versions, unreadable text."""

from __future__ import annotations

import pytest

from pytest_artemis.contracts.probe_outputs import (
    AlarmClock,
    ContentOutput,
    ForegroundOutput,
    PackagesOutput,
    PropOutput,
    SettingOutput,
    Unreadable,
    WindowFocusOutput,
)
from pytest_artemis.device import parsers
from pytest_artemis.device.hierarchy import HierarchyParseError, parse_hierarchy

ALARM_DUMP = """\
Current Alarm Manager state:
  Settings:
    min_futurity=+5s0ms
  Next alarm clock information:
    user:0 pendingSend:false time:1768555800000 = 2026-01-16 07:30:00.000 = +22h30m0s0ms
  Pending alarms:
    RTC_WAKEUP #0: Alarm{4f3a4d7 type 0 origWhen 1768555800000 whenElapsed 123 com.google.android.deskclock}
      tag=*walarm*:com.android.deskclock.ALARM_ALERT
      type=RTC_WAKEUP origWhen=2026-01-16 07:30:00.000 window=0 repeatInterval=0 count=0 flags=0x3
      alarmClock=AlarmClockInfo{triggerTime=1768555800000, showIntent=PendingIntent{1}}
    ELAPSED #1: Alarm{11aa22b type 3 origWhen 99999 whenElapsed 99999 android}
      tag=*alarm*:android.intent.action.TIME_TICK
      type=ELAPSED origWhen=+1m0s window=0 repeatInterval=0 count=0 flags=0x1
"""

BATTERY_DUMP = """\
Current Battery Service state:
  AC powered: true
  USB powered: false
  Wireless powered: false
  Max charging current: 0
  status: 2
  health: 2
  present: true
  level: 85
  scale: 100
  technology: Li-ion
"""

ACTIVITIES = """\
ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)
Display #0 (activities from top to bottom):
  * Task{4b1c t349 type=standard A=10123:com.google.android.deskclock U=0 visible=true}
  topResumedActivity=ActivityRecord{8e2c u0 com.google.android.deskclock/com.android.deskclock.DeskClock t3}
  ResumedActivity: ActivityRecord{8e2c1b4 u0 com.google.android.deskclock/com.android.deskclock.DeskClock t3}
"""

WINDOW = """\
WINDOW MANAGER WINDOWS (dumpsys window windows)
  mCurrentFocus=Window{5d2e6f1 u0 com.android.settings/com.android.settings.Settings}
  mFocusedApp=ActivityRecord{1a2b3c u0 com.android.settings/.Settings t12}
"""

NOTIFS = """\
Current Notification Manager state:
  Notification List:
    NotificationRecord(0x0c5b6b3e: pkg=com.google.android.deskclock user=UserHandle{0} id=2 tag=null \
importance=2 key=0|com.google.android.deskclock|2|null|10123: Notification(channel=Upcoming alarms \
shortcut=null contentView=null vibrate=null sound=null defaults=0x0 flags=0x2 color=0xff0b57d0 vis=PUBLIC))
      uid=10123 userId=0
      extras={
        android.title=String (Upcoming alarm)
        android.text=String (Fri 7:30 AM)
      }
"""

CONTENT = """\
Row: 0 _id=1, display_name=Ada Lovelace, data1=+1 555-0100, mimetype=vnd.android.cursor.item/phone_v2
Row: 1 _id=2, display_name=Lovelace, Ada Jr, data1=NULL, mimetype=vnd.android.cursor.item/phone_v2
"""


ANDROID10_ALARM = """\
Current Alarm Manager state:
  Next alarm clock information:
    user:0 pendingSend:false time:1575158400000 = 2019-12-01 00:00:00 = +9h56m27s946ms
  Pending alarm batches: 1
Batch{d4c9f3c num=1 start=123 end=123 flgs=0x3}:
    RTC_WAKEUP #0: Alarm{7a4c9b1 type 0 when 1575158400000 com.android.deskclock}
      tag=*walarm*:com.android.deskclock.ALARM_ALERT
      type=0 whenElapsed=+9h56m27s946ms when=2019-12-01 00:00:00 window=0 repeatInterval=0 count=0 flags=0x3
      Alarm clock:
        triggerTime=2019-12-01 00:00:00
        showIntent=PendingIntent{2f1a0e6: PendingIntentRecord{5b3c927 com.android.deskclock startActivity}}
      operation=PendingIntent{a1f5dd4: PendingIntentRecord{1c3d17d com.android.deskclock broadcastIntent}}
  Past-due non-wakeup alarms: 1
    ELAPSED #0: Alarm{5fd0f68 type 3 when 4272440 android}
      tag=*alarm*:TIME_TICK
"""


def test_alarms_next_clock_and_pending() -> None:
    parsed = parsers.parse_alarms(ALARM_DUMP, {})
    assert parsed.kind == "alarms"
    assert parsed.next_alarm == AlarmClock(user=0, time_ms=1768555800000, time="2026-01-16 07:30:00",
                                           hhmm="07:30", package="com.google.android.deskclock")
    first, second = parsed.alarms
    assert first.package == "com.google.android.deskclock" and first.alarm_clock is True
    assert first.hhmm == "07:30" and first.tag.endswith("ALARM_ALERT")
    assert second.type == "ELAPSED" and second.alarm_clock is False and second.hhmm is None


def test_alarms_android_9_to_11_when_stamps_and_past_due_skipped() -> None:
    parsed = parsers.parse_alarms(ANDROID10_ALARM, {})
    (alarm,) = parsed.alarms  # the past-due TIME_TICK is not a pending alarm
    assert (alarm.when_ms, alarm.time, alarm.hhmm) == (1575158400000, "2019-12-01 00:00:00", "00:00")
    assert alarm.alarm_clock and alarm.show_package == "com.android.deskclock"
    assert parsed.next_alarm is not None and parsed.next_alarm.package == "com.android.deskclock"


def test_alarms_none_scheduled_and_unreadable() -> None:
    parsed = parsers.parse_alarms("Current Alarm Manager state:\n  Pending alarms:\n", {})
    assert parsed.kind == "alarms" and parsed.alarms == () and parsed.next_alarm is None
    denied = parsers.parse_alarms("Permission Denial: can't dump AlarmManager from pid=1, uid=2000\n", {})
    assert isinstance(denied, Unreadable) and "no `dumpsys alarm` sections" in denied.reason


def test_battery_typed_fields() -> None:
    parsed = parsers.parse_battery(BATTERY_DUMP, {})
    assert parsed.ac_powered is True and parsed.usb_powered is False
    assert parsed.level == 85 and parsed.percent == 85 and parsed.technology == "Li-ion"
    assert isinstance(parsers.parse_battery("Can't find service: battery\n", {}), Unreadable)
    grepped = parsers.parse_battery("level: 42\nscale:100\n", {})  # `| grep` output, indentation lost
    assert (grepped.level, grepped.percent) == (42, 42)


def test_foreground_top_resumed_and_legacy() -> None:
    assert parsers.parse_foreground(ACTIVITIES, {}) == ForegroundOutput(
        package="com.google.android.deskclock", activity="com.android.deskclock.DeskClock", user=0)
    legacy = "  mResumedActivity: ActivityRecord{3 u10 com.android.settings/.Settings t4}\n"
    assert parsers.parse_foreground(legacy, {}) == ForegroundOutput(
        package="com.android.settings", activity="com.android.settings.Settings", user=10)
    assert isinstance(parsers.parse_foreground("nothing here", {}), Unreadable)
    none_resumed = "ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)\n  ResumedActivity: null\n"
    assert parsers.parse_foreground(none_resumed, {}) == ForegroundOutput()


TWO_DISPLAYS = """\
ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)
Display #0 (activities from top to bottom):
  Resumed activities in task display areas (from top to bottom):
    Resumed: ActivityRecord{a1 u0 com.sec.android.app.launcher/.Launcher} t1}
  ResumedActivity: ActivityRecord{a1 u0 com.sec.android.app.launcher/.Launcher} t1}
Display #1 (activities from top to bottom):
  Resumed activities in task display areas (from top to bottom):
    Resumed: ActivityRecord{b2 u0 com.android.chrome/com.google.android.apps.chrome.Main} t40}
  ResumedActivity: ActivityRecord{b2 u0 com.android.chrome/com.google.android.apps.chrome.Main} t40}

ActivityTaskSupervisor state:
  topDisplayFocusedRootTask=Task{c3 #40 type=standard A=10150:com.android.chrome U=0 visible=true}
"""


def test_foreground_of_the_focused_root_task_on_a_two_display_phone() -> None:
    assert parsers.parse_foreground(TWO_DISPLAYS, {}).package == "com.android.chrome"
    cover = TWO_DISPLAYS.replace("#40 type", "#1 type")
    assert parsers.parse_foreground(cover, {}).package == "com.sec.android.app.launcher"
    android7 = "  mFocusedActivity: ActivityRecord{5 u0 com.android.settings/.Settings t7}\n"
    assert parsers.parse_foreground(android7, {}).package == "com.android.settings"


FOLDABLE = """\
WINDOW MANAGER LAST ANR (dumpsys window lastanr)
  ANR time: 2025-01-01 10:00:00
  mCurrentFocus=Window{7 u0 Application Not Responding: com.stale}
WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)
  Display: mDisplayId=0 rootTasks=3
  mCurrentFocus=Window{1 u0 com.sec.android.app.launcher/com.android.launcher3.Launcher}
  mFocusedApp=ActivityRecord{2 u0 com.sec.android.app.launcher/com.android.launcher3.Launcher t1}
  Display: mDisplayId=1 rootTasks=3
  mCurrentFocus=Window{3 u0 Application Error: com.foo}
  mFocusedApp=ActivityRecord{4 u0 com.foo/.Main t9}
WINDOW MANAGER WINDOWS (dumpsys window windows)
  mTopFocusedDisplayId=1
"""


def test_window_focus() -> None:
    parsed = parsers.parse_window_focus(WINDOW, {})
    assert parsed == WindowFocusOutput(window="com.android.settings/com.android.settings.Settings",
                                       package="com.android.settings", focused_app="com.android.settings",
                                       user=0)
    shade = parsers.parse_window_focus("  mCurrentFocus=Window{1 u0 NotificationShade}\n", {})
    assert shade.window == "NotificationShade" and shade.package is None
    assert parsers.parse_window_focus("  mCurrentFocus=null\n", {}).window is None
    crash = parsers.parse_window_focus("  mCurrentFocus=Window{9 u0 Application Error: com.foo}\n", {})
    assert crash.error_dialog == "com.foo" and crash.package == "com.foo"
    assert isinstance(parsers.parse_window_focus("Can't find service: window\n", {}), Unreadable)


def test_window_focus_of_the_focused_display_not_the_frozen_anr_copy() -> None:
    parsed = parsers.parse_window_focus(FOLDABLE, {})
    assert parsed.display == 1 and parsed.error_dialog == "com.foo" and parsed.focused_app == "com.foo"
    cover = FOLDABLE.replace("mTopFocusedDisplayId=1", "mTopFocusedDisplayId=0")
    assert parsers.parse_window_focus(cover, {}).error_dialog is None


def test_notifications_with_extras() -> None:
    (note,) = parsers.parse_notifications(NOTIFS, {}).notifications
    assert note.package == "com.google.android.deskclock" and note.id == 2 and note.user == 0
    assert note.channel == "Upcoming alarms" and note.tag is None
    assert note.title == "Upcoming alarm" and note.text == "Fri 7:30 AM"
    assert isinstance(parsers.parse_notifications("garbage", {}), Unreadable)
    android7 = ("  NotificationRecord(0x0a1b2c3d: pkg=com.foo user=UserHandle{10} id=1 tag=my tag score=0 "
                "key=10|com.foo|1|my tag|1010086: Notification(pri=0 contentView=null vibrate=null))\n")
    (old,) = parsers.parse_notifications(android7, {}).notifications
    assert (old.tag, old.key, old.user, old.channel) == ("my tag", "10|com.foo|1|my tag|1010086", 10, None)


def test_setting_value_null_and_unreadable() -> None:
    assert parsers.parse_setting("1\n", {"ns": "global", "key": "wifi_on"}) == SettingOutput(
        namespace="global", key="wifi_on", value="1")
    assert parsers.parse_setting("null\n", {"ns": "secure", "key": "x"}).value is None
    for raw in ("", "a\nb\n", "cmd: Failure calling service settings: Broken pipe (32)\n"):
        assert isinstance(parsers.parse_setting(raw, {"ns": "global", "key": "x"}), Unreadable), raw


def test_content_rows_and_provider_errors() -> None:
    parsed = parsers.parse_content(CONTENT, {"uri": "content://com.android.contacts/data/phones"})
    assert isinstance(parsed, ContentOutput) and parsed.count == 2
    assert parsed.rows[0] == {"_id": "1", "display_name": "Ada Lovelace", "data1": "+1 555-0100",
                              "mimetype": "vnd.android.cursor.item/phone_v2"}
    # ", Ada Jr" is not followed by `word=`, so it stays inside the value; NULL becomes None.
    assert parsed.rows[1]["display_name"] == "Lovelace, Ada Jr" and parsed.rows[1]["data1"] is None
    assert parsers.parse_content("No result found.\n", {"uri": "content://x"}).rows == ()
    # The tool prints this (and a stack trace) and still exits 0: unreadable, not "no rows".
    error = ("Error while accessing provider:com.android.contacts\n"
             "java.lang.SecurityException: Permission Denial: opening provider\n")
    unreadable = Unreadable(reason="Error while accessing provider:com.android.contacts")
    assert parsers.parse_content(error, {}) == unreadable


def test_packages_and_prop() -> None:
    raw = "package:com.android.settings\npackage:android\npackage:com.google.android.deskclock\n"
    assert parsers.parse_packages(raw, {}) == PackagesOutput(
        packages=("android", "com.android.settings", "com.google.android.deskclock"))
    assert parsers.parse_prop("34\n", {"key": "ro.build.version.sdk"}) == PropOutput(
        key="ro.build.version.sdk", value="34")
    assert isinstance(parsers.parse_packages("Error: no such command\n", {}), Unreadable)


def test_hierarchy_ignores_the_tty_trailer_and_reads_forbidden_characters() -> None:
    xml = ('<?xml version="1.0" encoding="UTF-8"?><hierarchy rotation="0"><node index="0" '
           'text="a&#1;b\x02c&#x1f;d&#10;e" bounds="[0,0][10,20]"/></hierarchy>'
           'UI hierchary dumped to: /dev/tty\n')
    (node,) = parse_hierarchy(xml)
    assert node.text == "a\ufffdb\ufffdc\ufffdd\ne" and node.bounds.bottom == 20
    with pytest.raises(HierarchyParseError):
        parse_hierarchy("ERROR: could not get idle state.\n")


def test_alarms_absence_needs_the_whole_pending_list() -> None:
    """An excerpt, a header alone or a count that disagrees cannot prove that no alarm is set."""
    from pathlib import Path

    from pytest_artemis import probes
    from pytest_artemis.contracts import ProbeResult
    from pytest_artemis.device import builtin_probes

    table, check = builtin_probes(), probes.alarm_set("06:15", enabled=False)
    real = Path(__file__).parent / "real_android" / "alarms"

    def judged(raw: str) -> probes.ProbeJudgement:
        return probes.judge(check, ProbeResult(spec=check.probe, argv=("dumpsys", "alarm"), raw=raw,
                                               parsed=table.parse(check.probe, raw)))

    whole = judged((real / "mtk_android13_dumpsys_alarm.txt").read_text())  # 14 declared, 14 listed
    assert whole.conclusive and whole.passed
    excerpt = judged((real / "xiaomi_hyperos_excerpt.txt").read_text())  # 141 declared, 10 listed
    assert not excerpt.conclusive and not excerpt.passed
    for raw in ("Alarm Manager state", "Current Alarm Manager state:\n  Pending alarms:\n", ALARM_DUMP):
        verdict = judged(raw)
        assert not verdict.conclusive and not verdict.passed, raw
