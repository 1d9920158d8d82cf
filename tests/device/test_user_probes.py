"""User-facing probe checks: construction-time validation, predicates and the judge (pure, no device)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from pytest_artemis import probes
from pytest_artemis.contracts import ProbeCheck, ProbeResult, ProbeSpec, UsageError
from pytest_artemis.contracts.probe_outputs import BatteryOutput, SettingOutput, Unreadable
from pytest_artemis.device import ProbeKind, ProbeRefused, builtin_probes

TABLE = builtin_probes()

ALARMS_RAW = """\
  Next alarm clock information:
    user:0 pendingSend:false time:1768548600000 = 2026-01-16 07:30:00.000 = +22h30m0s0ms
  2 pending alarms:
    RTC_WAKEUP #1: Alarm{1a2b3c4 type 0 origWhen 1768548600000 whenElapsed 9 com.google.android.deskclock}
      tag=*walarm*:com.android.deskclock.ALARM_ALERT
      type=RTC_WAKEUP origWhen=2026-01-16 07:30:00.000 window=0 repeatInterval=0 count=0 flags=0x3
      Alarm clock:
        triggerTime=2026-01-16 07:30:00.000
        showIntent=PendingIntent{5: PendingIntentRecord{6 com.google.android.deskclock startActivity}}
    RTC_WAKEUP #2: Alarm{2b3c4d5 type 0 origWhen 1768555800000 whenElapsed 9 com.example.reminders}
      tag=*walarm*:com.example.reminders.REMIND
      type=RTC_WAKEUP origWhen=2026-01-16 09:30:00.000 window=0 repeatInterval=0 count=0 flags=0x3
      Alarm clock:
        triggerTime=2026-01-16 09:30:00.000
        showIntent=PendingIntent{7: PendingIntentRecord{8 com.example.reminders startActivity}}
"""


def result(check: ProbeCheck, raw: str, exit_code: int = 0) -> ProbeResult:
    argv = tuple(TABLE.argv(check.probe))
    parsed = TABLE.parse(check.probe, raw) if exit_code == 0 else Unreadable(reason=f"exit {exit_code}")
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


def test_alarm_set_counts_the_clock_apps_alarm_clocks_only() -> None:
    check = probes.alarm_set("7:30 AM")
    assert check.args == {"time": "07:30", "enabled": True, "clock": None}
    verdict = probes.judge(check, result(check, ALARMS_RAW))
    assert verdict.passed and "com.google.android.deskclock 07:30" in verdict.evidence
    assert not probes.judge(probes.alarm_set("19:30"), result(probes.alarm_set("19:30"), ALARMS_RAW)).passed
    disabled = probes.alarm_set("07:30", enabled=False)
    assert not probes.judge(disabled, result(disabled, ALARMS_RAW)).passed
    # Another app's alarm clock is not the user's alarm, unless that app is named as the clock.
    other = probes.alarm_set("09:30")
    verdict = probes.judge(other, result(other, ALARMS_RAW))
    assert not verdict.passed and "not user alarms" in verdict.evidence
    named = probes.alarm_set("09:30", clock="com.example.reminders")
    assert probes.judge(named, result(named, ALARMS_RAW)).passed


def test_alarm_clock_of_unknown_owner_is_inconclusive() -> None:
    raw = ALARMS_RAW.split("  2 pending alarms:")[0].replace("1768548600000 = 2026-01-16 07:30",
                                                             "1768548600001 = 2026-01-16 07:30")
    for check in (probes.alarm_set("07:30"), probes.alarm_set("07:30", enabled=False)):
        verdict = probes.judge(check, result(check, raw))
        assert not verdict.passed and not verdict.conclusive and "which app" in verdict.evidence


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


def test_failed_or_unreadable_probe_is_inconclusive_not_failed() -> None:
    check = probes.contact_exists(name="Ada")
    verdict = probes.judge(check, result(check, "Error while accessing provider", exit_code=1))
    assert not verdict.passed and not verdict.conclusive and "exit 1" in verdict.evidence
    # `content query` exits 0 on a provider error: still inconclusive, never a conclusive "no contact".
    error = "Error while accessing provider:com.android.contacts\njava.lang.SecurityException: denied\n"
    verdict = probes.judge(check, result(check, error))
    assert not verdict.passed and not verdict.conclusive
    assert "Error while accessing provider" in verdict.evidence
    dialog = probes.no_error_dialog()
    verdict = probes.judge(dialog, result(dialog, "Can't find service: window\n"))
    assert not verdict.passed and not verdict.conclusive


def test_user_predicate_registry() -> None:
    @probes.predicate("battery_at_least", reads=BatteryOutput)
    def battery_at_least(out: BatteryOutput, /, *, level=0, **_):
        return probes.ProbeJudgement(passed=(out.level or 0) >= level, evidence=f"level={out.level}")

    check = ProbeCheck(probe=ProbeSpec(kind="battery"), name="battery_at_least", args={"level": 50})
    probes.validate_check(check)
    raw = "Current Battery Service state:\n  level: 85\n  scale: 100\n"
    verdict = probes.judge(check, result(check, raw))
    assert verdict.passed and verdict.evidence.startswith("level=85")
    with pytest.raises(UsageError, match="already registered"):
        probes.predicate("battery_at_least", reads=BatteryOutput)(probes.get_predicate("setting_equals"))
    # A predicate never sees another kind's output: reading battery from `settings get` is refused.
    with pytest.raises(UsageError, match="reads BatteryOutput, but probe kind 'setting' gives SettingOutput"):
        probes.validate_check(ProbeCheck(probe=ProbeSpec(kind="setting", params={"ns": "global", "key": "x"}),
                                         name="battery_at_least"))


def test_a_predicate_reads_a_model_or_a_built_in_one_s_name_and_a_subclass_of_it_too() -> None:
    class WifiSetting(SettingOutput):
        wifi: bool = False

    table = builtin_probes()
    table.register(ProbeKind("wifi", ("settings", "get", "global", "wifi_on"), output=WifiSetting))

    @probes.predicate("wifi_named", reads="SettingOutput")
    def wifi_named(out: SettingOutput, /, **_):
        return probes.ProbeJudgement(passed=out.value == "1", evidence=f"value={out.value}")

    @probes.predicate("wifi_model", reads=SettingOutput)
    def wifi_model(out: SettingOutput, /, **_):
        return probes.ProbeJudgement(passed=out.value == "1", evidence=f"value={out.value}")

    setting = ProbeSpec(kind="setting", params={"ns": "global", "key": "wifi_on"})
    for name in ("wifi_named", "wifi_model"):
        for probe in (ProbeSpec(kind="wifi"), setting):
            probes.validate_check(ProbeCheck(probe=probe, name=name), table)
        with pytest.raises(UsageError, match=f"{name!r} reads SettingOutput, but probe kind 'battery' gives "
                                             "BatteryOutput"):
            probes.validate_check(ProbeCheck(probe=ProbeSpec(kind="battery"), name=name), table)
    check = ProbeCheck(probe=setting, name="wifi_named")
    assert probes.judge(check, result(check, "1\n")).passed
    with pytest.raises(UsageError, match="reads= must be a probe output model or a built-in one's name"):
        probes.predicate("wifi_unknown", reads="WifiOutput")


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
