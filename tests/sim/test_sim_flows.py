"""App flows through adbutils: each UI action is checked through a probe."""

from __future__ import annotations

import re

CLOCK = "com.google.android.deskclock"
ID = CLOCK + ":id/"


def test_set_alarm_730_am_shows_toast_then_it_expires(device, server, ui):
    phone = server.phone("emulator-5554")
    device.app_start(CLOCK)
    ui.tap(device, desc="Add alarm")
    ui.tap(device, rid=ID + "material_hour_text_input")
    device.send_keys("7")
    ui.tap(device, rid=ID + "material_minute_text_input")
    device.send_keys("30")
    ui.tap(device, text="AM")
    before = device.screenshot(error_ok=False)
    ui.tap(device, text="OK")
    assert phone.state.toast == "Alarm set for 7:30 AM"
    with_toast = device.screenshot(error_ok=False)
    assert (7, 30, True, "") in phone.state.alarms
    out = device.shell("dumpsys alarm")
    m = re.search(r"Next alarm clock information: \n\s+user:0 pendingSend:false time:(\d+) = "
                  r"(\S+ \S+) = \+", out)
    assert m and m.group(2) == "2026-01-16 07:30:00.000"
    assert re.search(r"RTC_WAKEUP #\d+: Alarm\{\w+ type 0 origWhen 1768548600000 whenElapsed \d+ "
                     r"com\.google\.android\.deskclock\}", out)
    assert "        triggerTime=2026-01-16 07:30:00.000" in out
    # The toast is drawn (not in the hierarchy) and is gone after two more inputs.
    assert "Alarm set for" not in device.dump_hierarchy()
    assert with_toast.tobytes() != before.tobytes()
    device.click(10, 1500)
    device.click(10, 1500)
    assert phone.state.toast is None
    after = device.screenshot(error_ok=False)
    box = (0, 1700, 1080, 2300)
    assert after.crop(box).tobytes() != with_toast.crop(box).tobytes()


def test_alarm_switch_and_delete(device, server, ui):
    phone = server.phone("emulator-5554")
    device.app_start(CLOCK, "com.android.deskclock.DeskClock")
    ui.tap(device, desc="8:30 AM alarm")
    assert phone.state.alarms[0] == (8, 30, True, "")
    assert "time:1768552200000 = 2026-01-16 08:30:00.000" in device.shell("dumpsys alarm")
    ui.tap(device, desc="Delete alarm 8:30 AM")
    assert [a[:2] for a in phone.state.alarms] == [(9, 0)]
    rows = device.shell("content query --uri content://com.android.deskclock/alarms")
    assert rows.startswith("Row: 0 _id=1, hour=9, minutes=0, daysofweek=0, enabled=0")


def test_invalid_time_is_rejected(device, server, ui):
    phone = server.phone("emulator-5554")
    device.app_start(CLOCK)
    ui.tap(device, desc="Add alarm")
    device.send_keys("13")
    device.keyevent("ENTER")
    assert 'text="Enter a valid time"' in device.dump_hierarchy()
    assert len(phone.state.alarms) == 2


def test_wifi_toggle_via_ui_and_settings_put_reflected(device, ui):
    device.app_start("com.android.settings")
    ui.tap(device, text="Network & internet")
    assert device.shell("settings get global wifi_on").strip() == "1"
    ui.tap(device, text="Wi‑Fi")
    assert device.shell("settings get global wifi_on").strip() == "0"
    ui.tap(device, text="Airplane mode")
    assert device.shell("settings get global airplane_mode_on").strip() == "1"
    device.shell("settings put global wifi_on 1")
    xml = device.dump_hierarchy()
    assert re.search(r'text="ON" resource-id="android:id/switch_widget"', xml)
    assert device.shell("settings get global no_such_key").strip() == "null"
    assert "wifi_on=1" in device.shell("settings list global")


def test_bluetooth_dark_theme_and_brightness(device, server, ui):
    phone = server.phone("emulator-5554")
    device.shell("am start -n com.android.settings/.Settings")
    ui.tap(device, text="Bluetooth")
    ui.tap(device, text="Use Bluetooth")
    assert device.shell("settings get global bluetooth_on").strip() == "1"
    device.keyevent("BACK")
    ui.tap(device, text="Display")
    light = device.screenshot(error_ok=False).getpixel((540, 2200))
    ui.tap(device, text="Dark theme")
    assert device.shell("settings get secure ui_night_mode").strip() == "2"
    assert device.screenshot(error_ok=False).getpixel((540, 2200)) != light
    x, y = ui.find(device.dump_hierarchy(), desc="Brightness level")
    device.click(70, y)
    assert phone.state.settings["system"]["screen_brightness"] == "0"
    device.swipe(70, y, 1040, y, 0.2)
    assert phone.state.settings["system"]["screen_brightness"] == "255"
    device.shell("settings put system screen_brightness 128")
    assert 'text="Brightness level  50%"' in device.dump_hierarchy()


def test_create_contact_then_content_query(device, server, ui):
    device.shell("monkey -p com.android.contacts -c android.intent.category.LAUNCHER 1")
    ui.tap(device, desc="Create contact")
    ui.tap(device, text="First name")
    device.send_keys("Katherine")
    ui.tap(device, text="Last name")
    device.shell("input text 'Johnson'")
    ui.tap(device, text="Phone")
    device.shell("input text '+1%s555-0199'")
    ui.tap(device, text="Save")
    xml = device.dump_hierarchy()
    assert 'text="Katherine Johnson"' in xml and 'text="+1 555-0199"' in xml
    out = device.shell("content query --uri content://com.android.contacts/data/phones")
    assert "display_name=Katherine Johnson, number=+1 555-0199" in out
    people = device.shell("content query --uri content://contacts/people --projection display_name")
    assert "Row: 3 display_name=Katherine Johnson" in people
    device.keyevent("BACK")
    ui.tap(device, text="Grace Hopper")
    assert 'text="+1 555-0102"' in device.dump_hierarchy()
    none = device.shell("content query --uri content://contacts/people --where \"name='Nobody'\"")
    assert none.strip() == "No result found."


def test_navigation_recents_force_stop_and_probes(device, server, ui):
    phone = server.phone("emulator-5554")
    device.app_start(CLOCK)
    device.app_start("com.android.settings")
    device.keyevent("APP_SWITCH")
    assert phone.state.foreground.endswith("RecentsActivity")
    ui.tap(device, desc="Clock")
    acts = device.shell("dumpsys activity activities")
    assert re.search(r"topResumedActivity=ActivityRecord\{\w+ u0 com.google.android.deskclock/"
                     r"com.android.deskclock.DeskClock t\d+\}", acts)
    assert "mCurrentFocus=Window{" in device.shell("dumpsys window")
    device.shell("am force-stop " + CLOCK)
    assert phone.state.foreground.startswith("com.google.android.apps.nexuslauncher/")
    out = device.shell("monkey -p " + CLOCK + " -c android.intent.category.LAUNCHER 1")
    assert "Events injected: 1" in out
    bad = device.shell2("monkey -p com.nope -c android.intent.category.LAUNCHER 1")
    assert bad.returncode == 252 and "No activities found" in bad.output
    assert "Error type 3" in device.shell("am start -n com.nope/.Main")
    assert "package:com.android.settings" in device.shell("pm list packages").splitlines()
    assert device.shell("pm list packages -3") == ""
    batt = device.shell("dumpsys battery")
    assert "AC powered: true" in batt and f"level: {phone.state.battery_level}" in batt
    device.shell("dumpsys battery set level 42")
    assert "level: 42" in device.shell("dumpsys battery")
    assert "NotificationRecord(" in device.shell("dumpsys notification")
    assert device.shell("wm size").strip() == "Physical size: 1080x2400"
