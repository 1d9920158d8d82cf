"""The simulator driven by the real adbutils client (no protocol mocks)."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import pytest
from PIL import Image

from pytest_artemis.sim import SimPhone

CLOCK = "com.google.android.deskclock"


def test_device_list_and_server_version(client, server):
    assert client.server_version() == 41
    assert [d.serial for d in client.device_list()] == server.serials == ["emulator-5554",
                                                                          "emulator-5556"]
    infos = client.list(extended=True)
    assert infos[0].tags["model"] == "sdk_gphone64_x86_64"
    assert isinstance(server.phone("emulator-5556"), SimPhone)
    assert server.address == f"{server.host}:{server.port}"


def test_shell_exit_codes_v1_and_v2(device):
    r = device.shell2("echo hi; false")
    assert (r.returncode, r.output) == (1, "hi\n")
    r = device.shell2("echo out; echo err >&2; exit 7", v2=True)
    assert (r.returncode, r.stdout, r.stderr) == (7, "out\n", "err\n")
    assert device.shell2("nosuchcmd", v2=True).returncode == 127
    assert "inaccessible or not found" in device.shell2("nosuchcmd", v2=True).stderr
    assert device.shell("true && echo yes || echo no").strip() == "yes"
    assert device.shell("false && echo yes || echo no").strip() == "no"
    assert device.shell(["echo", "it's a $HOME & co"]).strip() == "it's a $HOME & co"


def test_screenshot_decodes_with_right_size(device):
    img = device.screenshot(error_ok=False)
    assert img.size == (1080, 2400)
    raw = device.shell("screencap -p", encoding=None)
    assert raw.startswith(b"\x89PNG\r\n\x1a\n")
    assert Image.open(io.BytesIO(raw)).size == (1080, 2400)


def test_dump_hierarchy_parses(device):
    root = ET.fromstring(device.dump_hierarchy())
    assert root.tag == "hierarchy" and root.get("rotation") == "0"
    texts = {n.get("text") for n in root.iter("node")}
    assert {"Clock", "Settings", "Contacts", "Chrome", "Camera"} <= texts
    attrs = root.find("node").attrib
    for key in ("index", "text", "resource-id", "class", "package", "content-desc", "checkable",
                "checked", "clickable", "enabled", "focusable", "focused", "scrollable",
                "long-clickable", "password", "selected", "bounds"):
        assert key in attrs


def test_window_size_and_current_app(device):
    assert tuple(device.window_size()) == (1080, 2400)
    assert device.rotation() == 0
    device.app_start(CLOCK)
    assert device.app_current().package == CLOCK
    device.app_start("com.android.settings", ".Settings")
    cur = device.app_current()
    assert (cur.package, cur.activity) == ("com.android.settings", "com.android.settings.Settings")


def test_click_keyevent_send_keys(device, server, ui):
    phone = server.phone("emulator-5554")
    ui.tap(device, text="Contacts")
    assert phone.state.foreground.startswith("com.android.contacts/")
    ui.tap(device, desc="Create contact")
    device.send_keys("Ada")
    device.keyevent("KEYCODE_DEL")
    device.send_keys("elaide")
    xml = device.dump_hierarchy()
    assert 'text="Adelaide"' in xml
    device.keyevent("BACK")
    device.keyevent(3)
    assert phone.state.foreground.startswith("com.google.android.apps.nexuslauncher/")


def test_sync_push_pull_roundtrip(device, tmp_path):
    payload = bytes(range(256)) * 700  # > 64 KiB: several DATA chunks
    device.sync.push(payload, "/data/local/tmp/blob.bin")
    assert device.sync.read_bytes("/data/local/tmp/blob.bin") == payload
    assert device.sync.stat("/data/local/tmp/blob.bin").size == len(payload)
    dst = tmp_path / "blob.bin"
    device.sync.pull("/data/local/tmp/blob.bin", dst)
    assert dst.read_bytes() == payload
    assert "blob.bin" in [f.path for f in device.sync.list("/data/local/tmp")]
    assert device.shell("cat /data/local/tmp/blob.bin", encoding=None) == payload
    with pytest.raises(Exception, match="No such file"):
        device.sync.read_bytes("/sdcard/missing.txt")


def test_wait_for_and_state_queries(client, device):
    client.wait_for("emulator-5554", timeout=5)
    assert device.get_state() == "device"
    assert device.get_serialno() == "emulator-5554"
    assert "shell_v2" in device.get_features()
    assert device.getprop("ro.build.version.sdk") == "34"
    assert device.prop.model == "sdk_gphone64_x86_64"
