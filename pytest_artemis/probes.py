"""Deterministic checks for markers: ready-made probe checks, the predicate registry and the judge.

A check is plain data (``ProbeCheck``: a probe spec, a predicate name, arguments); a predicate is a
small pure function of the probe's parsed output, in the spirit of AndroidWorld's task checks::

    @predicate("wifi_on")
    def wifi_on(parsed, **_):
        value = parsed["value"]
        return ProbeJudgement(passed=value == "1", evidence=f"wifi_on={value!r}")

Importing this module is cheap (no adbutils, no Pillow): the plugin uses it at collection.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from pydantic import JsonValue

from pytest_artemis.contracts import ProbeCheck, ProbeParam, ProbeResult, ProbeSpec, UsageError
from pytest_artemis.contracts._base import Contract
from pytest_artemis.contracts.probe_outputs import PACKAGE_PATTERN
from pytest_artemis.device.errors import ProbeRefused
from pytest_artemis.device.probes import DEFAULT_PROBES, ProbeTable

if TYPE_CHECKING:
    from pytest_artemis.device.base import Device


class ProbeJudgement(Contract):
    """A predicate's answer: passed or not, with evidence quoting the probe output.

    ``conclusive`` is False when the probe itself could not be read (non-zero exit, unparsable
    output): the caller should record the verdict as inconclusive, not failed. ``facts`` are the
    normalised values of the checked fact the judgement rests on (e.g. the matched user alarms):
    equal whenever the checked fact is the same, whatever else the output holds, so a before/after
    comparison of ``(passed, facts)`` tells whether the run changed what the check looks at.
    """

    passed: bool
    evidence: str
    conclusive: bool = True
    facts: tuple[str, ...] = ()


class Predicate(Protocol):
    """``fn(parsed, **args) -> ProbeJudgement``: pure, no I/O."""

    def __call__(self, parsed: JsonValue, /, **args: ProbeParam) -> ProbeJudgement: ...


ArgCheck = Callable[[Mapping[str, ProbeParam]], None]
"""Validates a check's arguments at collection (raises UsageError naming the bad one)."""


@dataclass(frozen=True)
class _Registered:
    fn: Predicate
    invariant: bool
    check_args: ArgCheck | None


_PREDICATES: dict[str, _Registered] = {}
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.:-]{0,63}")
_HHMM = re.compile(r"(\d{1,2}):(\d{2})(?:\s*([AaPp])\.?[Mm]\.?)?")


def predicate(name: str, *, invariant: bool = False,
              check_args: ArgCheck | None = None) -> Callable[[Predicate], Predicate]:
    """Register a predicate under ``name`` (a UsageError if the name is taken by another function).

    ``invariant=True`` marks a check of something that must hold throughout (no crash dialog, an app
    still installed) rather than a change the goal brings about: holding before the run is then
    expected, and the vacuity rule ("already true before the run proves nothing") does not apply.
    ``check_args`` validates a check's arguments when the test is collected.
    """
    if not _NAME.fullmatch(name):
        raise UsageError(f"predicate name {name!r} must match {_NAME.pattern}")

    def register(fn: Predicate) -> Predicate:
        existing = _PREDICATES.get(name)
        if existing is not None and existing.fn.__qualname__ != fn.__qualname__:
            raise UsageError(f"predicate {name!r} is already registered ({existing.fn!r})")
        _PREDICATES[name] = _Registered(fn, invariant, check_args)
        return fn

    return register


def _registered(name: str) -> _Registered:
    try:
        return _PREDICATES[name]
    except KeyError:
        known = ", ".join(sorted(_PREDICATES))
        raise UsageError(f"unknown probe predicate {name!r} (known: {known})") from None


def get_predicate(name: str) -> Predicate:
    """The registered predicate, or a UsageError naming the known ones."""
    return _registered(name).fn


def is_invariant(check: ProbeCheck) -> bool:
    """Whether ``check``'s predicate states an invariant (exempt from the vacuity rule)."""
    entry = _PREDICATES.get(check.name)
    return entry is not None and entry.invariant


def validate_check(check: ProbeCheck, table: ProbeTable | None = None) -> None:
    """Raise ProbeRefused/UsageError unless the probe is in the table, the predicate is registered and
    its arguments are valid (the plugin calls this at collection, for each test's markers)."""
    (table or DEFAULT_PROBES).validate(check.probe)
    entry = _registered(check.name)
    if entry.check_args is not None:
        entry.check_args(check.args)


def _param(value: object) -> str:
    """A probe parameter as given; a non-string becomes a marked text the probe table refuses."""
    return value if isinstance(value, str) else f"<not a string: {value!r}>"


def _arg(value: object) -> ProbeParam:
    """A predicate argument as given (anything but str/int/bool/None kept as its repr, refused later)."""
    return value if value is None or isinstance(value, str | int | bool) else repr(value)


def _check(kind: str, params: dict[str, str], name: str, args: dict[str, ProbeParam],
           description: str) -> ProbeCheck:
    """A ready check, built without validating: a bad argument must not break the test module's import,
    it is reported under the test's id when the test is collected (``validate_check``)."""
    return ProbeCheck(probe=ProbeSpec(kind=kind, params=params), name=name, args=args,
                      description=description)


# -- ready checks ------------------------------------------------------------------------------

def _setting_text(value: ProbeParam) -> str | None:
    if isinstance(value, bool):
        return "1" if value else "0"
    return None if value is None else str(value)


def setting(ns: str, key: str, equals: ProbeParam = None) -> ProbeCheck:
    """The setting ``ns/key`` equals ``equals`` (bools compare as ``1``/``0``); with no ``equals``,
    the setting merely has a value."""
    expected = _setting_text(equals)
    text = f"settings {ns}/{key} == {expected!r}" if expected is not None else f"settings {ns}/{key} is set"
    return _check("setting", {"ns": _param(ns), "key": _param(key)}, "setting_equals",
                  {"equals": expected}, text)


def normalize_hhmm(text: str) -> str:
    """``7:30``, ``07:30``, ``7:30 PM`` → ``07:30``/``19:30`` (24-hour ``HH:MM``); UsageError otherwise."""
    if not isinstance(text, str):
        raise UsageError(f"alarm time {text!r} is not a string")
    m = _HHMM.fullmatch(text.strip())
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


def alarm_set(time: str, enabled: bool = True) -> ProbeCheck:
    """An alarm at ``time`` (local ``HH:MM``, or ``7:30 AM``) exists and is enabled (or disabled).

    Read from ``dumpsys alarm``: its DeskClock listing when printed; otherwise only scheduled alarms
    are visible and ``enabled=False`` checks that no alarm is scheduled at that time.
    """
    try:
        hhmm: ProbeParam = normalize_hhmm(time)
    except UsageError:
        hhmm = _arg(time)
    text = f"an enabled alarm is set for {hhmm}" if enabled else f"the {hhmm} alarm is disabled"
    return _check("alarms", {}, "alarm_set", {"time": hhmm, "enabled": _arg(enabled)}, text)


def _alarm_args(args: Mapping[str, ProbeParam]) -> None:
    normalize_hhmm(args.get("time"))  # type: ignore[arg-type]
    if not isinstance(args.get("enabled", True), bool):
        raise UsageError(f"alarm_set: enabled= must be True or False, got {args.get('enabled')!r}")


CONTACTS_URI = "content://com.android.contacts/data/phones"


def contact_exists(name: str | None = None, phone: str | None = None) -> ProbeCheck:
    """A contact with this display name (case-insensitive) and/or phone number (digits compared) exists."""
    wanted = [f"name {name!r}" if name else "", f"phone {phone!r}" if phone else ""]
    params = {"uri": CONTACTS_URI, "projection": "display_name:data1"}
    return _check("content", params, "contact_exists", {"name": _arg(name), "phone": _arg(phone)},
                  f"a contact with {' and '.join(w for w in wanted if w)} exists")


def _contact_args(args: Mapping[str, ProbeParam]) -> None:
    name, phone = args.get("name"), args.get("phone")
    if not name and not phone:
        raise UsageError("contact_exists needs name= or phone=")
    for what, value in (("name", name), ("phone", phone)):
        if value is not None and not isinstance(value, str):
            raise UsageError(f"contact_exists: {what}= must be a string, got {value!r}")
    if phone is not None and not re.sub(r"\D", "", str(phone)):
        raise UsageError(f"contact_exists: phone={phone!r} has no digits")


def _package_args(args: Mapping[str, ProbeParam]) -> None:
    package = args.get("package")
    if not isinstance(package, str) or not re.fullmatch(PACKAGE_PATTERN, package):
        raise UsageError(f"not an Android package name: {package!r}")


def foreground(package: str) -> ProbeCheck:
    """``package`` owns the top resumed activity."""
    return _check("foreground", {}, "foreground_is", {"package": _arg(package)},
                  f"{package} is in the foreground")


def no_error_dialog() -> ProbeCheck:
    """No crash ("keeps stopping") or ANR dialog has window focus — an invariant, for ``when="end"``."""
    return _check("window_focus", {}, "no_error_dialog", {}, "no crash or ANR dialog has focus")


def package_installed(package: str) -> ProbeCheck:
    """``package`` is installed."""
    return _check("packages", {}, "package_installed", {"package": _arg(package)},
                  f"{package} is installed")


# -- built-in predicates -----------------------------------------------------------------------

def _dict(parsed: JsonValue) -> Mapping[str, JsonValue]:
    return parsed if isinstance(parsed, dict) else {}


def _rows(parsed: JsonValue, key: str) -> list[dict[str, JsonValue]]:
    items = _dict(parsed).get(key)
    return [i for i in items if isinstance(i, dict)] if isinstance(items, list) else []


@predicate("setting_equals")
def setting_equals(parsed: JsonValue, /, *, equals: ProbeParam = None, **_: ProbeParam) -> ProbeJudgement:
    """The parsed setting value equals ``equals`` (or is set, when ``equals`` is None)."""
    data = _dict(parsed)
    value, where = data.get("value"), f"{data.get('namespace')}/{data.get('key')}"
    passed = value is not None if equals is None else value == str(equals)
    wanted = "any value" if equals is None else repr(str(equals))
    return ProbeJudgement(passed=passed, evidence=f"settings get {where} -> {value!r} (expected {wanted})",
                          facts=(f"{where}={'null' if value is None else value}",))


def _scheduled(parsed: JsonValue) -> dict[str, tuple[str, str]]:
    """``HH:MM`` → (the owner and time as a fact, the evidence), over alarm-clock alarms."""
    found: dict[str, tuple[str, str]] = {}
    for alarm in _rows(parsed, "alarms"):
        tag = str(alarm.get("tag") or "")
        if alarm.get("hhmm") and (alarm.get("alarm_clock") or "ALARM_ALERT" in tag or "deskclock" in tag):
            found.setdefault(str(alarm["hhmm"]), (f"{alarm.get('package')} {alarm['hhmm']}",
                                                  f"{alarm.get('type')} {alarm.get('package')} {tag} "
                                                  f"at {alarm.get('time')}"))
    for clock in _rows(parsed, "next_alarm_clocks"):
        found.setdefault(str(clock.get("hhmm")), (f"alarm clock {clock.get('hhmm')}",
                                                  f"Next alarm clock: {clock.get('time')}"))
    return found


def _deskclock_evidence(alarm: Mapping[str, JsonValue]) -> str:
    state = "enabled" if alarm.get("enabled") else "disabled"
    return f"DeskClock alarm id={alarm.get('id')} {alarm.get('hhmm')} {state} label={alarm.get('label')!r}"


@predicate("alarm_set", check_args=_alarm_args)
def alarm_is_set(parsed: JsonValue, /, *, time: ProbeParam = None, enabled: ProbeParam = True,
                 **_: ProbeParam) -> ProbeJudgement:
    """An alarm at ``time`` exists with the wanted ``enabled`` state.

    When the dump lists every DeskClock alarm (``deskclock``), that list decides; otherwise only
    scheduled (enabled) alarms are visible, so ``enabled=False`` means "none scheduled at time".
    """
    hhmm = normalize_hhmm(str(time))
    listed = _dict(parsed).get("deskclock")
    if isinstance(listed, list):
        at = [a for a in listed if isinstance(a, dict) and a.get("hhmm") == hhmm]
        facts = tuple(sorted(f"DeskClock {hhmm} {'enabled' if a.get('enabled') else 'disabled'}" for a in at))
        match = [a for a in at if bool(a.get("enabled")) == bool(enabled)]
        if match:
            return ProbeJudgement(passed=True, evidence=_deskclock_evidence(match[0]), facts=facts)
        seen = "; ".join(_deskclock_evidence(a) for a in listed if isinstance(a, dict)) or "no alarms"
        return ProbeJudgement(passed=False, evidence=f"no {'enabled' if enabled else 'disabled'} alarm "
                                                     f"at {hhmm}; DeskClock lists: {seen}", facts=facts)
    scheduled = _scheduled(parsed)
    if hhmm in scheduled:
        fact, seen_as = scheduled[hhmm]
        return ProbeJudgement(passed=bool(enabled), evidence=f"alarm at {hhmm} is scheduled: {seen_as}",
                              facts=(fact,))
    listing = ", ".join(sorted(scheduled)) or "none"
    return ProbeJudgement(passed=not enabled, evidence=f"no alarm scheduled at {hhmm} (scheduled: {listing})")


def _digits(text: str) -> str:
    return re.sub(r"\D", "", text)


def _row_phone(row: Mapping[str, JsonValue]) -> str:
    for col in ("data1", "number", "normalized_number", "data4", "phone"):
        if isinstance(row.get(col), str):
            return str(row[col])
    return ""


def _matching_contacts(parsed: JsonValue, name: ProbeParam, phone: ProbeParam) -> set[str]:
    found = set()
    for row in _rows(parsed, "rows"):
        row_name, row_phone = str(row.get("display_name") or ""), _row_phone(row)
        if name and row_name.casefold() != str(name).casefold():
            continue
        if phone and (not _digits(row_phone) or _digits(row_phone) != _digits(str(phone))):
            continue
        found.add(f"{row_name.casefold()} {_digits(row_phone)}")
    return found


@predicate("contact_exists", check_args=_contact_args)
def contact_row_exists(parsed: JsonValue, /, *, name: ProbeParam = None, phone: ProbeParam = None,
                       **_: ProbeParam) -> ProbeJudgement:
    """A content row whose display name and/or phone number match."""
    for row in _rows(parsed, "rows"):
        row_name = str(row.get("display_name") or "")
        row_phone = _row_phone(row)
        if name and row_name.casefold() != str(name).casefold():
            continue
        if phone and (not _digits(row_phone) or _digits(row_phone) != _digits(str(phone))):
            continue
        return ProbeJudgement(passed=True,
                              evidence=f"contact row: display_name={row_name}, number={row_phone}",
                              facts=tuple(sorted(_matching_contacts(parsed, name, phone))))
    names = ", ".join(str(r.get("display_name")) for r in _rows(parsed, "rows")) or "no rows"
    return ProbeJudgement(passed=False, evidence=f"no contact matches name={name!r} phone={phone!r} "
                                                 f"(contacts: {names})")


@predicate("foreground_is", check_args=_package_args)
def foreground_is(parsed: JsonValue, /, *, package: ProbeParam = None, **_: ProbeParam) -> ProbeJudgement:
    """The resumed activity belongs to ``package``."""
    data = _dict(parsed)
    return ProbeJudgement(passed=data.get("package") == package,
                          evidence=f"resumed activity: {data.get('package')}/{data.get('activity')}",
                          facts=(str(data.get("package")),))


@predicate("no_error_dialog", invariant=True)
def no_error_dialog_focused(parsed: JsonValue, /, **_: ProbeParam) -> ProbeJudgement:
    """No focused window is an "Application Error" / "Application Not Responding" dialog."""
    data = _dict(parsed)
    dialog = data.get("error_dialog")
    evidence = (f"focused window {data.get('window')!r} is a crash/ANR dialog of {dialog}" if dialog
                else f"mCurrentFocus={data.get('window')!r}: no crash or ANR dialog")
    return ProbeJudgement(passed=dialog is None, evidence=evidence,
                          facts=(str(data.get("window")),) if dialog else ())


@predicate("package_installed", check_args=_package_args)
def has_package(parsed: JsonValue, /, *, package: ProbeParam = None, **_: ProbeParam) -> ProbeJudgement:
    """``package`` is in the installed package list."""
    packages = _dict(parsed).get("packages")
    installed = isinstance(packages, list) and package in packages
    count = len(packages) if isinstance(packages, list) else 0
    evidence = f"package:{package} listed" if installed else f"package:{package} not among {count} packages"
    return ProbeJudgement(passed=installed, evidence=evidence, facts=(str(package),) if installed else ())


# -- judging -----------------------------------------------------------------------------------

def _excerpt(raw: str, args: Mapping[str, ProbeParam], limit: int = 400) -> str:
    """The raw output lines that mention an argument value (the whole output when it is short)."""
    if len(raw) <= limit:
        return raw.strip()
    needles = [str(v) for v in args.values() if isinstance(v, str) and v]
    lines = [ln.strip() for ln in raw.splitlines() if any(n in ln for n in needles)]
    return " | ".join(lines[:5])[:limit] if lines else raw[:limit].strip() + " …"


def judge(check: ProbeCheck, result: ProbeResult) -> ProbeJudgement:
    """Apply the check's predicate to a probe result; the evidence ends with the raw output quoted."""
    fn = get_predicate(check.name)
    command = " ".join(result.argv)
    if result.exit_code != 0 or result.parsed is None:
        return ProbeJudgement(passed=False, conclusive=False,
                              evidence=f"probe `{command}` failed (exit {result.exit_code}): "
                                       f"{result.raw.strip()[:400]}")
    verdict = fn(result.parsed, **check.args)
    quoted = _excerpt(result.raw, check.args)
    evidence = f"{verdict.evidence}; `{command}`: {quoted}" if quoted else f"{verdict.evidence}; `{command}`"
    return verdict.model_copy(update={"evidence": evidence})


def run_probe_check(device: Device, check: ProbeCheck) -> tuple[ProbeResult, ProbeJudgement]:
    """Run the check's probe on ``device`` and judge it (device errors propagate)."""
    result = device.probe_spec(check.probe)
    return result, judge(check, result)


__all__ = [
    "CONTACTS_URI",
    "Predicate",
    "ProbeJudgement",
    "ProbeRefused",
    "alarm_set",
    "contact_exists",
    "foreground",
    "get_predicate",
    "judge",
    "normalize_hhmm",
    "package_installed",
    "predicate",
    "run_probe_check",
    "setting",
    "validate_check",
]
