"""Device commands: coreutils-ish tools, ``input``, ``screencap``,
``uiautomator``, ``monkey``, ``settings``, ``getprop``, ``wm``, ``svc``.  Probe commands
live in :mod:`dumpsys` and :mod:`content`, ``am`` in :mod:`activity_manager`, ``pm`` in
:mod:`package_manager`, ``cmd`` in :mod:`cmd` and ``simctl`` in :mod:`simctl`.  Each command is
``fn(ctx, args) -> exit code`` and runs under the phone lock.
"""

from __future__ import annotations

import re

from . import activity_manager, cmd, content, dumpsys, package_manager, simctl
from .apps import APPS
from .keys import parse_keycode
from .shell import Ctx


def getprops(phone) -> dict[str, str]:
    """System properties of the emulated device."""
    return {
        "ro.product.model": "sdk_gphone64_x86_64", "ro.product.brand": "google",
        "ro.product.manufacturer": "Google", "ro.product.name": "sdk_gphone64_x86_64",
        "ro.product.device": "emu64xa", "ro.product.cpu.abi": "x86_64",
        "ro.build.version.sdk": "34", "ro.build.version.release": "14",
        "ro.build.id": "UE1A.230829.036", "ro.build.type": "userdebug",
        "ro.build.fingerprint": "google/sdk_gphone64_x86_64/emu64xa:14/UE1A.230829.036/"
                                "10833437:userdebug/dev-keys",
        "ro.serialno": phone.serial.upper().replace("-", ""), "ro.kernel.qemu": "1",
        "ro.debuggable": "1", "ro.sf.lcd_density": "420", "sys.boot_completed": "1",
        "persist.sys.timezone": "UTC", "persist.sys.locale": "en-US",
        "ro.boot.serialno": phone.serial.upper().replace("-", ""),
    }


def _echo(ctx: Ctx, args: list[str]) -> int:
    newline = True
    if args and args[0] == "-n":
        newline, args = False, args[1:]
    ctx.out(" ".join(args) + ("\n" if newline else ""))
    return 0


def _cat(ctx: Ctx, args: list[str]) -> int:
    if not args:
        ctx.out(ctx.stdin)
        return 0
    status = 0
    for path in args:
        data = ctx.phone.fs.read(path)
        if data is None:
            why = "Is a directory" if ctx.phone.fs.is_dir(path) else "No such file or directory"
            ctx.err(f"cat: {path}: {why}\n")
            status = 1
        else:
            ctx.out(data)
    return status


def _rm(ctx: Ctx, args: list[str]) -> int:
    force = any(a.startswith("-") and "f" in a for a in args)
    status = 0
    for path in (a for a in args if not a.startswith("-")):
        if not ctx.phone.fs.remove(path) and not force:
            ctx.err(f"rm: {path}: No such file or directory\n")
            status = 1
    return status


def _ls(ctx: Ctx, args: list[str]) -> int:
    paths = [a for a in args if not a.startswith("-")] or ["/"]
    status = 0
    for path in paths:
        names = ctx.phone.fs.listdir(path)
        if names is None:
            if ctx.phone.fs.read(path) is not None:
                ctx.out(path + "\n")
            else:
                ctx.err(f"ls: {path}: No such file or directory\n")
                status = 1
        else:
            ctx.out("".join(n + "\n" for n in names))
    return status


def _mkdir(ctx: Ctx, args: list[str]) -> int:
    for path in (a for a in args if not a.startswith("-")):
        ctx.phone.fs.mkdirs(path)
    return 0


def _touch(ctx: Ctx, args: list[str]) -> int:
    fs = ctx.phone.fs
    for path in args:
        fs.write(path, fs.read(path) or b"", ctx.phone.clock_ms // 1000)
    return 0


def _sleep(ctx: Ctx, args: list[str]) -> int:
    # Sleeping is simulated: it advances the phone clock, not the host's.
    try:
        ctx.phone.advance(int(float(args[0]) * 1000))
    except (IndexError, ValueError):
        ctx.err("sleep: Need 1 argument\n")
        return 1
    return 0


def _grep(ctx: Ctx, args: list[str]) -> int:
    flags = "".join(a[1:] for a in args if a.startswith("-") and len(a) > 1)
    rest = [a for a in args if not (a.startswith("-") and len(a) > 1)]
    if not rest:
        ctx.err("usage: grep [-civE] PATTERN [FILE]\n")
        return 2
    try:
        rx = re.compile(rest[0], re.I if "i" in flags else 0)
    except re.error:
        rx = re.compile(re.escape(rest[0]), re.I if "i" in flags else 0)
    data = ctx.phone.fs.read(rest[1]) if len(rest) > 1 else ctx.stdin
    lines = [ln for ln in (data or b"").decode(errors="replace").splitlines()
             if bool(rx.search(ln)) != ("v" in flags)]
    ctx.out(f"{len(lines)}\n" if "c" in flags else "".join(ln + "\n" for ln in lines))
    return 0 if lines else 1


def _head_tail(tail: bool):
    def fn(ctx: Ctx, args: list[str]) -> int:
        n = 10
        for i, a in enumerate(args):
            if a == "-n" and i + 1 < len(args):
                n = int(args[i + 1].lstrip("+-") or 10)
            elif a.startswith("-") and a[1:].isdigit():
                n = int(a[1:])
        lines = ctx.stdin.decode(errors="replace").splitlines(keepends=True)
        ctx.out("".join(lines[-n:] if tail else lines[:n]))
        return 0
    return fn


def _wc(ctx: Ctx, args: list[str]) -> int:
    count = ctx.stdin.count(b"\n") if "-l" in args else len(ctx.stdin)
    ctx.out(f"{count}\n")
    return 0


def _getprop(ctx: Ctx, args: list[str]) -> int:
    props = getprops(ctx.phone)
    if args:
        ctx.out(props.get(args[0], args[1] if len(args) > 1 else "") + "\n")
    else:
        ctx.out("".join(f"[{k}]: [{v}]\n" for k, v in sorted(props.items())))
    return 0


def _wm(ctx: Ctx, args: list[str]) -> int:
    p = ctx.phone
    if args[:1] == ["size"]:
        ctx.out(f"Physical size: {p.width}x{p.height}\n")
    elif args[:1] == ["density"]:
        ctx.out("Physical density: 420\n")
    else:
        ctx.err("Error: unknown command '" + " ".join(args) + "'\n")
        return 255
    return 0


def _unescape_text(text: str) -> str:
    # Android's `input text` turns %s into a space; everything else is literal.
    return text.replace("%s", " ")


def _input(ctx: Ctx, args: list[str]) -> int:
    p = ctx.phone
    args = list(args)
    sources = {"touchscreen", "touchpad", "keyboard", "mouse", "stylus", "trackball", "dpad",
               "gamepad", "joystick", "touchnavigation", "rotaryencoder"}
    if args and args[0] in sources:
        args.pop(0)
    if args[:1] == ["-d"]:
        args = args[2:]
    if not args:
        ctx.err("Usage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]\n")
        return 1
    cmd, rest = args[0], args[1:]
    try:
        if cmd == "tap" and len(rest) == 2:
            p.tap(int(float(rest[0])), int(float(rest[1])))
        elif cmd in ("swipe", "draganddrop") and len(rest) in (4, 5):
            x1, y1, x2, y2 = (int(float(v)) for v in rest[:4])
            p.swipe(x1, y1, x2, y2, int(rest[4]) if len(rest) == 5 else 300)
        elif cmd == "text" and rest:
            p.text(_unescape_text(" ".join(rest)))
        elif cmd in ("keyevent", "press") and (rest or cmd == "press"):
            tokens = [a for a in rest if not a.startswith("--")] or ["DPAD_CENTER"]
            codes = [parse_keycode(token) for token in tokens]
            unknown = next((t for t, c in zip(tokens, codes, strict=True) if c is None), None)
            if unknown is not None:
                ctx.err(f"Error: Unknown keycode: {unknown}\n")
                return 1
            p.key(*(c for c in codes if c is not None))
        else:
            ctx.err(f"Error: Invalid arguments for command: {cmd}\n")
            return 1
    except ValueError:
        ctx.err(f"Error: Invalid arguments for command: {cmd}\n")
        return 1
    return 0


def _screencap(ctx: Ctx, args: list[str]) -> int:
    p = ctx.phone
    if p.faults.take_screencap_failure():
        ctx.err("Error: Failed to take screenshot. Status: -110\n")
        return 1
    files = [a for i, a in enumerate(args) if not a.startswith("-") and args[i - 1:i] != ["-d"]]
    png = "-p" in args or (files and files[0].endswith(".png"))
    data = p.screenshot_png() if png else p.screenshot_raw()
    if files:
        error = p.fs.write(files[0], data, p.clock_ms // 1000)
        if error:
            ctx.err(f"Error opening file: {files[0]} (No such file or directory)\n")
            return 1
    else:
        ctx.out(data)
    return 0


def _uiautomator(ctx: Ctx, args: list[str]) -> int:
    p = ctx.phone
    if not args or args[0] != "dump":
        ctx.err("Usage: uiautomator <subcommand> [options]\n\nAvailable subcommands:\n\n"
                "help: displays help message\n\ndump: creates an XML dump of current UI "
                "hierarchy\n")
        return 1
    if p.faults.take_uiautomator_failure():
        # As on a real device: an error on stderr, exit status 0, no file.
        ctx.err("ERROR: could not get idle state.\n")
        return 0
    files = [a for a in args[1:] if not a.startswith("--")]
    path = files[0] if files else "/sdcard/window_dump.xml"
    xml = p.hierarchy_xml()
    if path in ("/dev/tty", "/dev/stdout"):
        ctx.out(xml)
    elif p.fs.write(path, xml.encode(), p.clock_ms // 1000):
        ctx.err(f"ERROR: could not write {path}\n")
        return 1
    ctx.out(f"UI hierchary dumped to: {path}\n")
    return 0


def _monkey(ctx: Ctx, args: list[str]) -> int:
    p = ctx.phone
    pkg = args[args.index("-p") + 1] if "-p" in args[:-1] else ""
    ctx.out("".join(f"  bash arg: {a}\n" for a in args))
    if pkg not in APPS:
        ctx.err("** No activities found to run, monkey aborted.\n")
        return 252
    p.launch(pkg)
    ctx.out("Events injected: 1\n## Network stats: elapsed time=21ms (0ms mobile, 0ms wifi, "
            "21ms not connected)\n")
    return 0


def _settings(ctx: Ctx, args: list[str]) -> int:
    p = ctx.phone
    args = list(args)
    if args[:1] == ["--user"]:
        args = args[2:]
    if len(args) < 2:
        ctx.err("usage:  settings [--user <USER_ID> | current] get namespace key\n")
        return 255
    verb, ns, rest = args[0], args[1], args[2:]
    if ns not in p.settings:
        ctx.err(f"Invalid namespace '{ns}'\n")
        return 255
    if verb == "get" and len(rest) == 1:
        value = p.get_setting(ns, rest[0])
        ctx.out(("null" if value is None else value) + "\n")
    elif verb == "put" and len(rest) >= 2:
        p.put_setting(ns, rest[0], rest[1])
    elif verb == "delete" and len(rest) == 1:
        existed = p.settings[ns].pop(rest[0], None) is not None
        p.changed()
        ctx.out(f"Deleted {int(existed)} rows\n")
    elif verb == "list":
        ctx.out("".join(f"{k}={v}\n" for k, v in sorted(p.settings[ns].items())))
    else:
        ctx.err("Invalid arguments\n")
        return 255
    return 0


def _svc(ctx: Ctx, args: list[str]) -> int:
    keys = {"wifi": "wifi_on", "bluetooth": "bluetooth_on"}
    if len(args) == 2 and args[0] in keys and args[1] in ("enable", "disable"):
        ctx.phone.put_setting("global", keys[args[0]], "1" if args[1] == "enable" else "0")
        return 0
    ctx.err("Available commands:\n    wifi\n    bluetooth\n")
    return 1


COMMANDS = {
    "echo": _echo, "cat": _cat, "rm": _rm, "ls": _ls, "mkdir": _mkdir, "touch": _touch,
    "sleep": _sleep, "grep": _grep, "head": _head_tail(False), "tail": _head_tail(True),
    "wc": _wc, "getprop": _getprop, "wm": _wm, "input": _input, "screencap": _screencap,
    "uiautomator": _uiautomator, "am": activity_manager.am, "monkey": _monkey, "pm": package_manager.pm,
    "cmd": cmd.cmd,
    "settings": _settings, "svc": _svc, "dumpsys": dumpsys.dumpsys, "content": content.content,
    "simctl": simctl.simctl,
    "true": lambda ctx, args: 0, "false": lambda ctx, args: 1, "cd": lambda ctx, args: 0,
    "pwd": lambda ctx, args: ctx.out("/\n") or 0,
    "id": lambda ctx, args: ctx.out("uid=2000(shell) gid=2000(shell) groups=2000(shell)\n") or 0,
    "whoami": lambda ctx, args: ctx.out("shell\n") or 0,
}
