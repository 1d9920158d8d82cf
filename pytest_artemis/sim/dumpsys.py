"""``dumpsys`` for the simulated phone, in the formats of Android 13-14 (what real phones print).

``dumpsys alarm`` lists each enabled DeskClock alarm as a pending ``RTC_WAKEUP`` alarm clock of
``com.google.android.deskclock`` (``Alarm clock:`` block with its show-intent), among system alarms;
``Next alarm clock information`` names the soonest. Disabled alarms are not scheduled, so, as on a
real phone, they do not appear. ``dumpsys window`` prints the last-ANR section first and the focus
per display with ``mTopFocusedDisplayId``; a crash dialog holds focus as ``Application Error: PKG``, the open
notification shade as ``NotificationShade``.
"""

from __future__ import annotations

from . import package_manager, power
from .notifications import dumpsys_notification
from .shell import Ctx
from .state import EPOCH_MS, LAUNCHER, Alarm, fmt_duration, fmt_stamp, next_alarm_ms
from .state import ident_hash as _hash

DISPLAY_ID = "4619827259835644672"
_CLOCK = "com.google.android.deskclock"
_BOOT_MS = EPOCH_MS - 3_600_000  # the phone booted an hour before the simulated epoch


def _short(pkg: str, act: str) -> str:
    return act[len(pkg):] if act.startswith(pkg + ".") else act


def _pending(n: int, type_: str, code: int, when: int, elapsed: int, now_elapsed: int, pkg: str,
             tag: str, detail: str, extra: list[str]) -> list[str]:
    """One pending alarm as ``dumpsys alarm`` prints it on Android 13-14."""
    rel = fmt_duration(elapsed - now_elapsed)
    return [f"    {type_} #{n}: Alarm{{{_hash('alarm', tag, when)} type {code} origWhen {when} "
            f"whenElapsed {elapsed} {pkg}}}",
            f"      tag={tag}",
            f"      type={type_} origWhen={detail} window=0 exactAllowReason=policy_permission "
            "repeatInterval=0 count=0 flags=0x9",
            f"      policyWhenElapsed: requester={rel} app_standby=-- device_idle=-- battery_saver=-- "
            "tare=--",
            f"      whenElapsed={rel} maxWhenElapsed={rel}", *extra]


def _clock_alarm(t: int) -> tuple[str, int, str, list[str]]:
    def intent(name: str, kind: str) -> str:
        record = f"PendingIntentRecord{{{_hash(name, 'rec', t)} {_CLOCK} {kind}}}"
        return f"PendingIntent{{{_hash(name, t)}: {record}}}"

    show, op = intent("show", "startActivity"), intent("op", "broadcastIntent")
    return ("*walarm*:com.android.deskclock.ALARM_ALERT", t, fmt_stamp(t),
            ["      Alarm clock:", f"        triggerTime={fmt_stamp(t)}", f"        showIntent={show}",
             f"      operation={op}"])


def _alarm(ctx: Ctx) -> None:
    p = ctx.phone
    now, now_elapsed = p.clock_ms, p.clock_ms - _BOOT_MS
    upcoming = sorted(next_alarm_ms(a, now) for a in p.alarms if a.enabled)
    midnight = next_alarm_ms(Alarm(0, 0, True, ""), now)
    rows: list[tuple[int, str, int, int, str, str, str, list[str]]] = [
        (now_elapsed + 720_000, "ELAPSED", 3, now_elapsed + 720_000, "android", "*alarm*:*job.delay*",
         fmt_duration(720_000), ["      listener=android.app.AlarmManager$ListenerWrapper@7270dd2"]),
        (midnight - _BOOT_MS, "RTC", 1, midnight, "android", "*alarm*:android.intent.action.DATE_CHANGED",
         fmt_stamp(midnight), []),
    ]
    for t in upcoming:
        tag, when, detail, extra = _clock_alarm(t)
        rows.append((t - _BOOT_MS, "RTC_WAKEUP", 0, when, _CLOCK, tag, detail, extra))
    out = ["Current Alarm Manager state:", "  Settings:", "    version=1 ", "    min_futurity=+5s0ms", "",
           f"  nowRTC={now}={fmt_stamp(now)} nowELAPSED={now_elapsed}",
           f"  mLastTimeChangeClockTime={EPOCH_MS}={fmt_stamp(EPOCH_MS)}", "",
           "  Next alarm clock information: "]
    if upcoming:
        t = upcoming[0]
        out.append(f"    user:0 pendingSend:false time:{t} = {fmt_stamp(t)} = {fmt_duration(t - now)}")
    out += ["  ", f"  {len(rows)} pending alarms: "]
    for n, (elapsed, type_, code, when, pkg, tag, detail, extra) in enumerate(sorted(rows), start=1):
        out += _pending(n, type_, code, when, elapsed, now_elapsed, pkg, tag, detail, extra)
    out += ["  Pending user blocked background alarms: ", "    none", "  "]
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
    lines += ["", "  Resumed activities in task display areas (from top to bottom):", f"    Resumed: {rec}",
              "", f"  ResumedActivity: {rec}", "", f"  mFocusedApp={rec}", "",
              "ActivityTaskSupervisor state:", f"  topResumedActivity={rec}"]
    ctx.out("\n".join(lines) + "\n")


def _window(ctx: Ctx) -> None:
    p = ctx.phone
    pkg, act = p.foreground()
    win = f"Window{{{_hash('win', pkg, act)} u0 {pkg}/{act}}}"
    focus = (f"Window{{{_hash('shade')} u0 NotificationShade}}" if p.shade
             else f"Window{{{_hash('err', p.dialog_pkg)} u0 Application Error: {p.dialog_pkg}}}"
             if p.dialog_pkg else win)
    tid = p.task_ids.get(pkg, 11)
    rec = f"ActivityRecord{{{_hash('rec', pkg, act)} u0 {pkg}/{_short(pkg, act)} t{tid}}}"
    rule = "-" * 79
    ctx.out("\n".join([
        "", rule, "WINDOW MANAGER LAST ANR (dumpsys window lastanr)", "  <no ANR has occurred since boot>",
        "",
        rule, "WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)",
        "  Display: mDisplayId=0 rootTasks=4",
        f"    init={p.width}x{p.height} 420dpi cur={p.width}x{p.height} app={p.width}x{p.height}", "",
        f"  mCurrentFocus={focus}", f"  mFocusedApp={rec}", "",
        rule, "WINDOW MANAGER WINDOWS (dumpsys window windows)",
        f"  Window #0 {win}:", f"    mDisplayId=0 rootTaskId={tid}",
        f"  Window #1 Window{{{_hash('sb')} u0 StatusBar}}:", "    mDisplayId=0 rootTaskId=1", "",
        "  mTopFocusedDisplayId=0", ""]) + "\n")


def _battery(ctx: Ctx, args: list[str]) -> int:
    p = ctx.phone
    ov = p.battery_overrides
    if args[:1] == ["set"] and len(args) == 3:
        if args[1] == "level" and args[2].isdigit():
            p.battery_level = max(0, min(100, int(args[2])))
        ov[args[1]] = args[2]
    elif args[:1] == ["unplug"]:
        ov.update({"ac": "0", "usb": "0"})
    elif args[:1] == ["reset"]:
        ov.clear()
    else:
        _battery_state(ctx)
        return 0
    p.changed()  # the level, the charging notification and Battery Saver's availability show on screen
    return 0


def _battery_state(ctx: Ctx) -> None:
    p, ov = ctx.phone, ctx.phone.battery_overrides
    ac = ov.get("ac", "1") != "0"
    stopped = "(UPDATES STOPPED -- use 'reset' to restart)\n" if ov else ""
    ctx.out(f"Current Battery Service state:\n{stopped}  AC powered: {str(ac).lower()}\n"
            f"  USB powered: {str(ov.get('usb', '0') != '0').lower()}\n"
            "  Wireless powered: false\n  Dock powered: false\n  Max charging current: 0\n"
            "  Max charging voltage: 0\n  Charge counter: 10000\n"
            f"  status: {ov.get('status', '2' if ac else '3')}\n  health: 2\n  present: true\n"
            f"  level: {p.battery_level}\n  scale: 100\n  voltage: 5000\n  temperature: 250\n"
            "  technology: Li-ion\n")


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


def dumpsys(ctx: Ctx, args: list[str]) -> int:
    """``dumpsys SERVICE [args]`` for alarm, activity, window, battery, display, notification, package,
    power, SurfaceFlinger."""
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
        dumpsys_notification(ctx)
    elif service == "package":
        package_manager.dumpsys_package(ctx, rest)
    elif service == "power":
        power.dumpsys_power(ctx)
    elif service == "SurfaceFlinger" and "--display-id" in rest:
        ctx.out(f'Display {DISPLAY_ID} (HWC display 0): port=0 pnpId=GGL displayName="EMU_display_0"\n')
    elif not service or service == "-l":
        ctx.out("Currently running services:\n" + "".join(
            f"  {s}\n" for s in ("SurfaceFlinger", "activity", "alarm", "battery", "display",
                                 "notification", "package", "power", "window")))
    else:
        ctx.err(f"Can't find service: {service}\n")
    return 0
