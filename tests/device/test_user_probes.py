"""User-facing probe checks: construction-time validation, predicates and the judge (pure, no device)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from pytest_artemis import probes
from pytest_artemis.contracts import ProbeCheck, ProbeResult, ProbeSpec, UsageError
from pytest_artemis.device import DEFAULT_PROBES, ProbeRefused

ALARMS_RAW = """\
  Next alarm clock information:
    user:0 pendingSend:false time:1768548600000 = 2026-01-16 07:30:00.000 = +22h30m0s0ms
  Pending alarm batches: 1
    RTC_WAKEUP #0: Alarm{1a2b3c4 type 0 origWhen 1768548600000 window 0 com.google.android.deskclock}
      tag=*walarm*:com.android.deskclock.ALARM_ALERT
      type=RTC_WAKEUP origWhen=2026-01-16 07:30:00.000 window=0 repeatInterval=0 count=0 flags=0x3
"""


def result(check: ProbeCheck, raw: str, exit_code: int = 0) -> ProbeResult:
    argv = tuple(DEFAULT_PROBES.argv(check.probe))
    parsed = DEFAULT_PROBES.parse(check.probe, raw) if exit_code == 0 else None
    return ProbeResult(spec=check.probe, argv=argv, raw=raw, exit_code=exit_code, parsed=parsed)


def test_import_is_light() -> None:
    code = ("import sys, pytest_artemis.probes; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('adbutils', 'PIL', 'rapidocr')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_bad_arguments_are_refused_by_validation_not_at_construction() -> None:
    # Constructors never raise (a marker argument must not break the module's import); the plugin
    # validates each check when it collects the test.
    refused = [probes.setting("global", "wifi_on;reboot", equals=1), probes.setting("vendor", "wifi_on"),
               probes.setting("global", 5)]  # type: ignore[arg-type]
    for check in refused:
        with pytest.raises(ProbeRefused):
            probes.validate_check(check)
    for check in (probes.foreground("not a package"), probes.package_installed(""), probes.alarm_set("25:00"),
                  probes.alarm_set("7:30", enabled="yes"), probes.contact_exists(),  # type: ignore[arg-type]
                  probes.alarm_set(730)):  # type: ignore[arg-type]
        with pytest.raises(UsageError):
            probes.validate_check(check)
    with pytest.raises(UsageError, match="unknown probe predicate"):
        probes.validate_check(ProbeCheck(probe=ProbeSpec(kind="battery"), name="nope"))
    probes.validate_check(probes.alarm_set("7:30 PM"))
    assert probes.alarm_set("7:30 PM").args["time"] == "19:30"


def test_setting_check_judged_with_raw_evidence() -> None:
    check = probes.setting("global", "wifi_on", equals=True)
    assert check.args == {"equals": "1"}
    on = probes.judge(check, result(check, "1\n"))
    assert on.passed and on.conclusive
    assert "'1'" in on.evidence and "settings get global wifi_on" in on.evidence
    off = probes.judge(check, result(check, "0\n"))
    assert not off.passed and "'0'" in off.evidence
    unset = probes.setting("global", "nope")
    assert not probes.judge(unset, result(unset, "null")).passed


def test_alarm_set_from_scheduled_alarms() -> None:
    check = probes.alarm_set("7:30 AM")
    assert check.args == {"time": "07:30", "enabled": True}
    verdict = probes.judge(check, result(check, ALARMS_RAW))
    assert verdict.passed and "2026-01-16 07:30:00" in verdict.evidence
    assert not probes.judge(probes.alarm_set("19:30"), result(probes.alarm_set("19:30"), ALARMS_RAW)).passed
    disabled = probes.alarm_set("07:30", enabled=False)
    assert not probes.judge(disabled, result(disabled, ALARMS_RAW)).passed


def test_alarm_set_uses_deskclock_listing_for_disabled_alarms() -> None:
    raw = ALARMS_RAW + ('  DeskClock alarms (com.google.android.deskclock, user 0): 2\n'
                        '    Alarm{id=1 hour=7 minutes=30 enabled=true daysOfWeek=[] label=""}\n'
                        '    Alarm{id=2 hour=8 minutes=30 enabled=false daysOfWeek=[] label="Gym"}\n')
    disabled = probes.alarm_set("08:30", enabled=False)
    verdict = probes.judge(disabled, result(disabled, raw))
    assert verdict.passed and "08:30 disabled" in verdict.evidence
    enabled = probes.alarm_set("08:30")
    assert not probes.judge(enabled, result(enabled, raw)).passed


def test_contact_exists_by_name_and_phone_digits() -> None:
    raw = ("Row: 0 display_name=Ada Lovelace, data1=+1 555-0100\n"
           "Row: 1 display_name=Alan Turing, data1=+1 555-0101\n")
    by_phone = probes.contact_exists(phone="15550101")
    verdict = probes.judge(by_phone, result(by_phone, raw))
    assert verdict.passed and "Alan Turing" in verdict.evidence
    both = probes.contact_exists(name="ada lovelace", phone="+1 555 0101")
    assert not probes.judge(both, result(both, raw)).passed


def test_foreground_and_package_installed() -> None:
    fg = probes.foreground("com.android.settings")
    raw = "  topResumedActivity=ActivityRecord{8e2 u0 com.android.settings/.Settings t3}\n"
    assert probes.judge(fg, result(fg, raw)).passed
    pkg = probes.package_installed("com.google.android.deskclock")
    assert probes.judge(pkg, result(pkg, "package:android\npackage:com.google.android.deskclock\n")).passed
    assert not probes.judge(pkg, result(pkg, "package:android\n")).passed


def test_failed_probe_is_inconclusive_not_failed() -> None:
    check = probes.contact_exists(name="Ada")
    verdict = probes.judge(check, result(check, "Error while accessing provider", exit_code=1))
    assert not verdict.passed and not verdict.conclusive and "exit 1" in verdict.evidence


def test_user_predicate_registry() -> None:
    @probes.predicate("battery_at_least")
    def battery_at_least(parsed, /, *, level=0, **_):
        value = parsed["level"]
        return probes.ProbeJudgement(passed=value >= level, evidence=f"level={value}")

    check = ProbeCheck(probe=ProbeSpec(kind="battery"), name="battery_at_least", args={"level": 50})
    probes.validate_check(check)
    raw = "Current Battery Service state:\n  level: 85\n  scale: 100\n"
    verdict = probes.judge(check, result(check, raw))
    assert verdict.passed and verdict.evidence.startswith("level=85")
    with pytest.raises(UsageError, match="already registered"):
        probes.predicate("battery_at_least")(probes.get_predicate("setting_equals"))


def test_no_error_dialog_reads_the_focused_window_and_is_an_invariant() -> None:
    check = probes.no_error_dialog()
    focus = "  mCurrentFocus=Window{3f2a u0 %s}\n"
    crashed = result(check, focus % "Application Error: com.google.android.deskclock")
    healthy = result(check, focus % "com.android.settings/com.android.settings.Settings")
    bad = probes.judge(check, crashed)
    assert not bad.passed and "com.google.android.deskclock" in bad.evidence
    assert probes.judge(check, healthy).passed
    # holding before the run is expected of an invariant; a state the goal changes is not exempt
    assert probes.is_invariant(check) and not probes.is_invariant(probes.alarm_set("07:30"))


def test_facts_follow_the_checked_fact_only() -> None:
    check = probes.contact_exists(name="Ada Lovelace")
    ada = "Row: 0 display_name=Ada Lovelace, data1=+1 555 0101\n"
    more = ada + "Row: 1 display_name=Alan Turing, data1=+1 555 0199\n"
    before, after = probes.judge(check, result(check, ada)), probes.judge(check, result(check, more))
    assert before.facts == after.facts == ("ada lovelace 15550101",)
    missing = probes.judge(check, result(check, "Row: 0 display_name=Alan Turing, data1=+1 555 0199\n"))
    assert missing.facts == () and not missing.passed
    alarm = probes.alarm_set("07:30")
    assert probes.judge(alarm, result(alarm, ALARMS_RAW)).facts == ("com.google.android.deskclock 07:30",)
    fg = probes.foreground("com.android.settings")
    raw = "  topResumedActivity=ActivityRecord{8e2 u0 com.android.settings/.Settings t3}\n"
    assert probes.judge(fg, result(fg, raw)).facts == ("com.android.settings",)
    wifi = probes.setting("global", "wifi_on", equals=True)
    assert probes.judge(wifi, result(wifi, "1\n")).facts != probes.judge(wifi, result(wifi, "0\n")).facts
