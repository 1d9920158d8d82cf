"""``simctl``: control the simulator from inside the device shell, so another
process (or the ``adb`` CLI) can inject faults through ADB itself.

    simctl state                          JSON snapshot (alarms, settings, faults ...)
    simctl clock                          print simulated epoch milliseconds
    simctl clock advance MS               move simulated time forward
    simctl fault crash [PKG] [AFTER]      crash dialog now, or after AFTER more inputs
    simctl fault screencap-fail [N|forever]
    simctl fault screencap-slow SECONDS
    simctl fault screencap-raw PIXEL_FORMAT [12|16]
    simctl fault uiautomator-fail [N|forever]
    simctl fault offline [N]              offline; back online after N refused requests
    simctl fault online
    simctl fault ignore-taps text=TEXT | resource-id=ID
    simctl fault hide-toasts [off]        apps show no toast (until off or clear)
    simctl fault clear
    simctl permissions ask [PKG...]       PKG (default: Clock and Contacts) as freshly installed: stopped,
                                          no runtime permission granted; it asks at launch for what it needs
    simctl permissions default [PKG...]   back to the default: every runtime permission granted
    simctl reset                          full reset: the state after boot (same seed)
"""

from __future__ import annotations

import json

from .faults import CLOCK_PACKAGE
from .permissions import ASKS_AT_LAUNCH, REQUESTED
from .shell import Ctx

USAGE = __doc__.split("\n\n", 1)[1]


def _count(args: list[str], default: int | None = 1) -> int | None:
    if not args:
        return default
    if args[0] == "forever":
        return None
    return int(args[0])


def _fault(ctx: Ctx, args: list[str]) -> int:
    f = ctx.phone.faults
    kind, rest = args[0], args[1:]
    if kind == "crash":
        pkg = rest[0] if rest and not rest[0].isdigit() else CLOCK_PACKAGE
        after = int(rest[-1]) if rest and rest[-1].isdigit() else 0
        f.crash_dialog(pkg, after_inputs=after)
    elif kind == "screencap-fail":
        f.fail_screencap(_count(rest))
    elif kind == "screencap-slow":
        f.slow_screencap(float(rest[0]))
    elif kind == "screencap-raw":
        f.raw_screencap(rest[0], int(rest[1]) if len(rest) > 1 else 16)
    elif kind == "uiautomator-fail":
        f.fail_uiautomator(_count(rest))
    elif kind == "offline":
        f.go_offline(_count(rest, default=None))
    elif kind == "online":
        f.come_online()
    elif kind == "ignore-taps" and rest and "=" in rest[0]:
        key, _, value = rest[0].partition("=")
        if key == "text":
            f.ignore_taps(text=value)
        elif key in ("resource-id", "resource_id"):
            f.ignore_taps(resource_id=value)
        else:
            raise ValueError(key)
    elif kind == "hide-toasts":
        f.hide_toasts(not rest or rest[0] != "off")
    elif kind == "clear":
        f.clear()
    else:
        raise ValueError(kind)
    ctx.out(f"ok: fault {' '.join(args)}\n")
    return 0


def _permissions(ctx: Ctx, args: list[str]) -> None:
    mode, pkgs = args[0], args[1:] or list(ASKS_AT_LAUNCH)
    if mode not in ("ask", "default") or any(pkg not in REQUESTED for pkg in pkgs):
        raise ValueError(" ".join(args))
    for pkg in pkgs:
        ctx.phone.permissions.ask(pkg, mode == "ask")
        if mode == "ask":
            ctx.phone.force_stop(pkg)  # as installing it would: its next start is a first launch
    ctx.phone.changed()
    ctx.out(f"ok: permissions {mode} {' '.join(pkgs)}\n")


def simctl(ctx: Ctx, args: list[str]) -> int:
    """Entry point of the ``simctl`` shell command."""
    p = ctx.phone
    try:
        if args == ["state"]:
            data = p.state.to_json()
            data["faults"] = p.faults.describe()
            ctx.out(json.dumps(data, indent=1, sort_keys=True) + "\n")
        elif args == ["reset"]:
            p.reset()
            ctx.out("ok: reset\n")
        elif args == ["clock"]:
            ctx.out(f"{p.clock_ms}\n")
        elif args[:2] == ["clock", "advance"] and len(args) == 3:
            p.advance(int(args[2]))
            ctx.out(f"{p.clock_ms}\n")
        elif args[:1] == ["fault"] and len(args) >= 2:
            return _fault(ctx, args[1:])
        elif args[:1] == ["permissions"] and len(args) >= 2:
            _permissions(ctx, args[1:])
        else:
            raise ValueError(" ".join(args))
    except (ValueError, IndexError):
        ctx.err("simctl: bad arguments: " + " ".join(args) + "\n\nusage:\n" + USAGE)
        return 2
    return 0
