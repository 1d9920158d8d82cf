"""Raw protocol robustness, determinism, shell parsing and tree/pixel agreement."""

from __future__ import annotations

import io
import os
import signal
import socket
import struct
import subprocess
import sys
import threading

import adbutils
import pytest
from PIL import Image

from pytest_artemis.sim import SimPhone, SimServer
from pytest_artemis.sim.shell import run


def _raw(server, payload: bytes) -> bytes:
    with socket.create_connection((server.host, server.port), timeout=5) as s:
        s.sendall(payload)
        s.shutdown(socket.SHUT_WR)
        chunks = []
        while chunk := s.recv(65536):
            chunks.append(chunk)
        return b"".join(chunks)


def _req(text: str) -> bytes:
    return f"{len(text):04x}{text}".encode()


@pytest.mark.parametrize("payload,reply", [
    (b"zzzzhost:version", b"FAIL"),
    (b"0000", b"FAIL"),
    (_req("host:bogus"), b"FAIL"),
    (_req("nonsense"), b"FAIL"),
    (_req("host:transport:emulator-9999"), b"FAIL"),
    (_req("host:transport-any"), b"FAIL"),  # two devices: ambiguous, as on real adb
    (_req("host:tport:serial:emulator-5554") + _req("frobnicate:"), b"OKAY"),
    (_req("host:transport:emulator-5554") + _req("sync:") + b"XXXX\x00\x00\x00\x00", b"OKAY"),
    (b"00", b""),
])
def test_malformed_requests_fail_and_server_keeps_serving(server, client, payload, reply):
    answer = _raw(server, payload)
    assert answer.startswith(reply)
    if payload.endswith(_req("frobnicate:")):
        assert answer[12:16] == b"FAIL"
    assert client.server_version() == 41
    assert client.device("emulator-5554").shell("echo alive").strip() == "alive"


def test_host_version_bytes_and_tport_id(server):
    assert _raw(server, _req("host:version")) == b"OKAY00040029"
    answer = _raw(server, _req("host:tport:serial:emulator-5556"))
    assert answer[:4] == b"OKAY" and struct.unpack("<Q", answer[4:12])[0] == 2
    assert _raw(server, _req("host-serial:emulator-5554:get-serialno")) == b"OKAY000demulator-5554"


def test_shell_v2_is_binary_clean_and_exec(server):
    png = server.phone("emulator-5554").screenshot_png()
    out = _raw(server, _req("host:transport:emulator-5554") + _req("shell,v2,raw:screencap -p"))
    body, data = out[8:], b""
    while body:
        kind, size = struct.unpack("<BI", body[:5])
        if kind == 3:
            assert body[5] == 0
            break
        data += body[5:5 + size]
        body = body[5 + size:]
    assert data == png
    out = _raw(server, _req("host:transport:emulator-5554") + _req("exec:screencap -p"))
    assert out[8:] == png


def test_concurrent_clients(server, client):
    errors = []

    def work(serial):
        try:
            d = client.device(serial)
            for i in range(5):
                assert d.shell(f"echo {i}").strip() == str(i)
                d.screenshot(error_ok=False)
        except Exception as exc:  # collected and asserted below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(s,)) for s in server.serials * 2]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert not errors


def test_determinism_same_seed_same_bytes():
    def session(seed):
        p = SimPhone("emulator-5554", seed=seed)
        shots = []
        for cmd in ("monkey -p com.google.android.deskclock -c x 1", "input tap 900 2060",
                    "input text 7", "input keyevent ENTER", "input keyevent HOME"):
            run(p, cmd)
            shots.append(p.screenshot_png())
        return shots, p.state, p.hierarchy_xml(), run(p, "dumpsys alarm").stdout

    assert session(0) == session(0)
    assert session(0)[0] != session(5)[0]  # the seed shows (battery level)


def test_screen_cache_reuses_png_until_state_changes():
    p = SimPhone("emulator-5554")
    first = p.screenshot_png()
    assert p.screenshot_png() is first and p.hierarchy_xml() is p.hierarchy_xml()
    run(p, "input keyevent HOME")  # HOME on home: new version, same pixels
    run(p, "settings put global wifi_on 0")
    assert p.screenshot_png() is not first


def test_dumped_bounds_match_drawn_pixels():
    p = SimPhone("emulator-5554")
    run(p, "am start -n com.google.android.deskclock/com.android.deskclock.DeskClock")
    img = Image.open(io.BytesIO(p.screenshot_png()))
    root, _ = p.screen()
    fab = next(n for n in root.walk() if n.desc == "Add alarm")
    x1, y1, x2, y2 = fab.bounds
    assert f'bounds="[{x1},{y1}][{x2},{y2}]"' in p.hierarchy_xml()
    assert img.getpixel(((x1 + x2) // 2 + 60, (y1 + y2) // 2 + 60)) == (0xD3, 0xE3, 0xFD)
    assert img.getpixel((x1 - 5, y1 - 5)) == (255, 255, 255)


@pytest.mark.parametrize("line,out,code", [
    ("echo 'a  b' \"c $?\" d\\ e", b"a  b c 0 d e\n", 0),
    ("false || echo x && echo y; echo $?", b"x\ny\n0\n", 0),
    ("echo hi > /sdcard/f; cat /sdcard/f; cat < /sdcard/f", b"hi\nhi\n", 0),
    ("echo a >> /sdcard/g; echo b >> /sdcard/g; cat /sdcard/g | grep b", b"b\n", 0),
    ("ls /nope 2>/dev/null; echo $?", b"1\n", 0),
    ("ls /nope 2>&1 | wc -l", b"1\n", 0),
    ("exit 5; echo no", b"", 5),
    ("echo 'unterminated", b"/system/bin/sh: syntax error: unterminated '\n", 2),
    ("&& echo", b"/system/bin/sh: syntax error: unexpected '&&'\n", 2),
    ("echo a # comment", b"a\n", 0),
    ("dumpsys alarm | grep -c Alarm{", b"2\n", 0),
])
def test_shell_parser(line, out, code):
    result = run(SimPhone("emulator-5554"), line)
    assert (result.merged, result.code) == (out, code)


def test_stop_is_clean_and_restartable():
    srv = SimServer(devices=1, port=0).start()
    port = srv.port
    c = adbutils.AdbClient(host=srv.host, port=port)
    assert c.server_version() == 41
    srv.stop()
    srv.stop()
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=1).close()


def test_cli_module_prints_address_and_stops_on_sigterm():
    proc = subprocess.Popen([sys.executable, "-m", "pytest_artemis.sim", "--devices", "2", "--port",
                             "0"], stdout=subprocess.PIPE, text=True,
                            env=dict(os.environ, PYTHONUNBUFFERED="1"))
    try:
        lines = [proc.stdout.readline() for _ in range(3)]
        assert "ADB server on 127.0.0.1:" in lines[0]
        assert lines[1:] == ["emulator-5554\tdevice\n", "emulator-5556\tdevice\n"]
        port = int(lines[0].rsplit(":", 1)[1])
        assert adbutils.AdbClient(host="127.0.0.1", port=port).server_version() == 41
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=10) == 0
    finally:
        proc.kill()
        proc.stdout.close()
