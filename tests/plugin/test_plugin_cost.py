"""What the plugin loads: nothing heavy for a session without artemis tests, everything once one appears."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("pytest_artemis.contracts", "pytest_artemis.spec", "pytest_artemis.plugin.settings",
         "pytest_artemis.engine", "pytest_artemis.device", "pytest_artemis.report", "pytest_artemis.store",
         "pytest_artemis.farm")

PROBE = f'''
import sys

HEAVY = {HEAVY!r}


def loaded():
    return sorted(name for name in HEAVY if name in sys.modules)


def pytest_unconfigure(config):
    # After every session hook of the plugin (the session index is written at sessionfinish).
    with open("loaded-at-exit.txt", "w") as out:
        out.write(" ".join(loaded()))
'''


def test_a_session_without_artemis_tests_loads_nothing_heavy(pytester, monkeypatch) -> None:
    for name in ("ARTEMIS_DEVICE", "ARTEMIS_MODEL"):
        monkeypatch.delenv(name, raising=False)
    pytester.makeconftest(PROBE)
    pytester.makepyfile(test_plain="from conftest import loaded\n\n"
                                   "def test_plain():\n    assert loaded() == []\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    assert (pytester.path / "loaded-at-exit.txt").read_text() == ""


def test_tests_that_only_request_the_fixture_load_no_spec_layer_at_collection(pytester) -> None:
    pytester.makeconftest(PROBE)
    pytester.makepyfile(test_fixture_only="from conftest import loaded\n\n"
                                          "def test_uses_fixture(artemis):\n    pass\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--collect-only", "-q")
    assert result.ret == 0
    assert (pytester.path / "loaded-at-exit.txt").read_text() == ""


def test_an_artemis_test_still_gets_its_markers_validated_and_its_fixtures(pytester) -> None:
    pytester.makeconftest(PROBE)
    pytester.makepyfile(test_marked='''
import pytest
from conftest import loaded


@pytest.mark.goal("Open Settings", app="not a package")
def test_bad_goal(artemis):
    pass


def test_collecting_an_artemis_test_loaded_the_spec_layer():
    assert "pytest_artemis.spec" in loaded()


def test_the_fixtures_are_registered(artemis_settings):
    assert artemis_settings.max_steps > 0
''')
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--continue-on-collection-errors")
    result.assert_outcomes(passed=2, errors=1)
    result.stdout.fnmatch_lines(["*artemis marker error*test_bad_goal*"])


def test_the_package_loads_as_plain_python_while_tests_and_conftests_are_still_rewritten(pytester) -> None:
    # Rewriting the package's ~170 modules costs every process ≈ 0.4 s of CPU when bytecode is not cached.
    pytester.makeconftest("def conftest_fails():\n    value = 1\n    assert value == 2\n")
    pytester.makepyfile(test_rewrite='''
import sys

import pytest
from _pytest.assertion.rewrite import AssertionRewritingHook

import pytest_artemis.engine
import pytest_artemis.engine.loop
import pytest_artemis.contracts
from conftest import conftest_fails


def test_the_package_is_not_rewritten():
    for name in ("pytest_artemis.engine", "pytest_artemis.contracts", "pytest_artemis.engine.loop"):
        assert name in sys.modules
        assert not isinstance(sys.modules[name].__loader__, AssertionRewritingHook), name


def test_test_modules_and_conftests_are():
    assert isinstance(sys.modules[__name__].__loader__, AssertionRewritingHook)
    with pytest.raises(AssertionError, match="assert 1 == 2"):
        conftest_fails()
    x = 3
    with pytest.raises(AssertionError, match="assert 3 == 4"):
        assert x == 4
''')
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-p", "no:xdist")
    result.assert_outcomes(passed=2)


def test_a_test_module_s_probe_checks_load_no_other_contract_nor_the_device_layer_nor_pydantic() -> None:
    # Test modules import this at collection: each module loaded here costs every collection of them.
    code = ("import sys\nfrom pytest_artemis import probes\n"
            "probes.setting('global', 'wifi_on', equals='1'); probes.alarm_set('07:30')\n"
            "print(' '.join(sorted(m for m in sys.modules if m.startswith(('pytest_artemis', 'pydantic')))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert set(out.split()) == {f"pytest_artemis{name}" for name in (
        "", ".contracts", ".contracts.errors", ".contracts.output_refs", ".contracts.probe_check", ".device",
        ".device.errors", ".predicates", ".probes", ".spec", ".spec.marker_rules")}


def test_every_ready_check_is_built_and_validated_against_the_probe_table_without_pydantic() -> None:
    # What collection does with a module's probe checks; pydantic alone would cost a collection of 200
    # probe-marked tests more than its whole budget over plain pytest (docs/performance.md §4).
    code = """
import sys
from pytest_artemis import probes
from pytest_artemis.contracts import ProbeCheck, ProbeSpec, UsageError
from pytest_artemis.device.probe_table import builtin_probes
from pytest_artemis.predicates import _PREDICATES

checks = [probes.setting("global", "wifi_on", equals=True), probes.setting("secure", "x"),
          probes.alarm_set("7:30 PM", enabled=False, clock="com.android.deskclock"),
          probes.contact_exists(name="Ada", phone="+1 555"), probes.foreground("com.android.settings"),
          probes.no_error_dialog(), probes.package_installed("com.example.app")]
assert {c.name for c in checks} == set(_PREDICATES), "a ready check is missing here"
table = builtin_probes()
for check in checks:
    probes.validate_check(check, table)
    probes.is_invariant(check)
refused = []
for bad in (probes.alarm_set("25:99"), probes.package_installed("not a package"),
            ProbeCheck(probe=ProbeSpec(kind="alarms"), name="setting_equals")):
    try:
        probes.validate_check(bad, table)
    except UsageError as exc:
        refused.append(str(exc))
print(len(refused), refused[-1])
print(sorted(m for m in sys.modules if m.startswith("pydantic") or m.endswith(("_outputs", ".judgement"))))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == [
        "3 predicate 'setting_equals' reads SettingOutput, but probe kind 'alarms' gives AlarmsOutput", "[]"]


def test_a_collect_only_session_of_probe_checks_validates_them_and_never_imports_pydantic(pytester) -> None:
    pytester.makeconftest('''
import sys


def pytest_unconfigure(config):
    # After the whole --collect-only session, the plugin's session hooks included.
    with open("loaded.txt", "w") as out:
        out.write(" ".join(sorted(m for m in sys.modules if m.startswith(("pytest_artemis", "pydantic")))))
''')
    pytester.makepyfile(test_probes='''
import pytest
from pytest_artemis import probes


@pytest.mark.goal("Turn on Wi-Fi")
@pytest.mark.verify("Wi-Fi is on", probe=probes.setting("global", "wifi_on", equals="1"))
@pytest.mark.assert_("An alarm is set", probe=probes.alarm_set("07:30"))
@pytest.mark.assert_("No crash dialog", probe=probes.no_error_dialog(), when="end")
def test_probes(artemis):
    pass
''')
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--collect-only", "-q")
    assert result.ret == 0
    loaded = set((pytester.path / "loaded.txt").read_text().split())
    assert "pytest_artemis.device.probe_table" in loaded  # built only to validate the probe checks
    assert not {m for m in loaded if m.startswith("pydantic")}
    # Neither the xdist controller's glue (xdist is installed, but nothing is distributed) nor the lookup of
    # interrupted runs (no artifacts directory) is loaded.
    assert not loaded & {"pytest_artemis.plugin.xdist", "pytest_artemis.plugin.interrupted"}
    for module in ("contracts._base", "contracts.probe_outputs", "contracts.judgement", "contracts.actions",
                   "contracts.checks", "contracts.screen", "contracts.task", "device.base", "device.parsers",
                   "spec.markers", "engine", "plugin.settings"):
        assert f"pytest_artemis.{module}" not in loaded, module

    # Checked all the same: a bad probe check is a collection error naming the test.
    pytester.makepyfile(test_bad='''
import pytest
from pytest_artemis import ProbeCheck, ProbeSpec, probes

WRONG = ProbeCheck(probe=ProbeSpec(kind="alarms"), name="setting_equals")


@pytest.mark.goal("Set an alarm")
@pytest.mark.verify("The alarm is set", probe=probes.alarm_set("25:99"))
def test_bad_alarm(artemis):
    pass


@pytest.mark.goal("Set an alarm")
@pytest.mark.verify("The alarm is set", probe=WRONG)
def test_wrong_output(artemis):
    pass
''')
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--collect-only", "-q",
                                           "--continue-on-collection-errors")
    result.stdout.fnmatch_lines_random([
        "*artemis marker error: test_bad.py::test_bad_alarm: alarm time '25:99' is out of range*",
        "*artemis marker error: test_bad.py::test_wrong_output: predicate 'setting_equals' reads "
        "SettingOutput, but probe kind 'alarms' gives AlarmsOutput*", "*1 test collected, 2 errors*"])
