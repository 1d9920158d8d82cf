"""Fault injection, from Python and through ``simctl`` over ADB, observed by clients."""

from __future__ import annotations

import json
import time

import adbutils
import pytest

CLOCK = "com.google.android.deskclock"


def test_crash_dialog_python_now(device, server, ui):
    phone = server.phone("emulator-5554")
    device.app_start(CLOCK)
    phone.faults.crash_dialog(CLOCK)
    assert phone.state.dialog == "Clock keeps stopping"
    xml = device.dump_hierarchy()
    assert 'text="Clock keeps stopping"' in xml and 'text="App info"' in xml
    assert "Application Error: " + CLOCK in device.shell("dumpsys window")
    ui.tap(device, text="Close app")
    assert phone.state.dialog is None
    assert phone.state.foreground.startswith("com.google.android.apps.nexuslauncher/")


def test_crash_dialog_after_inputs_via_simctl(device, server, ui):
    phone = server.phone("emulator-5554")
    device.app_start(CLOCK)
    assert device.shell(f"simctl fault crash {CLOCK} 2").startswith("ok")
    device.click(10, 1500)
    assert phone.state.dialog is None
    device.click(10, 1500)
    assert phone.state.dialog == "Clock keeps stopping"
    ui.tap(device, text="App info")
    assert phone.state.foreground.startswith("com.android.settings/")


def test_slow_screencap(device, server):
    server.phone("emulator-5554").faults.slow_screencap(0.3)
    t0 = time.monotonic()
    device.screenshot(error_ok=False)
    assert time.monotonic() - t0 >= 0.3
    device.shell("simctl fault screencap-slow 0")
    t0 = time.monotonic()
    device.screenshot(error_ok=False)
    assert time.monotonic() - t0 < 0.3


def test_fail_screencap_times_and_forever(device, server):
    phone = server.phone("emulator-5554")
    phone.faults.fail_screencap(times=1)
    r = device.shell2("screencap -p", v2=True)
    assert r.returncode == 1 and "Failed to take screenshot" in r.stderr
    device.screenshot(error_ok=False)  # recovered
    device.shell("simctl fault screencap-fail forever")
    for _ in range(3):
        with pytest.raises(adbutils.AdbError):
            device.screenshot(error_ok=False)
    phone.faults.clear()
    device.screenshot(error_ok=False)


def test_fail_uiautomator(device, server):
    server.phone("emulator-5554").faults.fail_uiautomator(times=1)
    with pytest.raises(adbutils.AdbError, match="uiautomator dump failed"):
        device.dump_hierarchy()
    device.dump_hierarchy()
    device.shell("simctl fault uiautomator-fail 1")
    assert "ERROR: could not get idle state." in device.shell("uiautomator dump")


def test_offline_python_and_track_devices(client, server):
    phone = server.phone("emulator-5556")
    events = client.track_devices()
    assert {(e.serial, e.status) for e in (next(events), next(events))} == {
        ("emulator-5554", "device"), ("emulator-5556", "device")}
    phone.faults.go_offline()
    ev = next(events)
    assert (ev.serial, ev.status) in {("emulator-5556", "offline"), ("emulator-5556", "absent")}
    assert "emulator-5556\toffline" in "".join(
        f"{i.serial}\t{i.state}\n" for i in client.list())
    assert [d.serial for d in client.device_list()] == ["emulator-5554"]
    with pytest.raises(adbutils.AdbError, match="device offline"):
        client.device("emulator-5556").shell("echo hi")
    phone.faults.come_online()
    assert client.device("emulator-5556").shell("echo hi").strip() == "hi"


def test_offline_via_simctl_for_n_requests(client, device):
    assert device.shell("simctl fault offline 2").startswith("ok")
    for _ in range(2):
        with pytest.raises(adbutils.AdbError, match="device offline"):
            device.shell("echo hi")
    assert device.shell("echo back").strip() == "back"


def test_ignore_taps(device, server, ui):
    phone = server.phone("emulator-5554")
    device.app_start("com.android.settings")
    phone.faults.ignore_taps(text="Display")
    ui.tap(device, text="Display")
    assert phone.state.foreground.endswith(".Settings")
    device.shell("simctl fault clear; simctl fault ignore-taps text=Bluetooth")
    ui.tap(device, text="Display")
    assert "DisplaySettingsActivity" in phone.state.foreground


def test_simctl_state_clock_and_usage(device, server):
    phone = server.phone("emulator-5554")
    state = json.loads(device.shell("simctl state"))
    assert state["clock_ms"] == phone.clock_ms and state["online"] is True
    assert state["alarms"][0] == {"hour": 8, "minute": 30, "enabled": False, "label": ""}
    assert int(device.shell("simctl clock advance 5000")) == state["clock_ms"] + 5000
    bad = device.shell2("simctl fault nope", v2=True)
    assert bad.returncode == 2 and "usage" in bad.stderr


def test_hide_toasts_python_and_simctl(device, server):
    phone = server.phone("emulator-5554")
    phone.faults.hide_toasts()
    phone.show_toast("Alarm set for 7:30 AM")
    assert phone.state.toast is None and phone.faults.describe()["toasts_hidden"] is True
    device.shell(["simctl", "fault", "hide-toasts", "off"])
    phone.show_toast("Alarm set for 7:30 AM")
    assert phone.state.toast == "Alarm set for 7:30 AM"
    device.shell(["simctl", "fault", "hide-toasts"])
    assert phone.faults.toasts_hidden is True
    device.shell(["simctl", "fault", "clear"])
    assert phone.faults.toasts_hidden is False


def test_artemis_sim_faults_fixture_arms_and_clears(pytester):
    pytester.makepyfile('''
        def test_fault(artemis_sim_faults):
            artemis_sim_faults.hide_toasts()
            artemis_sim_faults.crash_dialog(after_inputs=3)
    ''')
    pytester.runpytest("-p", "no:cacheprovider", "--artemis-device=sim").assert_outcomes(passed=1)
