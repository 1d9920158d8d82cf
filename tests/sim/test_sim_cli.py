"""The simulator driven by the real ``adb`` command-line client."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET

from PIL import Image

S = ("-s", "emulator-5554")


def test_adb_devices(adb):
    out = adb("devices").stdout.decode()
    assert "emulator-5554\tdevice" in out and "emulator-5556\tdevice" in out
    assert "transport_id:2" in adb("devices", "-l").stdout.decode()


def test_adb_shell_exit_codes(adb):
    proc = adb(*S, "shell", "echo hello; exit 3", check=False)
    assert (proc.returncode, proc.stdout) == (3, b"hello\n")
    proc = adb(*S, "shell", "false; echo $?")
    assert proc.stdout == b"1\n"
    proc = adb(*S, "shell", "ls /nope", check=False)
    assert proc.returncode == 1 and b"No such file" in proc.stderr
    assert adb(*S, "shell", "getprop", "ro.serialno").stdout.strip() == b"EMULATOR5554"


def test_exec_out_screencap_is_png(adb):
    data = adb(*S, "exec-out", "screencap", "-p").stdout
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert Image.open(io.BytesIO(data)).size == (1080, 2400)


def test_pull_and_push(adb, tmp_path):
    adb(*S, "shell", "uiautomator", "dump", "/sdcard/window_dump.xml")
    adb(*S, "pull", "/sdcard/window_dump.xml", str(tmp_path / "w.xml"))
    assert ET.parse(tmp_path / "w.xml").getroot().tag == "hierarchy"
    (tmp_path / "up.txt").write_bytes(b"pushed\n")
    adb(*S, "push", str(tmp_path / "up.txt"), "/sdcard/Download/")
    assert adb(*S, "shell", "cat /sdcard/Download/up.txt").stdout == b"pushed\n"
    assert adb(*S, "pull", "/sdcard/none", str(tmp_path), check=False).returncode != 0


def test_create_730_alarm_with_adb_cli_only(adb, cli):
    adb(*S, "shell", "monkey -p com.google.android.deskclock -c android.intent.category.LAUNCHER 1")
    cli.tap(desc="Add alarm")
    ids = "com.google.android.deskclock:id/material_"
    cli.tap(rid=ids + "hour_text_input")
    adb(*S, "shell", "input", "text", "7")
    cli.tap(rid=ids + "minute_text_input")
    adb(*S, "shell", "input", "text", "30")
    cli.tap(text="AM")
    cli.tap(text="OK")
    out = adb(*S, "shell", "dumpsys", "alarm").stdout.decode()
    m = re.search(r"Next alarm clock information: \n\s+user:0 pendingSend:false time:\d+ = "
                  r"\S+ (\d\d):(\d\d):00\.000", out)
    assert m and m.groups() == ("07", "30")
    assert re.search(r"RTC_WAKEUP #\d+: Alarm\{\w+ type 0 origWhen \d+ whenElapsed \d+ "
                     r"com\.google\.android\.deskclock\}", out)
    assert re.search(r"Alarm clock:\n\s+triggerTime=\S+ 07:30:00\.000", out)
