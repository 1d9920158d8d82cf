"""Settings' Battery, Location, Sound, Do Not Disturb and Apps pages, driven with Debian's adb: each reached
by tapping and by its activity name, each over the settings store or the permission state the shell reads."""

from __future__ import annotations

import re

import pytest

SETTINGS = "com.android.settings"
CLOCK = "com.google.android.deskclock"


def _top(cli) -> str:
    """The resumed activity, as ``dumpsys activity activities`` names it."""
    m = re.search(r"topResumedActivity=ActivityRecord\{\w+ u0 (\S+) t\d+\}", cli.out("dumpsys", "activity",
                                                                                     "activities"))
    assert m
    return m.group(1)


def _title(cli) -> str:
    return cli.node(rid=f"{SETTINGS}:id/toolbar")[-1].get("text")


def _summary(cli, title: str) -> str:
    """The summary line of the list row titled ``title``."""
    for row in cli.dump().iter("node"):
        texts = {n.get("resource-id"): n.get("text") for n in row}
        if texts.get("android:id/title") == title and "android:id/summary" in texts:
            return texts["android:id/summary"]
    raise AssertionError(f"no row {title!r}")


@pytest.mark.parametrize(("row", "activity", "title"), [
    ("Battery", "Settings$PowerUsageSummaryActivity", "Battery"),
    ("Sound & vibration", "Settings$SoundSettingsActivity", "Sound & vibration"),
    ("Location", "Settings$LocationSettingsActivity", "Location"),
    ("Apps", "Settings$ManageApplicationsActivity", "All apps"),
])
def test_a_page_opens_by_tap_and_by_its_activity_name(cli, row, activity, title):
    cli.shell("am", "start", "-n", f"{SETTINGS}/.Settings")
    cli.tap(text=row)
    assert (_top(cli), _title(cli)) == (f"{SETTINGS}/.{activity}", title)
    cli.shell("input", "keyevent", "HOME")
    out = cli.out("am", "start", "-n", f"{SETTINGS}/.{activity.replace('$', chr(92) + '$')}")
    assert out == f"Starting: Intent {{ cmp={SETTINGS}/.{activity} }}\n"
    assert (_top(cli), _title(cli)) == (f"{SETTINGS}/.{activity}", title)


def test_battery_saver_page_writes_low_power_and_is_unavailable_while_plugged_in(cli):
    cli.shell("am", "start", "-n", f"{SETTINGS}/.Settings\\$PowerUsageSummaryActivity")
    assert cli.node(rid=f"{SETTINGS}:id/summary1").get("text") == "Charging"
    cli.tap(text="Battery Saver")
    assert (_top(cli), _title(cli)) == (f"{SETTINGS}/.Settings$BatterySaverSettingsActivity", "Battery Saver")
    bar = cli.node(rid=f"{SETTINGS}:id/main_switch_bar")
    assert [n.get("enabled") for n in bar.iter("node")] == ["false"] * 3  # the bar, its title, its switch
    cli.tap(text="Use Battery Saver")
    assert cli.out("settings", "get", "global", "low_power").strip() == "0"
    cli.shell("dumpsys", "battery", "unplug")
    cli.tap(text="Use Battery Saver")
    assert cli.out("settings", "get", "global", "low_power").strip() == "1"
    assert "Battery Saver is currently: ON" in cli.out("dumpsys", "power")
    assert cli.node(rid="android:id/switch_widget").get("checked") == "true"
    cli.shell("input", "keyevent", "BACK")
    assert _summary(cli, "Battery Saver") == "On"
    cli.shell("settings", "put", "global", "low_power", "0")
    assert _summary(cli, "Battery Saver") == "Off"


def test_location_sound_and_do_not_disturb_read_and_write_the_store(cli):
    cli.shell("am", "start", "-n", f"{SETTINGS}/.Settings\\$LocationSettingsActivity")
    assert _summary(cli, "App location permissions") == "2 of 2 apps have access to location"
    cli.tap(text="Use location")
    assert cli.out("settings", "get", "secure", "location_mode").strip() == "0"
    cli.tap(text="Use location")
    assert cli.out("settings", "get", "secure", "location_mode").strip() == "3"
    cli.shell("am", "start", "-n", f"{SETTINGS}/.Settings\\$SoundSettingsActivity")
    media = cli.node(desc="Media volume")
    assert (media.get("class"), media.get("text")) == ("android.widget.SeekBar", "5")
    x1, _, x2, _ = map(int, re.findall(r"\d+", media.get("bounds")))
    cli.shell("input", "tap", str(x2 - 5), str(cli.center(media)[1]))
    assert cli.out("settings", "get", "system", "volume_music").strip() == "25"
    cli.shell("settings", "put", "system", "volume_alarm", "2")
    assert cli.node(desc="Alarm volume").get("text") == "2"
    cli.tap(text="Do Not Disturb")
    assert _top(cli) == f"{SETTINGS}/.Settings$ZenModeSettingsActivity"
    cli.tap(text="Turn on now")
    assert cli.out("settings", "get", "global", "zen_mode").strip() == "1"
    assert cli.nodes(text="On / Priority only") and cli.nodes(text="Turn off now")
    cli.shell("settings", "put", "global", "zen_mode", "3")
    assert cli.nodes(text="On / Alarms only")
    cli.tap(text="Turn off now")
    assert cli.out("settings", "get", "global", "zen_mode").strip() == "0"


def test_app_info_force_stop_and_clear_storage_ask_first_then_do_what_am_and_pm_do(cli, server):
    phone = server.phone("emulator-5554")
    cli.shell("monkey", "-p", CLOCK, "-c", "android.intent.category.LAUNCHER", "1")
    cli.tap(desc="Delete alarm 8:30 AM")
    cli.shell("am", "start", "-n", f"{SETTINGS}/.Settings\\$ManageApplicationsActivity")
    cli.tap(text="Clock")
    assert _top(cli) == f"{SETTINGS}/.applications.InstalledAppDetails"
    assert cli.node(rid=f"{SETTINGS}:id/entity_header_title").get("text") == "Clock"
    cli.tap(text="Force stop")
    assert cli.node(rid="android:id/alertTitle").get("text") == "Force stop?"
    cli.tap(text="Cancel")
    assert CLOCK in phone.tasks
    cli.tap(text="Force stop")
    cli.tap(text="OK")
    assert CLOCK not in phone.tasks and cli.node(text="Force stop").get("enabled") == "false"
    assert " stopped=true " in cli.out("dumpsys", "package", CLOCK)
    cli.tap(text="Storage & cache")
    assert _top(cli) == f"{SETTINGS}/.SubSettings"
    assert _summary(cli, "User data") == "12.00 kB"  # one alarm left
    cli.tap(text="Clear storage")
    assert cli.node(rid="android:id/alertTitle").get("text") == "Delete app data?"
    assert len(phone.alarms) == 1
    cli.tap(text="OK")
    rows = cli.out("content", "query", "--uri", "content://com.android.deskclock/alarms")
    assert rows.count("Row:") == 2  # both alarms of a fresh install are back
    assert _title(cli) == "Storage"


def test_app_info_by_component_with_the_package_as_data(cli):
    out = cli.out("am", "start", "-n", f"{SETTINGS}/.applications.InstalledAppDetails", "-d",
                  "package:com.android.contacts")
    assert out.startswith("Starting: Intent { dat=package:... cmp=")  # Uri.toSafeString() hides it
    assert cli.node(rid=f"{SETTINGS}:id/entity_header_title").get("text") == "Contacts"
    cli.shell("input", "keyevent", "BACK")
    cli.shell("am", "start", "-n", f"{SETTINGS}/.applications.InstalledAppDetails", "-d", "package:com.nope")
    assert _top(cli) == f"{SETTINGS}/.Settings"  # an app that is not installed: App info finishes at once


def test_app_permissions_change_what_pm_and_dumpsys_package_read(cli):
    cli.shell("am", "start", "-n", f"{SETTINGS}/.applications.InstalledAppDetails", "-d", f"package:{CLOCK}")
    assert _summary(cli, "Permissions") == "Notifications and Music and audio"
    cli.tap(text="Permissions")
    assert _top(cli) == ("com.google.android.permissioncontroller/"
                         "com.android.permissioncontroller.permission.ui.ManagePermissionsActivity")
    assert cli.dump()[0].get("package") == "com.google.android.permissioncontroller"
    assert [n.get("text") for n in cli.nodes(rid="android:id/title")][:2] == ["Allowed", "Notifications"]
    cli.tap(text="Notifications")
    assert cli.nodes(text="Notifications permission")
    deny = cli.node(rid="com.android.permissioncontroller:id/deny_radio_button")
    assert (deny.get("class"), deny.get("text"), deny.get("checked")) == (
        "android.widget.RadioButton", "Don\u2019t allow", "false")
    cli.tap(rid="com.android.permissioncontroller:id/deny_radio_button")
    assert ("android.permission.POST_NOTIFICATIONS: granted=false, flags=[ USER_SET|GRANTED_BY_DEFAULT|"
            in cli.out("dumpsys", "package", CLOCK))
    cli.shell("pm", "grant", CLOCK, "android.permission.POST_NOTIFICATIONS")
    assert cli.node(rid="com.android.permissioncontroller:id/allow_radio_button").get("checked") == "true"
    cli.shell("input", "keyevent", "BACK")
    assert [n.get("text") for n in cli.nodes(rid="android:id/title")] == ["Allowed", "Notifications",
                                                                          "Music and audio"]
    cli.shell("pm", "revoke", CLOCK, "android.permission.READ_MEDIA_AUDIO")
    assert [n.get("text") for n in cli.nodes(rid="android:id/title")] == ["Allowed", "Notifications",
                                                                          "Not allowed", "Music and audio"]
    cli.shell("input", "keyevent", "BACK")
    assert _summary(cli, "Permissions") == "Notifications"
