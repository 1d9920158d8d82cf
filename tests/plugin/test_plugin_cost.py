"""What the plugin loads: nothing heavy for a session without artemis tests, everything once one appears."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("pytest_artemis.contracts", "pytest_artemis.spec", "pytest_artemis.plugin.settings",
         "pytest_artemis.engine", "pytest_artemis.device", "pytest_artemis.report", "pytest_artemis.store")

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


def test_a_test_module_s_probe_checks_load_no_other_contract_nor_the_device_layer() -> None:
    # Test modules import this at collection: each module loaded here costs every collection of them.
    code = ("import sys\nfrom pytest_artemis import probes\n"
            "probes.setting('global', 'wifi_on', equals='1'); probes.alarm_set('07:30')\n"
            "print(' '.join(sorted(m for m in sys.modules if m.startswith('pytest_artemis'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert set(out.split()) == {f"pytest_artemis{name}" for name in (
        "", ".contracts", ".contracts._base", ".contracts.errors", ".contracts.probe_check",
        ".contracts.probe_outputs", ".device", ".device.errors", ".predicates", ".probes")}


def test_collecting_probe_checks_validates_them_and_loads_no_other_contract(pytester) -> None:
    pytester.makeconftest('''
import sys


def pytest_collection_finish(session):
    with open("loaded.txt", "w") as out:
        out.write(" ".join(sorted(m for m in sys.modules if m.startswith("pytest_artemis"))))
''')
    pytester.makepyfile(test_probes='''
import pytest
from pytest_artemis import probes


@pytest.mark.goal("Turn on Wi-Fi")
@pytest.mark.verify("Wi-Fi is on", probe=probes.setting("global", "wifi_on", equals="1"))
@pytest.mark.assert_("An alarm is set", probe=probes.alarm_set("07:30"))
def test_probes(artemis):
    pass
''')
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--collect-only", "-q")
    assert result.ret == 0
    # The probe table is built only to validate probe checks (a bad one is a collection error: test_markers).
    loaded = set((pytester.path / "loaded.txt").read_text().split())
    assert "pytest_artemis.device.probe_table" in loaded
    for module in ("contracts.actions", "contracts.checks", "contracts.screen", "contracts.task",
                   "device.base", "device.parsers", "spec.markers", "engine", "plugin.settings"):
        assert f"pytest_artemis.{module}" not in loaded, module
