"""Read-only probe commands: ``dumpsys`` and ``content query``.

``dumpsys alarm`` format (AOSP layout plus a DeskClock section)::

    Current Alarm Manager state:
      nowRTC=1768467600000=2026-01-15 09:00:00.000 nowELAPSED=+1h0m0s0ms
      Next alarm clock information:
        user:0 pendingSend:false time:1768548600000 = 2026-01-16 07:30:00.000 = +22h30m0s0ms
      Pending alarm batches: 1
        RTC_WAKEUP #0: Alarm{1a2b3c4 type 0 origWhen 1768548600000 ... com.google.android.deskclock}
          tag=*walarm*:com.android.deskclock.ALARM_ALERT
      DeskClock alarms (com.google.android.deskclock, user 0): 2
        Alarm{id=1 hour=7 minutes=30 enabled=true daysOfWeek=[] label=""}
        Alarm{id=2 hour=8 minutes=30 enabled=false daysOfWeek=[] label="Gym"}

The "user:0" line is present only when an alarm is enabled (it names the
soonest one).  Every alarm, enabled or not, has one ``Alarm{id=N hour=H
minutes=M enabled=true|false daysOfWeek=[] label="..."}`` line (24-hour hour,
ids in list order, ``"`` in labels escaped as ``\\"``).  The same alarms are
rows of ``content query --uri content://com.android.deskclock/alarms``.
"""

from __future__ import annotations

import zlib

from .shell import Ctx
from .state import EPOCH_MS, LAUNCHER, fmt_duration, fmt_stamp, next_alarm_ms

DISPLAY_ID = "4619827259835644672"
_BOOT_MS = EPOCH_MS - 3_600_000  # the phone booted an hour before the simulated epoch


def _hash(*parts: object) -> str:
    """Stable 7-hex-digit identity hash (Java's identityHashCode look, deterministic)."""
    return f"{zlib.crc32(repr(parts).encode()) & 0xFFFFFFF:07x}"


def _short(pkg: str, act: str) -> str:
    return act[len(pkg):] if act.startswith(pkg + ".") else act


def _alarm(ctx: Ctx) -> None:
    p = ctx.phone
    now = p.clock_ms
    out = ["Current Alarm Manager state:", "  Settings:", "    min_futurity=+5s0ms",
           "    allow_while_idle_long_time=+9m0s0ms", "",
           f"  nowRTC={now}={fmt_stamp(now)} nowELAPSED={fmt_duration(now - _BOOT_MS)}",
           f"  mLastTimeChangeClockTime={EPOCH_MS}={fmt_stamp(EPOCH_MS)}", "",
           "  Next alarm clock information: "]
    upcoming = sorted((next_alarm_ms(a, now), i, a) for i, a in enumerate(p.alarms) if a.enabled)
    if upcoming:
        t = upcoming[0][0]
        out.append(f"    user:0 pendingSend:false time:{t} = {fmt_stamp(t)} = {fmt_duration(t - now)}")
    out += ["", f"  Pending alarm batches: {len(upcoming)}"]
    for n, (t, i, a) in enumerate(upcoming):
        out += [f"    RTC_WAKEUP #{n}: Alarm{{{_hash('alarm', i, a)} type 0 origWhen {t} window 0 "
                f"exactAllowReason=policy_permission repeatInterval=0 count=0 flags=0x3 "
                f"com.google.android.deskclock}}",
                "      tag=*walarm*:com.android.deskclock.ALARM_ALERT",
                f"      type=RTC_WAKEUP origWhen={fmt_stamp(t)} window=0 repeatInterval=0 count=0 "
                "flags=0x3"]
    out += ["", f"  DeskClock alarms (com.google.android.deskclock, user 0): {len(p.alarms)}"]
    for i, a in enumerate(p.alarms):
        label = a.label.replace("\\", "\\\\").replace('"', '\\"')
        out.append(f"    Alarm{{id={i + 1} hour={a.hour} minutes={a.minute} "
                   f"enabled={str(a.enabled).lower()} daysOfWeek=[] label=\"{label}\"}}")
    ctx.out("\n".join(out) + "\n")


def _activities(ctx: Ctx, top: bool) -> None:
    p = ctx.phone
    pkg, act = p.foreground()
    rec = f"ActivityRecord{{{_hash('rec', pkg, act)} u0 {pkg}/{_short(pkg, act)} t{p.task_ids.get(pkg, 11)}}}"
    if top:
        ctx.out(f"TASK 10{p.task_ids.get(pkg, 11)}:{pkg} id={p.task_ids.get(pkg, 11)} userId=0\n"
                f"  ACTIVITY {pkg}/{_short(pkg, act)} {_hash('rec', pkg, act)} "
                f"pid={4000 + p.task_ids.get(pkg, 11) * 17}\n")
        return
    lines = ["ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)",
             "Display #0 (activities from top to bottom):"]
    order = ([pkg] if pkg != LAUNCHER else []) + [r for r in p.recents if r != pkg] + [LAUNCHER]
    for task_pkg in order:
        tid = p.task_ids.get(task_pkg, 11)
        lines.append(f"  * Task{{{_hash('task', task_pkg)} #{tid} type="
                     f"{'home' if task_pkg == LAUNCHER else 'standard'} A=10{tid}:{task_pkg} U=0 "
                     f"visible={str(task_pkg == pkg).lower()} mode=fullscreen}}")
        if task_pkg == pkg:
            lines.append(f"    topResumedActivity={rec}")
    lines += ["", f"  ResumedActivity: {rec}", f"  mResumedActivity: {rec}",
              f"  topResumedActivity={rec}", f"  mFocusedApp={rec}"]
    ctx.out("\n".join(lines) + "\n")


def _window(ctx: Ctx) -> None:
    p = ctx.phone
    pkg, act = p.foreground()
    win = f"Window{{{_hash('win', pkg, act)} u0 {pkg}/{act}}}"
    focus = (f"Window{{{_hash('err', p.dialog_pkg)} u0 Application Error: {p.dialog_pkg}}}"
             if p.dialog_pkg else win)
    rec = f"ActivityRecord{{{_hash('rec', pkg, act)} u0 {pkg}/{_short(pkg, act)} t{p.task_ids.get(pkg, 11)}}}"
    ctx.out("WINDOW MANAGER WINDOWS (dumpsys window windows)\n"
            f"  Window #0 {win}:\n    mDisplayId=0 rootTaskId={p.task_ids.get(pkg, 11)}\n"
            f"  Window #1 Window{{{_hash('sb')} u0 StatusBar}}:\n    mDisplayId=0\n\n"
            f"  mCurrentFocus={focus}\n  mFocusedApp={rec}\n")


def _battery(ctx: Ctx, args: list[str]) -> int:
    p = ctx.phone
    ov = p.battery_overrides
    if args[:1] == ["set"] and len(args) == 3:
        if args[1] == "level" and args[2].isdigit():
            p.battery_level = max(0, min(100, int(args[2])))
            p.changed()
        ov[args[1]] = args[2]
        return 0
    if args[:1] == ["unplug"]:
        ov.update({"ac": "0", "usb": "0"})
        return 0
    if args[:1] == ["reset"]:
        ov.clear()
        return 0
    ac = ov.get("ac", "1") != "0"
    stopped = "(UPDATES STOPPED -- use 'reset' to restart)\n" if ov else ""
    ctx.out(f"Current Battery Service state:\n{stopped}  AC powered: {str(ac).lower()}\n"
            f"  USB powered: {str(ov.get('usb', '0') != '0').lower()}\n"
            "  Wireless powered: false\n  Dock powered: false\n  Max charging current: 0\n"
            "  Max charging voltage: 0\n  Charging counter: 10000\n"
            f"  status: {ov.get('status', '2' if ac else '3')}\n  health: 2\n  present: true\n"
            f"  level: {p.battery_level}\n  scale: 100\n  voltage: 5000\n  temperature: 250\n"
            "  technology: Li-ion\n")
    return 0


def _display(ctx: Ctx) -> None:
    w, h = ctx.phone.width, ctx.phone.height
    ctx.out("DISPLAY MANAGER (dumpsys display)\n  mOnlyCode=false\n  mSafeMode=false\n"
            "  mPendingTraversal=false\n  mViewports=[DisplayViewport{type=INTERNAL, valid=true, "
            f"isActive=true, displayId=0, uniqueId='local:{DISPLAY_ID}', physicalPort=0, "
            f"orientation=0, logicalFrame=Rect(0, 0 - {w}, {h}), physicalFrame=Rect(0, 0 - {w}, "
            f"{h}), deviceWidth={w}, deviceHeight={h}}}]\n\nDisplay Devices: size=1\n"
            f"  DisplayDeviceInfo{{\"Built-in Screen\": uniqueId=\"local:{DISPLAY_ID}\", {w} x {h}, "
            "modeId 1, renderFrameRate 60.0, density 420, 420.0 x 420.0 dpi, appVsyncOff 0, "
            "presDeadline 16666666, touch INTERNAL, rotation 0, type INTERNAL, state ON}\n"
            "  mCurrentOrientation=0\n")


def _notification(ctx: Ctx) -> None:
    p = ctx.phone
    now = p.clock_ms
    lines = ["Current Notification Manager state:", "  Notification List:"]
    upcoming = sorted(next_alarm_ms(a, now) for a in p.alarms if a.enabled)
    if upcoming and upcoming[0] - now <= 2 * 3_600_000:
        lines.append(f"    NotificationRecord(0x{_hash('n', upcoming[0])}: pkg=com.google.android."
                     "deskclock user=UserHandle{0} id=2147483647 tag=null importance=2 key=0|com."
                     "google.android.deskclock|2147483647|null|10123: Notification(channel="
                     "Upcoming alarms shortcut=null contentView=null vibrate=null sound=null "
                     "defaults=0x0 flags=0x2 color=0xff1a73e8 category=alarm vis=PUBLIC))")
    lines.append(f"    NotificationRecord(0x{_hash('usb')}: pkg=android user=UserHandle{{-1}} "
                 "id=32 tag=null importance=1 key=-1|android|32|null|1000: Notification(channel="
                 "DEVELOPER_IMPORTANT shortcut=null contentView=null vibrate=null sound=null "
                 "defaults=0x0 flags=0x2 color=0xff607d8b vis=PUBLIC))")
    ctx.out("\n".join(lines) + "\n")


def dumpsys(ctx: Ctx, args: list[str]) -> int:
    """``dumpsys SERVICE [args]`` for alarm, activity, window, battery, display,
    notification, SurfaceFlinger."""
    service, rest = (args[0], args[1:]) if args else ("", [])
    if service == "alarm":
        _alarm(ctx)
    elif service == "activity":
        _activities(ctx, top=rest[:1] == ["top"])
    elif service == "window":
        _window(ctx)
    elif service == "battery":
        return _battery(ctx, rest)
    elif service == "display":
        _display(ctx)
    elif service == "notification":
        _notification(ctx)
    elif service == "SurfaceFlinger" and "--display-id" in rest:
        ctx.out(f'Display {DISPLAY_ID} (HWC display 0): port=0 pnpId=GGL displayName="EMU_display_0"\n')
    elif not service or service == "-l":
        ctx.out("Currently running services:\n" + "".join(
            f"  {s}\n" for s in ("SurfaceFlinger", "activity", "alarm", "battery", "display",
                                 "notification", "window")))
    else:
        ctx.err(f"Can't find service: {service}\n")
    return 0


def _rows(ctx: Ctx, uri: str) -> list[dict[str, str]] | None:
    p = ctx.phone
    if uri in ("content://com.android.contacts/data/phones",
               "content://com.android.contacts/data"):
        return [{"display_name": c.display_name, "number": c.phone, "data1": c.phone,
                 "_id": str(i + 1), "contact_id": str(i + 1),
                 "mimetype": "vnd.android.cursor.item/phone_v2"}
                for i, c in enumerate(p.contacts) if c.phone]
    if uri in ("content://contacts/people", "content://com.android.contacts/contacts"):
        return [{"display_name": c.display_name, "number": c.phone, "_id": str(i + 1),
                 "name": c.display_name, "has_phone_number": str(int(bool(c.phone)))}
                for i, c in enumerate(p.contacts)]
    if uri in ("content://com.android.deskclock/alarms", "content://com.google.android.deskclock/alarms"):
        return [{"_id": str(i + 1), "hour": str(a.hour), "minutes": str(a.minute),
                 "daysofweek": "0", "enabled": str(int(a.enabled)), "vibrate": "1",
                 "label": a.label, "delete_after_use": "0"} for i, a in enumerate(p.alarms)]
    for ns in ("system", "secure", "global"):
        if uri == f"content://settings/{ns}":
            return [{"_id": str(i + 1), "name": k, "value": v}
                    for i, (k, v) in enumerate(sorted(p.settings[ns].items()))]
    return None


def content(ctx: Ctx, args: list[str]) -> int:
    """``content query --uri URI [--projection a:b] [--where "col='v'"]``."""
    def opt(name: str) -> str | None:
        return args[args.index(name) + 1] if name in args[:-1] else None

    uri = opt("--uri")
    if args[:1] != ["query"] or not uri:
        ctx.err("usage: adb shell content query --uri <URI> [--projection <PROJECTION>] "
                "[--where <WHERE>]\n")
        return 1
    rows = _rows(ctx, uri)
    if rows is None:
        ctx.err(f"Error while accessing provider:{uri.split('/')[2] if '//' in uri else uri}\n"
                f"java.lang.IllegalArgumentException: Unknown URL {uri}\n")
        return 1
    where = opt("--where")
    if where:
        col, eq, val = where.partition("=")
        if not eq:
            ctx.err(f"Error while accessing provider: unsupported where clause: {where}\n")
            return 1
        rows = [r for r in rows if r.get(col.strip()) == val.strip().strip("'\"")]
    projection = opt("--projection")
    if not rows:
        ctx.out("No result found.\n")
        return 0
    for n, row in enumerate(rows):
        cols = projection.split(":") if projection else list(row)
        ctx.out(f"Row: {n} " + ", ".join(f"{c}={row.get(c, 'NULL')}" for c in cols) + "\n")
    return 0
