"""AdbDevice end to end through adbutils against the simulated phone."""

from __future__ import annotations

import hashlib
import io
import time

import pytest
from PIL import Image

from pytest_artemis.contracts.probe_outputs import SettingOutput, Unreadable
from pytest_artemis.device import (
    AdbDevice,
    Device,
    DeviceCommandFailed,
    DeviceTimeout,
    DeviceUnavailable,
    ProbeRefused,
)
from pytest_artemis.device.adb import input_text_arg

CLOCK = "com.google.android.deskclock"
CONTACTS = "com.android.contacts"
LAUNCHER = "com.google.android.apps.nexuslauncher"


def test_is_a_device_and_reports_info(device: AdbDevice) -> None:
    assert isinstance(device, Device)
    info = device.info()
    assert (info.serial, info.model, info.sdk, info.width, info.height) == (
        "emulator-5554", "sdk_gphone64_x86_64", 34, 1080, 2400)


def test_screenshot_is_the_raw_frame_named_by_its_bytes_and_kept_as_a_lossless_png(device: AdbDevice,
                                                                                   phone) -> None:
    capture = device.screenshot()
    assert capture.frame is not None and capture.sha256 == hashlib.sha256(phone.screenshot_raw()).hexdigest()
    with Image.open(io.BytesIO(capture.png)) as img, Image.open(io.BytesIO(phone.screenshot_png())) as shown:
        assert img.size == (capture.width, capture.height) == (1080, 2400)
        assert img.tobytes() == shown.convert(img.mode).tobytes()  # the phone's own pixels, every one
        assert img.convert("L").getextrema()[1] > 0  # not a black frame


def test_screenshot_retries_once_then_fails_loudly(device: AdbDevice, phone) -> None:
    phone.faults.fail_screencap(times=1)
    assert device.screenshot().width == 1080
    phone.faults.fail_screencap(times=None)
    with pytest.raises(DeviceCommandFailed, match="Failed to take screenshot"):
        device.screenshot()


def test_slow_screencap_times_out(server, phone) -> None:
    quick = AdbDevice(server.serials[0], host=server.host, port=server.port, timeout_s=0.5)
    phone.faults.slow_screencap(2.0)
    started = time.monotonic()
    with pytest.raises(DeviceTimeout):
        quick.screenshot()
    assert time.monotonic() - started < 1.9  # both attempts bounded by the timeout, not the delay


def test_hierarchy_parses_and_retries_idle_state(device: AdbDevice, phone) -> None:
    phone.faults.fail_uiautomator(times=1)
    tree = device.hierarchy()
    assert tree.xml.startswith("<?xml")
    assert [e.index for e in tree.elements] == list(range(len(tree.elements)))
    assert any(e.text == "Clock" for e in tree.elements)
    phone.faults.fail_uiautomator(times=2)
    with pytest.raises(DeviceCommandFailed, match="could not get idle state"):
        device.hierarchy()


def test_unknown_serial_offline_and_unreachable_server(server, device: AdbDevice, phone) -> None:
    with pytest.raises(DeviceUnavailable, match="not found"):
        AdbDevice("emulator-9999", host=server.host, port=server.port, timeout_s=2).tap(1, 1)
    phone.faults.go_offline()
    with pytest.raises(DeviceUnavailable, match="offline"):
        device.screenshot()
    phone.faults.come_online()
    assert device.current_app() == LAUNCHER
    server_port = server.port
    server.__exit__(None, None, None)
    with pytest.raises(DeviceUnavailable):
        AdbDevice("emulator-5554", host="127.0.0.1", port=server_port, timeout_s=2).tap(1, 1)


def test_second_device_is_independent(server, device: AdbDevice) -> None:
    other = AdbDevice(server.serials[1], host=server.host, port=server.port, timeout_s=5)
    device.launch(CLOCK)
    assert device.current_app() == CLOCK and other.current_app() == LAUNCHER


def test_launch_stop_keys(device: AdbDevice, phone) -> None:
    device.launch(CLOCK)
    assert phone.state.foreground.startswith(CLOCK + "/")
    before = phone.state.clock_ms
    device.swipe(540, 1500, 540, 800, 200)
    device.long_press(540, 1200, 600)
    assert phone.state.clock_ms > before  # both gestures reached the phone (input advances its clock)
    device.key("HOME")
    assert device.current_app() == LAUNCHER
    device.launch(CONTACTS, ".activities.ContactEditorActivity")
    assert device.current_app() == CONTACTS
    device.key("back")
    device.stop(CONTACTS)
    assert device.current_app() != CONTACTS
    for package, activity in (("com.example.missing", None), (CLOCK, ".NoSuchActivity")):
        with pytest.raises(DeviceCommandFailed) as missing:
            device.launch(package, activity)
        # the launch failed, not the device: the engine reports it to the operator and the run goes on
        assert missing.value.command == "launch" and f"cannot launch {package}" in str(missing.value)
    with pytest.raises(ValueError):
        device.key("POWER")
    with pytest.raises(ValueError):
        device.launch("com.x; reboot")


def _field(device: AdbDevice, hint: str):
    element = next((e for e in device.hierarchy().elements if e.text == hint), None)
    assert element is not None, f"no field {hint!r}"
    return element


@pytest.mark.parametrize("text", [
    "Ada Lovelace", "it's \"quoted\"", "a;b&c|d", "$(reboot) `id` $HOME", "<x> (y) * ~ \\ # ! ?", "100%",
])
def test_type_text_passes_shell_special_characters(device: AdbDevice, phone, text: str) -> None:
    device.launch(CONTACTS, ".activities.ContactEditorActivity")
    first = _field(device, "First name")
    device.tap(*first.center)
    device.type_text(text)
    typed = next(e for e in device.hierarchy().elements if e.resource_id == first.resource_id)
    assert typed.text == text


def test_type_text_refuses_non_ascii_before_sending(device: AdbDevice) -> None:
    device.launch(CONTACTS, ".activities.ContactEditorActivity")
    before = device.hierarchy().xml
    with pytest.raises(ValueError, match="only supports printable ASCII"):
        device.type_text("Zoë")
    with pytest.raises(ValueError):
        device.type_text("line\nbreak")
    assert device.hierarchy().xml == before
    assert input_text_arg("a b") == "a%sb"


def test_probes_through_the_device(device: AdbDevice, phone) -> None:
    result = device.probe("setting", ns="global", key="wifi_on")
    assert result.argv == ("settings", "get", "global", "wifi_on") and result.exit_code == 0
    assert result.parsed == SettingOutput(namespace="global", key="wifi_on", value="1")
    assert result.raw.strip() == "1"
    rows = device.probe("content", uri="content://com.android.contacts/data/phones").parsed.rows
    assert {r["display_name"] for r in rows} == {"Ada Lovelace", "Alan Turing", "Grace Hopper"}
    assert device.probe("prop", key="ro.build.version.sdk").parsed.value == "34"
    assert CLOCK in device.probe("packages").parsed.packages
    assert device.probe("battery").parsed.level == phone.state.battery_level
    assert device.probe("window_focus").parsed.package == LAUNCHER
    assert device.probe("notifications").parsed.notifications[-1].channel == "USB"
    assert device.probe("alarms").parsed.next_alarm is None  # the default alarms are all off
    # Like the real tool, `content query` reports a provider error and still exits 0: unreadable.
    unknown = device.probe("content", uri="content://com.example.nothing/rows")
    assert unknown.exit_code == 0 and "Unknown URL" in unknown.raw
    assert isinstance(unknown.parsed, Unreadable)
    assert "Error while accessing provider" in unknown.parsed.reason


@pytest.mark.parametrize(("kind", "params"), [
    ("shell", {}),
    ("setting", {"ns": "global", "key": "wifi_on;svc wifi disable"}),
    ("setting", {"ns": "global", "key": "put"}),
    ("battery", {"sub": "set"}),
])
def test_refused_probes_never_reach_the_phone(device: AdbDevice, phone, kind: str, params: dict) -> None:
    before = phone.state
    with pytest.raises(ProbeRefused):
        device.probe(kind, **params)
    assert phone.state == before
