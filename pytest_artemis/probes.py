"""Ready-made deterministic checks for markers, and the built-in predicates they name.

A check is plain data (``ProbeCheck``: a probe spec, a predicate name, arguments); a predicate is a
small pure function of one probe kind's typed output, in the spirit of AndroidWorld's task checks::

    @predicate("battery_at_least", reads=BatteryOutput)
    def battery_at_least(out, /, *, level=0, **_):
        return ProbeJudgement(passed=(out.level or 0) >= level, evidence=f"level={out.level}")

The constructors below never raise: a bad argument is reported under the test's id when the plugin
collects the test (``validate_check``), so one bad marker cannot break its module's import.
Importing this module is cheap (no pydantic, no adbutils, no Pillow): test modules import it and the
plugin uses it at collection. ``ProbeJudgement`` (a pydantic model) loads when first named, and the
built-in predicates give the output model they read by its name (``reads="SettingOutput"``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from pytest_artemis.contracts import ProbeCheck, ProbeParam, ProbeSpec, UsageError
from pytest_artemis.device.errors import ProbeRefused
from pytest_artemis.predicates import (
    Predicate,
    get_predicate,
    is_invariant,
    judge,
    predicate,
    run_probe_check,
    validate_check,
)
from pytest_artemis.spec.marker_rules import PACKAGE_PATTERN

if TYPE_CHECKING:
    from pytest_artemis.contracts.judgement import ProbeJudgement
    from pytest_artemis.contracts.probe_outputs import (
        AlarmsOutput,
        ContentOutput,
        ForegroundOutput,
        PackagesOutput,
        PendingAlarm,
        SettingOutput,
        WindowFocusOutput,
    )

_HHMM = re.compile(r"(\d{1,2}):(\d{2})(?:\s*([AaPp])\.?[Mm]\.?)?")

#: Clock apps whose alarm clocks are the user's alarms (AOSP/Google, Samsung, Xiaomi/Huawei use the
#: AOSP id, OnePlus, Oppo/Realme, vivo, Honor, HTC, Sony, ASUS, LG, Transsion).
CLOCK_PACKAGES = frozenset({
    "com.google.android.deskclock", "com.android.deskclock", "com.sec.android.app.clockpackage",
    "com.oneplus.deskclock", "com.coloros.alarmclock", "com.oplus.alarmclock", "com.android.BBKClock",
    "com.hihonor.deskclock", "com.huawei.deskclock", "com.htc.android.worldclock",
    "com.sonyericsson.organizer", "com.asus.deskclock", "com.lge.clock", "com.transsion.deskclock",
})
CONTACTS_URI = "content://com.android.contacts/data/phones"


def _param(value: object) -> str:
    """A probe parameter as given; a non-string becomes a marked text the probe table refuses."""
    return value if isinstance(value, str) else f"<not a string: {value!r}>"


def _arg(value: object) -> ProbeParam:
    """A predicate argument as given (anything but str/int/bool/None kept as its repr, refused later)."""
    return value if value is None or isinstance(value, str | int | bool) else repr(value)


def _check(kind: str, params: dict[str, str], name: str, args: dict[str, ProbeParam],
           description: str) -> ProbeCheck:
    return ProbeCheck(probe=ProbeSpec(kind=kind, params=params), name=name, args=args,
                      description=description)


def normalize_hhmm(text: object) -> str:
    """``7:30``, ``07:30``, ``7:30 PM`` → ``07:30``/``19:30`` (24-hour ``HH:MM``); UsageError otherwise."""
    m = _HHMM.fullmatch(text.strip()) if isinstance(text, str) else None
    if m is None:
        raise UsageError(f"alarm time {text!r} is not HH:MM (optionally with AM/PM)")
    hour, minute, half = int(m.group(1)), int(m.group(2)), (m.group(3) or "").lower()
    if half:
        if not 1 <= hour <= 12:
            raise UsageError(f"alarm time {text!r}: hour must be 1-12 with AM/PM")
        hour = hour % 12 + (12 if half == "p" else 0)
    if hour > 23 or minute > 59:
        raise UsageError(f"alarm time {text!r} is out of range")
    return f"{hour:02d}:{minute:02d}"


# -- ready checks ------------------------------------------------------------------------------

def setting(ns: str, key: str, equals: ProbeParam = None) -> ProbeCheck:
    """The setting ``ns/key`` (``system``/``secure``/``global``) of the current user equals ``equals``
    (bools compare as ``1``/``0``); with no ``equals``, the setting merely has a value."""
    expected = None if equals is None else str(equals)
    if isinstance(equals, bool):
        expected = "1" if equals else "0"
    text = f"settings {ns}/{key} == {expected!r}" if expected is not None else f"settings {ns}/{key} is set"
    return _check("setting", {"ns": _param(ns), "key": _param(key)}, "setting_equals",
                  {"equals": expected}, text)


def alarm_set(time: str, enabled: bool = True, clock: str | None = None) -> ProbeCheck:
    """The clock app has an alarm at ``time`` (local ``HH:MM``, or ``7:30 AM``) scheduled
    (``enabled=False``: has none scheduled at that time).

    Whose alarm: only an alarm clock (``setAlarmClock``) scheduled by the clock app counts, never
    another app's (a security app's memory-clean job, a calendar reminder): ``clock`` names the clock
    app's package, by default any of ``CLOCK_PACKAGES``. Read from ``dumpsys alarm``, which lists
    scheduled alarms only: a disabled alarm is not there at all, and a stock clock app may schedule
    only its next alarm as an alarm clock.
    """
    try:
        hhmm: ProbeParam = normalize_hhmm(time)
    except UsageError:
        hhmm = _arg(time)
    text = f"the clock app has an alarm at {hhmm}" if enabled else f"no clock-app alarm is set for {hhmm}"
    args = {"time": hhmm, "enabled": _arg(enabled), "clock": _arg(clock)}
    return _check("alarms", {}, "alarm_set", args, text)


def contact_exists(name: str | None = None, phone: str | None = None) -> ProbeCheck:
    """A contact of the current user with this display name (case-insensitive) and/or phone number
    (digits compared) exists."""
    wanted = [f"name {name!r}" if name else "", f"phone {phone!r}" if phone else ""]
    params = {"uri": CONTACTS_URI, "projection": "display_name:data1"}
    return _check("content", params, "contact_exists", {"name": _arg(name), "phone": _arg(phone)},
                  f"a contact with {' and '.join(w for w in wanted if w)} exists")


def foreground(package: str) -> ProbeCheck:
    """``package`` owns the top resumed activity: the one with input focus, on the focused display
    (of a foldable: the screen in use), whichever user runs it."""
    return _check("foreground", {}, "foreground_is", {"package": _arg(package)},
                  f"{package} is in the foreground")


def no_error_dialog() -> ProbeCheck:
    """No crash ("keeps stopping") or ANR dialog has window focus on the focused display — an
    invariant, for ``when="end"``; the last ANR's frozen copy of the window state is not read."""
    return _check("window_focus", {}, "no_error_dialog", {}, "no crash or ANR dialog has focus")


def package_installed(package: str) -> ProbeCheck:
    """``package`` is installed (``pm list packages``: for the shell's user, normally user 0)."""
    return _check("packages", {}, "package_installed", {"package": _arg(package)},
                  f"{package} is installed")


# -- argument checks (run at collection) ------------------------------------------------------

def _alarm_args(args: Mapping[str, ProbeParam]) -> None:
    normalize_hhmm(args.get("time"))
    if not isinstance(args.get("enabled", True), bool):
        raise UsageError(f"alarm_set: enabled= must be True or False, got {args.get('enabled')!r}")
    clock = args.get("clock")
    if clock is not None and not (isinstance(clock, str) and re.fullmatch(PACKAGE_PATTERN, clock)):
        raise UsageError(f"alarm_set: clock= must be the clock app's package name, got {clock!r}")


def _contact_args(args: Mapping[str, ProbeParam]) -> None:
    name, phone = args.get("name"), args.get("phone")
    if not name and not phone:
        raise UsageError("contact_exists needs name= or phone=")
    for what, value in (("name", name), ("phone", phone)):
        if value is not None and not isinstance(value, str):
            raise UsageError(f"contact_exists: {what}= must be a string, got {value!r}")
    if phone and not _digits(str(phone)):
        raise UsageError(f"contact_exists: phone={phone!r} has no digits")


def _package_args(args: Mapping[str, ProbeParam]) -> None:
    package = args.get("package")
    if not isinstance(package, str) or not re.fullmatch(PACKAGE_PATTERN, package):
        raise UsageError(f"not an Android package name: {package!r}")


# -- built-in predicates -----------------------------------------------------------------------

def _judgement(*, passed: bool, evidence: str, conclusive: bool = True, facts: tuple[str, ...] = ()
               ) -> ProbeJudgement:
    from pytest_artemis.contracts.judgement import ProbeJudgement

    return ProbeJudgement(passed=passed, evidence=evidence, conclusive=conclusive, facts=facts)


@predicate("setting_equals", reads="SettingOutput")
def setting_equals(out: SettingOutput, /, *, equals: ProbeParam = None, **_: ProbeParam) -> ProbeJudgement:
    """The setting's value equals ``equals`` (or is set, when ``equals`` is None)."""
    where = f"{out.namespace}/{out.key}"
    passed = out.value is not None if equals is None else out.value == str(equals)
    wanted = "any value" if equals is None else repr(str(equals))
    evidence = f"settings get {where} -> {out.value!r} (expected {wanted})"
    return _judgement(passed=passed, evidence=evidence,
                          facts=(f"{where}={'null' if out.value is None else out.value}",))


def _user_alarms(out: AlarmsOutput, clocks: frozenset[str]) -> list[PendingAlarm]:
    return [a for a in out.alarms
            if a.alarm_clock and a.type.startswith("RTC") and a.package in clocks and a.hhmm]


def _alarm_text(alarm: PendingAlarm) -> str:
    return f"{alarm.package} {alarm.hhmm}"


@predicate("alarm_set", reads="AlarmsOutput", check_args=_alarm_args)
def alarm_is_set(out: AlarmsOutput, /, *, time: ProbeParam = None, enabled: ProbeParam = True,
                 clock: ProbeParam = None, **_: ProbeParam) -> ProbeJudgement:
    """The clock app has (or, ``enabled=False``, has not) an alarm clock scheduled at ``time``.

    Other apps' alarm clocks never count; an alarm clock at ``time`` whose owner the dump does not
    show makes the judgement inconclusive.
    """
    hhmm = normalize_hhmm(time)
    clocks = frozenset({str(clock)}) if clock else CLOCK_PACKAGES
    users = _user_alarms(out, clocks)
    at = sorted({_alarm_text(a) for a in users if a.hhmm == hhmm})
    others = sorted({f"{a.package} {a.hhmm}" for a in out.alarms if a.alarm_clock and a.hhmm == hhmm
                     and a.package not in clocks})
    unowned = [c for c in out.next_alarm_clocks if c.hhmm == hhmm and c.package is None]
    seen = ", ".join(sorted({_alarm_text(a) for a in users})) or "none"
    note = f"; other apps' alarm clocks at {hhmm} (not user alarms): {', '.join(others)}" if others else ""
    if at:
        evidence = f"clock-app alarm at {hhmm}: {', '.join(at)}{note}"
    elif unowned:
        return _judgement(passed=False, conclusive=False, evidence=f"an alarm clock at {hhmm} "
                              f"({unowned[0].time}) but the dump does not show which app set it{note}")
    elif not enabled and not out.pending_complete:
        return _judgement(passed=False, conclusive=False, evidence=f"no clock-app alarm at {hhmm} "
                              "among the alarms read, but the dump's pending-alarm list was not read "
                              "whole, so it cannot show that none is set")
    else:
        evidence = f"no clock-app alarm at {hhmm} (clock-app alarms: {seen}){note}"
    return _judgement(passed=bool(at) == bool(enabled), evidence=evidence, facts=tuple(at))


def _digits(text: str) -> str:
    return re.sub(r"\D", "", text)


def _row_phone(row: Mapping[str, str | None]) -> str:
    return next((v for c in ("data1", "number", "normalized_number", "data4", "phone")
                 if isinstance(v := row.get(c), str)), "")


@predicate("contact_exists", reads="ContentOutput", check_args=_contact_args)
def contact_row_exists(out: ContentOutput, /, *, name: ProbeParam = None, phone: ProbeParam = None,
                       **_: ProbeParam) -> ProbeJudgement:
    """A content row whose display name and/or phone number match; facts are the matching contacts."""
    matches = set()
    for row in out.rows:
        row_name, row_phone = row.get("display_name") or "", _row_phone(row)
        if name and row_name.casefold() != str(name).casefold():
            continue
        if phone and (not _digits(row_phone) or _digits(row_phone) != _digits(str(phone))):
            continue
        matches.add(f"{row_name.casefold()} {_digits(row_phone)}")
    if matches:
        return _judgement(passed=True, evidence=f"contact rows: {', '.join(sorted(matches))}",
                              facts=tuple(sorted(matches)))
    names = ", ".join(str(r.get("display_name")) for r in out.rows) or "no rows"
    return _judgement(passed=False, evidence=f"no contact matches name={name!r} phone={phone!r} "
                                                 f"(contacts: {names})")


@predicate("foreground_is", reads="ForegroundOutput", check_args=_package_args)
def foreground_is(out: ForegroundOutput, /, *, package: ProbeParam = None, **_: ProbeParam) -> ProbeJudgement:
    """The top resumed activity belongs to ``package``."""
    user = "" if out.user is None else f" (user {out.user})"
    return _judgement(passed=out.package == package,
                          evidence=f"resumed activity: {out.package}/{out.activity}{user}",
                          facts=(out.package,) if out.package else ())


@predicate("no_error_dialog", reads="WindowFocusOutput", invariant=True)
def no_error_dialog_focused(out: WindowFocusOutput, /, **_: ProbeParam) -> ProbeJudgement:
    """The focused window is not an "Application Error" / "Application Not Responding" dialog."""
    display = "" if out.display is None else f" on display {out.display}"
    evidence = (f"focused window{display} {out.window!r} is a crash/ANR dialog of {out.error_dialog}"
                if out.error_dialog else f"mCurrentFocus{display}={out.window!r}: no crash or ANR dialog")
    return _judgement(passed=out.error_dialog is None, evidence=evidence,
                          facts=(str(out.window),) if out.error_dialog else ())


@predicate("package_installed", reads="PackagesOutput", check_args=_package_args)
def has_package(out: PackagesOutput, /, *, package: ProbeParam = None, **_: ProbeParam) -> ProbeJudgement:
    """``package`` is in the installed package list."""
    installed = package in out.packages
    evidence = (f"package:{package} listed" if installed
                else f"package:{package} not among {len(out.packages)} packages")
    return _judgement(passed=installed, evidence=evidence, facts=(str(package),) if installed else ())


def __getattr__(name: str) -> object:
    # ProbeJudgement is a pydantic model: loaded when first named, not when test modules import this one.
    if name != "ProbeJudgement":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from pytest_artemis.contracts.judgement import ProbeJudgement

    globals()[name] = ProbeJudgement
    return ProbeJudgement


__all__ = [
    "CLOCK_PACKAGES",
    "CONTACTS_URI",
    "Predicate",
    "ProbeJudgement",
    "ProbeRefused",
    "alarm_set",
    "contact_exists",
    "foreground",
    "get_predicate",
    "is_invariant",
    "judge",
    "no_error_dialog",
    "normalize_hhmm",
    "package_installed",
    "predicate",
    "run_probe_check",
    "setting",
    "validate_check",
]
