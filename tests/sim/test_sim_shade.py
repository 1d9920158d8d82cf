"""The notification shade and Quick Settings, driven with Debian's adb and read back from ``uiautomator dump``
and the settings store."""

from __future__ import annotations

import re

from pytest_artemis.device.parsers import parse_notifications, parse_window_focus
from pytest_artemis.sim import Alarm

SYSUI = "com.android.systemui:id/"
PULL = ("input", "swipe", "540", "20", "540", "1300", "300")


def _tiles(cli) -> dict[str, tuple[str, str, str]]:
    """Quick Settings tile label → (class, text, checked), as the dump shows each tile."""
    return {n.get("content-desc"): (n.get("class"), n.get("text"), n.get("checked"))
            for n in cli.dump().iter("node") if n.find(f"node[@resource-id='{SYSUI}tile_label']") is not None}


def test_a_pull_from_the_status_bar_opens_the_shade_a_second_quick_settings_back_closes(cli):
    cli.shell("am", "start", "-n", "com.android.settings/.Settings")
    cli.shell(*PULL)
    root = cli.dump()
    assert [w.get("package") for w in root] == ["com.android.systemui"]  # the shade's window alone
    assert cli.nodes(rid=SYSUI + "quick_qs_panel") and not cli.nodes(rid=SYSUI + "quick_settings_panel")
    assert list(_tiles(cli)) == ["Wi\u2011Fi", "Bluetooth", "Do Not Disturb", "Airplane mode"]
    assert _tiles(cli)["Wi\u2011Fi"] == ("android.widget.Switch", "On", "true")
    assert "mCurrentFocus=Window{" in (focus := cli.out("dumpsys", "window"))
    assert re.search(r"mCurrentFocus=Window\{\w+ u0 NotificationShade\}", focus)
    assert parse_window_focus(focus, {}).window == "NotificationShade"
    cli.shell("input", "swipe", "540", "400", "540", "1500")
    assert cli.nodes(rid=SYSUI + "quick_settings_panel")
    assert cli.node(rid=SYSUI + "slider").get("content-desc") == "Display brightness"
    assert list(_tiles(cli)) == ["Wi\u2011Fi", "Bluetooth", "Do Not Disturb", "Airplane mode", "Auto-rotate",
                                 "Battery Saver", "Dark theme", "Location"]
    tile = cli.node(desc="Bluetooth")
    assert (tile.get("checkable"), tile.get("clickable"), tile.get("long-clickable")) == ("true",) * 3
    assert [n.get("text") for n in tile] == ["Bluetooth", "Off"]  # tile_label, then its state
    cli.shell("input", "keyevent", "BACK")
    assert cli.nodes(rid=SYSUI + "quick_qs_panel")
    cli.shell("input", "keyevent", "BACK")
    assert cli.nodes(text="Network & internet") and not cli.nodes(rid=SYSUI + "quick_qs_panel")
    assert "com.android.settings/.Settings" in cli.out("dumpsys", "window")


def test_cmd_statusbar_opens_expands_and_collapses(cli, server):
    phone = server.phone("emulator-5554")
    cli.shell("cmd", "statusbar", "expand-settings")
    assert phone.state.shade == "quick_settings" and cli.nodes(rid=SYSUI + "quick_settings_panel")
    cli.shell("cmd", "statusbar", "collapse")
    assert phone.state.shade == "closed"
    cli.shell("cmd", "statusbar", "expand-notifications")
    assert cli.nodes(rid=SYSUI + "notification_stack_scroller")
    cli.shell("input", "keyevent", "HOME")
    assert phone.state.shade == "closed" and phone.state.foreground.endswith("NexusLauncherActivity")
    bad = cli.shell("cmd", "statusbar", "explode", check=False)
    assert bad.returncode == 1 and b"expand-settings" in bad.stdout
    assert cli.shell("cmd", "nosuch", check=False).stderr == b"cmd: Can't find service: nosuch\n"


def test_each_tile_writes_the_key_settings_reads_and_settings_shows_it(cli):
    cli.shell("cmd", "statusbar", "expand-settings")
    wanted = {"Wi\u2011Fi": ("global wifi_on", "0"), "Bluetooth": ("global bluetooth_on", "1"),
              "Do Not Disturb": ("global zen_mode", "1"), "Airplane mode": ("global airplane_mode_on", "1"),
              "Auto-rotate": ("system accelerometer_rotation", "1"),
              "Dark theme": ("secure ui_night_mode", "2"), "Location": ("secure location_mode", "0")}
    for label, (key, value) in wanted.items():
        cli.tap(desc=label)
        assert cli.out("settings", "get", *key.split()).strip() == value, label
    tiles = _tiles(cli)
    assert tiles["Bluetooth"] == ("android.widget.Switch", "On", "true")
    assert tiles["Wi\u2011Fi"] == ("android.widget.Switch", "Off", "false")
    slider = cli.node(desc="Display brightness")
    x1, _, x2, _ = map(int, re.findall(r"\d+", slider.get("bounds")))
    _, y = cli.center(slider)
    cli.shell("input", "tap", str(x2 - 5), str(y))
    assert cli.out("settings", "get", "system", "screen_brightness").strip() == "255"
    cli.shell("input", "swipe", str(x2 - 5), str(y), str(x1 + 5), str(y), "200")
    assert cli.out("settings", "get", "system", "screen_brightness").strip() == "0"
    cli.shell("input", "swipe", str(x2 - 5), str(y), str(x2 - 5), str(y), "800")  # held where it lands
    assert cli.out("settings", "get", "system", "screen_brightness").strip() == "255"
    cli.shell("settings", "put", "global", "bluetooth_on", "0")
    assert _tiles(cli)["Bluetooth"] == ("android.widget.Switch", "Off", "false")
    cli.shell("cmd", "statusbar", "collapse")
    cli.shell("am", "start", "-n", "com.android.settings/.Settings\\$DisplaySettingsActivity")
    dark_theme = cli.nodes(rid="android:id/switch_widget")[0]  # the Display page's first row
    assert (dark_theme.get("text"), dark_theme.get("checked")) == ("ON", "true")


def test_battery_saver_is_unavailable_while_plugged_in_as_on_android(cli):
    cli.shell("cmd", "statusbar", "expand-settings")
    assert _tiles(cli)["Battery Saver"] == ("android.widget.LinearLayout", "", "false")
    assert cli.node(desc="Battery Saver").get("clickable") == "false"
    cli.tap(desc="Battery Saver")
    assert cli.out("settings", "get", "global", "low_power").strip() == "0"
    cli.shell("dumpsys", "battery", "unplug")
    assert _tiles(cli)["Battery Saver"] == ("android.widget.Switch", "Off", "false")
    cli.tap(desc="Battery Saver")
    assert cli.out("settings", "get", "global", "low_power").strip() == "1"
    power = cli.out("dumpsys", "power")
    assert "Battery Saver is currently: ON" in power and "mIsPowered=false" in power
    assert _tiles(cli)["Battery Saver"] == ("android.widget.Switch", "On", "true")
    cli.shell("dumpsys", "battery", "reset")  # plugged in again: the setting stays, the saver stops
    assert "Battery Saver is currently: OFF" in cli.out("dumpsys", "power")
    assert "mSettingBatterySaverEnabled=true" in cli.out("dumpsys", "power")
    assert _tiles(cli)["Battery Saver"][0] == "android.widget.LinearLayout"


def test_the_shade_lists_what_dumpsys_notification_lists_and_a_tap_opens_the_app(cli, server):
    phone = server.phone("emulator-5554")
    with phone.lock:
        phone.alarms.append(Alarm(10, 0, True, ""))  # due within two hours: Clock posts "Upcoming alarm"
        phone.changed()
    cli.shell("cmd", "statusbar", "expand-notifications")

    def shown() -> list[tuple[str, str]]:
        return [(n.find("node[@resource-id='android:id/title']").get("text"),
                 n.find("node[@resource-id='android:id/text']").get("text"))
                for n in cli.nodes(rid=SYSUI + "expandableNotificationRow")]

    def listed() -> list[tuple[str, str]]:
        posted = parse_notifications(cli.out("dumpsys", "notification", "--noredact"), {}).notifications
        return [(n.title, n.text) for n in posted]

    assert shown() == listed() == [("Upcoming alarm", "10:00"), ("Charging this device via USB",
                                                                 "Tap for more options.")]
    assert cli.node(rid=SYSUI + "header_label").get("text") == "Silent"
    cli.shell("pm", "revoke", "com.google.android.deskclock", "android.permission.POST_NOTIFICATIONS")
    cli.shell("dumpsys", "battery", "unplug")
    assert shown() == [] and "NotificationRecord" not in cli.out("dumpsys", "notification")
    assert cli.node(rid=SYSUI + "no_notifications").get("text") == "No notifications"
    cli.shell("pm", "grant", "com.google.android.deskclock", "android.permission.POST_NOTIFICATIONS")
    assert shown() == listed() == [("Upcoming alarm", "10:00")]
    cli.tap(text="Upcoming alarm")
    assert phone.state.shade == "closed"
    assert phone.state.foreground == "com.google.android.deskclock/com.android.deskclock.DeskClock"


def test_a_long_press_on_a_tile_opens_its_settings_page(cli, server):
    cli.shell("cmd", "statusbar", "expand-settings")
    x, y = cli.center(cli.node(desc="Bluetooth"))
    cli.shell("input", "swipe", str(x), str(y), str(x), str(y), "800")  # what `long_press` sends
    assert server.phone("emulator-5554").state.shade == "closed"
    assert "Settings$ConnectedDeviceDashboardActivity" in cli.out("dumpsys", "activity", "activities")
    assert cli.nodes(text="Use Bluetooth")
    cli.shell(*PULL)
    cli.shell(*PULL)
    cli.tap(desc="Open settings")
    assert cli.nodes(text="Network & internet")
    cli.shell(*PULL)
    cli.shell("input", "swipe", "540", "2380", "540", "1200")  # the home gesture closes it too
    assert server.phone("emulator-5554").state.foreground.endswith("NexusLauncherActivity")
    assert not cli.nodes(package="com.android.systemui", rid=SYSUI + "quick_qs_panel")
