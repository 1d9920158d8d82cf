"""AdbDevice wire paths on the simulated phone: exec: for bytes, one-connection dumps, legacy pty shells."""

from __future__ import annotations

import hashlib
import zlib

import pytest

from pytest_artemis.device import AdbDevice, DeviceCommandFailed
from pytest_artemis.device.adb import verified_png
from pytest_artemis.device.perception import foreground, perceive

SETTINGS = "com.android.settings"


def test_screenshot_is_the_phones_exact_frame_even_if_its_shell_mangles_lf(device: AdbDevice, phone) -> None:
    phone.faults.legacy_adbd(crlf=True, refuse_exec=False)
    frame = phone.screenshot_raw()
    assert device.screenshot().sha256 == hashlib.sha256(frame).hexdigest()  # exec: never passes a pty


def test_a_legacy_device_without_exec_is_driven_through_its_pty_shell(device: AdbDevice, phone) -> None:
    phone.faults.legacy_adbd()
    expected = phone.screenshot_png()
    assert b"\n" in expected  # the mangling really changes these bytes
    assert device.screenshot().png == expected  # repaired, and every chunk's CRC agreed
    tree = device.hierarchy()
    assert "\r" not in tree.xml and tree.xml == phone.hierarchy_xml()
    assert device.check(["echo", "a b"]) == "a b\n"
    assert device.probe("setting", ns="global", key="wifi_on").parsed.value == "1"
    device.launch(SETTINGS)
    assert foreground(device.hierarchy()) == SETTINGS


def test_a_pty_capture_that_repair_cannot_explain_is_refused() -> None:
    png = _png_with_lf()
    assert verified_png(png).png == png
    mangled = png.replace(b"\n", b"\r\n")
    with pytest.raises(DeviceCommandFailed, match="undecodable"):
        verified_png(mangled)
    damaged = bytearray(png)
    damaged[len(png) // 2] ^= 0xFF
    with pytest.raises(DeviceCommandFailed, match="undecodable"):
        verified_png(bytes(damaged))


def test_screencap_stderr_never_reaches_the_png_but_reaches_the_error(device: AdbDevice, phone) -> None:
    phone.faults.fail_screencap(times=None)
    with pytest.raises(DeviceCommandFailed, match=r"exited 1: Error: Failed to take screenshot"):
        device.screenshot()


def test_a_failed_dump_never_returns_the_previous_screens_file(device: AdbDevice, phone) -> None:
    first = device.hierarchy()
    device.launch(SETTINGS)
    phone.faults.fail_uiautomator(times=2)
    with pytest.raises(DeviceCommandFailed, match="could not get idle state"):
        device.hierarchy()
    assert device.hierarchy().xml != first.xml


def test_perceive_reads_the_foreground_from_the_dump(device: AdbDevice) -> None:
    device.launch(SETTINGS)
    asked: list[str] = []

    class Counting:
        """The device, counting the separate foreground query perceive should no longer need."""

        def __getattr__(self, name: str) -> object:
            if name == "current_app":
                asked.append(name)
            return getattr(device, name)

    screen = perceive(Counting())  # type: ignore[arg-type]
    assert screen.view.foreground == SETTINGS == device.current_app() and asked == []


def test_the_adb_cli_reads_the_same_screen_bytes_and_sees_exec_refused(device, phone, adb_cli) -> None:
    out = adb_cli("exec-out", "screencap", "-p")
    assert out.returncode == 0 and out.stdout == phone.screenshot_png()
    assert device.screenshot().frame is not None
    phone.faults.legacy_adbd()
    refused = adb_cli("exec-out", "screencap", "-p")
    assert refused.returncode != 0 and b"closed" in refused.stderr
    assert device.screenshot().png == out.stdout


def _png_with_lf() -> bytes:
    """A tiny valid PNG whose bytes contain LF (so a pty would mangle it)."""
    for shade in range(256):
        raw = b"".join(b"\x00" + bytes([shade, 10, 13]) * 4 for _ in range(4))
        body = [b"IHDR" + (4).to_bytes(4, "big") * 2 + b"\x08\x02\x00\x00\x00",
                b"IDAT" + zlib.compress(raw), b"IEND"]
        png = b"\x89PNG\r\n\x1a\n" + b"".join(
            (len(c) - 4).to_bytes(4, "big") + c + zlib.crc32(c).to_bytes(4, "big") for c in body)
        if b"\n" in png[8:]:
            return png
    raise AssertionError("no PNG with an LF byte")


def test_a_step_asks_the_server_for_nothing_but_its_four_services(server, device: AdbDevice) -> None:
    device.launch(SETTINGS)
    server.requests.clear()
    screen = perceive(device)
    target = screen.view.find("Display")
    assert target is not None
    device.tap(*target.center)
    device.screenshot()
    transports = [r for r in server.requests if r.startswith("host:")]
    services = [r for r in server.requests if not r.startswith("host:")]
    assert transports == [f"host:transport:{device.serial}"] * 4  # no host:version, one connection each
    assert sorted(s.split(" ", 1)[0] for s in services) == [
        "exec:input", "exec:rm", "exec:screencap", "exec:screencap"]  # no dumpsys, no sync pull


def test_the_adb_cli_clears_a_field_with_one_multi_key_keyevent(device: AdbDevice, adb_cli) -> None:
    device.launch("com.android.contacts", ".activities.ContactEditorActivity")
    first = next(e for e in device.hierarchy().elements if e.text == "First name")
    device.tap(*first.center)
    device.type_text("Ada")
    out = adb_cli("shell", "input", "keyevent", "KEYCODE_MOVE_END", "KEYCODE_DEL", "KEYCODE_DEL")
    assert out.returncode == 0, out.stderr
    assert next(e for e in device.hierarchy().elements if e.resource_id == first.resource_id).text == "A"
