"""Probe output parsers on real-Android formats (captured layouts per FIELD-NOTES)."""

from __future__ import annotations

from pytest_artemis.device import parsers

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


def test_alarms_next_clock_and_pending() -> None:
    parsed = parsers.parse_alarms(ALARM_DUMP, {})
    assert parsed["next_alarm"] == {"user": 0, "time_ms": 1768555800000, "time": "2026-01-16 07:30:00",
                                    "hhmm": "07:30"}
    first, second = parsed["alarms"]
    assert first["package"] == "com.google.android.deskclock" and first["alarm_clock"] is True
    assert first["hhmm"] == "07:30" and first["tag"].endswith("ALARM_ALERT")
    assert second["type"] == "ELAPSED" and second["alarm_clock"] is False and second["hhmm"] is None


def test_alarms_none_scheduled() -> None:
    parsed = parsers.parse_alarms("Current Alarm Manager state:\n  Pending alarms:\n", {})
    assert parsed == {"next_alarm": None, "next_alarm_clocks": [], "alarms": [], "deskclock": None}


def test_battery_typed_fields() -> None:
    parsed = parsers.parse_battery(BATTERY_DUMP, {})
    assert parsed["ac_powered"] is True and parsed["usb_powered"] is False
    assert parsed["level"] == 85 and parsed["percent"] == 85 and parsed["technology"] == "Li-ion"
    assert "current_battery_service_state" not in parsed


def test_foreground_top_resumed_and_legacy() -> None:
    assert parsers.parse_foreground(ACTIVITIES, {}) == {
        "package": "com.google.android.deskclock", "activity": "com.android.deskclock.DeskClock"}
    legacy = "  mResumedActivity: ActivityRecord{3 u0 com.android.settings/.Settings t4}\n"
    assert parsers.parse_foreground(legacy, {}) == {"package": "com.android.settings",
                                                    "activity": "com.android.settings.Settings"}
    assert parsers.parse_foreground("nothing here", {})["package"] is None


def test_window_focus() -> None:
    parsed = parsers.parse_window_focus(WINDOW, {})
    assert parsed == {"window": "com.android.settings/com.android.settings.Settings",
                      "package": "com.android.settings", "error_dialog": None,
                      "focused_app": "com.android.settings"}
    shade = parsers.parse_window_focus("  mCurrentFocus=Window{1 u0 NotificationShade}\n", {})
    assert shade["window"] == "NotificationShade" and shade["package"] is None
    assert parsers.parse_window_focus("  mCurrentFocus=null\n", {})["window"] is None
    crash = parsers.parse_window_focus("  mCurrentFocus=Window{9 u0 Application Error: com.foo}\n", {})
    assert crash["error_dialog"] == "com.foo" and crash["package"] == "com.foo"


def test_notifications_with_extras() -> None:
    (note,) = parsers.parse_notifications(NOTIFS, {})["notifications"]
    assert note["package"] == "com.google.android.deskclock" and note["id"] == 2
    assert note["channel"] == "Upcoming alarms" and note["tag"] is None
    assert note["title"] == "Upcoming alarm" and note["text"] == "Fri 7:30 AM"


def test_setting_value_and_null() -> None:
    assert parsers.parse_setting("1\n", {"ns": "global", "key": "wifi_on"}) == {
        "namespace": "global", "key": "wifi_on", "value": "1"}
    assert parsers.parse_setting("null\n", {"ns": "secure", "key": "x"})["value"] is None


def test_content_rows() -> None:
    parsed = parsers.parse_content(CONTENT, {"uri": "content://com.android.contacts/data/phones"})
    assert parsed["count"] == 2
    assert parsed["rows"][0] == {"_id": "1", "display_name": "Ada Lovelace", "data1": "+1 555-0100",
                                 "mimetype": "vnd.android.cursor.item/phone_v2"}
    # ", Ada Jr" is not followed by `word=`, so it stays inside the value; NULL becomes None.
    assert parsed["rows"][1]["display_name"] == "Lovelace, Ada Jr" and parsed["rows"][1]["data1"] is None
    assert parsers.parse_content("No result found.\n", {"uri": "content://x"})["rows"] == []


def test_packages_and_prop() -> None:
    raw = "package:com.android.settings\npackage:android\npackage:com.google.android.deskclock\n"
    assert parsers.parse_packages(raw, {})["packages"] == [
        "android", "com.android.settings", "com.google.android.deskclock"]
    assert parsers.parse_prop("34\n", {"key": "ro.build.version.sdk"}) == {
        "key": "ro.build.version.sdk", "value": "34"}
