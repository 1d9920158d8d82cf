"""Marker validation at collection: each mistake is a collection error naming the test's node id."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from plugin_helpers import run_junit

from pytest_artemis import probes
from pytest_artemis.contracts import UsageError
from pytest_artemis.spec import MarkerError, assert_, spec_from_marks, verify

CASES = {
    "checks_without_goal": ('@pytest.mark.verify("PASS: x")', "without a goal marker"),
    "two_goals": ('@pytest.mark.goal("a")\n@pytest.mark.goal("b")', "2 goal markers ('a', 'b')"),
    "empty_goal": ('@pytest.mark.goal("  ")', "goal needs a non-empty text"),
    "empty_check": ('@pytest.mark.goal("g")\n@pytest.mark.assert_("")', "assert_ needs a non-empty text"),
    "unknown_when": ('@pytest.mark.goal("g")\n@pytest.mark.verify("x", when="later")',
                     "when='later' is not one of complete, end"),
    "subgoal_not_str": ('@pytest.mark.goal("g")\n@pytest.mark.verify("x", subgoal=3)',
                        "subgoal= must be a non-empty string, got 3"),
    "probe_refused": ('@pytest.mark.goal("g")\n@pytest.mark.verify("x", probe=REFUSED)',
                      "parameter ns='system;reboot'"),
    "probe_unknown_kind": ('@pytest.mark.goal("g")\n@pytest.mark.verify("x", probe=UNKNOWN)',
                           "unknown probe kind 'battery_set'"),
    "probe_not_a_check": ('@pytest.mark.goal("g")\n@pytest.mark.verify("x", probe="dumpsys battery")',
                          "probe= must be a probe check"),
    "unknown_argument": ('@pytest.mark.goal("g", timeout=3)', "unexpected keyword argument 'timeout'"),
    "duplicate_check": ('@pytest.mark.goal("g")\n@pytest.mark.verify("x")\n@pytest.mark.verify("x")',
                        "declared twice"),
    "ready_check_bad_key": ('@pytest.mark.goal("g")\n@pytest.mark.verify("x", probe=probes.setting("global", '
                            '"x; reboot"))', "parameter key='x; reboot' contains whitespace"),
    "ready_check_bad_time": ('@pytest.mark.goal("g")\n'
                             '@pytest.mark.verify("x", probe=probes.alarm_set("25:00"))',
                             "alarm time '25:00' is out of range"),
    "ready_check_bad_package": ('@pytest.mark.goal("g")\n@pytest.mark.verify("x", '
                                'probe=probes.foreground("not a package"))',
                                "not an Android package name"),
    "ready_check_no_contact": ('@pytest.mark.goal("g")\n'
                               '@pytest.mark.verify("x", probe=probes.contact_exists())',
                               "contact_exists needs name= or phone="),
    "goal_bad_app": ('@pytest.mark.goal("g", app="Clock app")', "app= must be an Android package name"),
}

HEADER = '''
import pytest
from pytest_artemis import probes
from pytest_artemis.contracts import ProbeCheck, ProbeSpec

REFUSED = ProbeCheck(probe=ProbeSpec(kind="setting", params={"ns": "system;reboot", "key": "k"}),
                     name="setting_equals")
UNKNOWN = ProbeCheck(probe=ProbeSpec(kind="battery_set", params={}), name="setting_equals")
'''


def test_each_marker_mistake_is_a_collection_error_naming_the_node_id(suite):
    body = [HEADER]
    for name, (marks, _) in CASES.items():
        body.append(f"{marks}\ndef test_{name}(artemis):\n    raise AssertionError('never runs')\n")
    body.append("@pytest.mark.goal('g')\ndef test_no_fixture():\n    raise AssertionError('never runs')\n")
    body.append("@pytest.mark.goal('fine')\ndef test_valid(artemis):\n    pass\n")
    suite.makepyfile(test_bad="\n".join(body))
    # The device option points nowhere: a run (or a lease) would fail differently than collection does.
    result, cases = run_junit(suite, "--artemis-device=emulator-0000", "--artemis-adb-server=127.0.0.1:1")
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.fnmatch_lines([f"*Interrupted: {len(CASES) + 1} errors during collection*"])
    # The module imports: its valid test is still collected, and no traceback points into the plugin.
    assert "Traceback" not in result.stdout.str() and "pytest_artemis/" not in result.stdout.str()
    suite.runpytest("--collect-only", "-q").stdout.fnmatch_lines(["test_bad.py::test_valid"])
    result.stdout.fnmatch_lines(
        ["*test_bad.py::test_no_fixture: a goal marker, but the test does not request the `artemis` fixture*"]
    )
    for name, (_, message) in CASES.items():
        result.stdout.fnmatch_lines([f"artemis marker error: test_bad.py::test_{name}: *"])
        assert message in result.stdout.str(), name
        result.stdout.fnmatch_lines([f"ERROR test_bad.py::test_{name}*"])
    assert "never runs" not in result.stdout.str()
    # JUnit holds one collection error per bad test (CI sees which).
    assert {n for n, c in cases.items() if c.result == "error"} >= {f"test_{n}" for n in CASES}


def test_valid_markers_and_strict_markers_are_clean(suite):
    suite.makepyfile(test_ok='''
        import pytest
        from pytest_artemis import probes

        pytestmark = pytest.mark.goal("Create an alarm for 7:30 AM")

        @pytest.mark.verify("The alarm list shows 7:30 AM", probe=probes.alarm_set("07:30"))
        @pytest.mark.assert_("A confirmation toast appears", subgoal="Save the alarm")
        @pytest.mark.assert_("No crash dialog", when="end")
        def test_alarm(artemis):
            pass
    ''')
    # Every pytest warning is an error here, except the assertion-rewrite notice an in-process run
    # gives for a plugin the test process has already imported.
    result = suite.runpytest("--strict-markers", "--collect-only", "-q", "-W", "error::pytest.PytestWarning",
                             "-W", "default::pytest.PytestAssertRewriteWarning")
    assert result.ret == 0
    result.stdout.fnmatch_lines(["test_ok.py::test_alarm"])
    assert "PytestUnknownMarkWarning" not in result.stdout.str()


def test_spec_built_in_declaration_order(suite):
    suite.makepyfile(test_order='''
        import pytest
        from pytest_artemis.plugin.collection import item_spec

        pytestmark = pytest.mark.verify("Bluetooth is on (module level)")

        @pytest.mark.goal("Turn on Bluetooth", max_steps=7)
        @pytest.mark.verify("Bluetooth is on (first)")
        @pytest.mark.assert_("Bluetooth is on (second)", when="end")
        def test_it(request, artemis):
            spec = item_spec(request.node)
            assert [c.text for c in spec.checks] == [
                "Bluetooth is on (module level)", "Bluetooth is on (first)", "Bluetooth is on (second)"]
            assert spec.app is None and spec.max_steps == 7
            assert spec.test_id == request.node.nodeid
            assert spec.checks[2].kind == "assert" and spec.checks[2].when == "end"
            assert artemis.outcome.task.status == "completed"
    ''')
    suite.runpytest("-p", "no:cacheprovider", "--artemis-device=sim").assert_outcomes(passed=1)


def test_plugin_probe_kinds_extend_the_table(suite):
    suite.makeconftest(suite.path.joinpath("conftest.py").read_text() + '''
from pytest_artemis.contracts.probe_outputs import TextOutput
from pytest_artemis.device.probe_table import ProbeKind
from pytest_artemis.probes import ProbeJudgement, predicate

@predicate("uptime_known", reads=TextOutput)
def uptime_known(out, /, **_):
    return ProbeJudgement(passed=bool(out.text), evidence=out.text)

def pytest_artemis_probe_specs(config):
    return [ProbeKind("uptime", ("cat", "/proc/uptime"), description="seconds since boot")]
''')
    suite.makepyfile(test_probe='''
        import pytest
        from pytest_artemis.contracts import ProbeCheck, ProbeSpec

        UPTIME = ProbeCheck(probe=ProbeSpec(kind="uptime"), name="uptime_known")
        WRONG = ProbeCheck(probe=ProbeSpec(kind="uptime"), name="setting_equals")

        @pytest.mark.goal("g")
        @pytest.mark.verify("uptime known", probe=UPTIME)
        def test_uptime(artemis):
            pass

        @pytest.mark.goal("g")
        @pytest.mark.verify("uptime is a setting", probe=WRONG)
        def test_wrong_kind(artemis):
            pass
    ''')
    result = suite.runpytest("-p", "no:cacheprovider", "--collect-only", "-q")
    result.stdout.fnmatch_lines([
        "test_probe.py::test_uptime",
        "*test_probe.py::test_wrong_kind: predicate 'setting_equals' reads SettingOutput, "
        "but probe kind 'uptime' gives TextOutput*"])


def test_no_litellm_import_during_collection(suite):
    suite.makeconftest(suite.path.joinpath("conftest.py").read_text() + '''
import sys

def pytest_collection_finish(session):
    print("LITELLM_LOADED=%s" % ("litellm" in sys.modules))
''')
    suite.makepyfile(test_c='''
        import pytest

        @pytest.mark.goal("g")
        @pytest.mark.verify("x")
        def test_it(artemis):
            pass
    ''')
    result = suite.runpytest_subprocess("--collect-only", "-s", "--artemis-model=openai/gpt-4o")
    result.stdout.fnmatch_lines(["LITELLM_LOADED=False"])


def test_spec_from_marks_directly():
    marks = [pytest.mark.goal("Open settings", app="com.android.settings").mark,
             pytest.mark.verify("Wi-Fi is on", probe=probes.setting("global", "wifi_on", equals=1)).mark,
             pytest.mark.assert_("No crash", when="end").mark]
    spec = spec_from_marks("t.py::test_x", marks)
    assert (spec.goal, spec.app, spec.test_id) == ("Open settings", "com.android.settings", "t.py::test_x")
    assert [(c.kind, c.when, c.probe is not None) for c in spec.checks] == [
        ("verify", "complete", True), ("assert", "end", False)]
    assert spec_from_marks("t.py::test_y", []) is None
    with pytest.raises(MarkerError, match=r"^t.py::test_z: goal: max_steps= must be a positive int"):
        spec_from_marks("t.py::test_z", [pytest.mark.goal("g", max_steps=0).mark])


def test_checks_for_artemis_run_use_the_same_rules():
    assert verify("shown", when="end").when == "end"
    with pytest.raises(UsageError, match="when='soon'"):
        assert_("x", when="soon")


def test_plugin_probe_kind_runs_from_the_test_body_on_the_device(suite):
    suite.makeconftest(suite.path.joinpath("conftest.py").read_text() + '''
from pytest_artemis.contracts.probe_outputs import TextOutput
from pytest_artemis.device.probe_table import ProbeKind
from pytest_artemis.probes import ProbeJudgement, predicate

@predicate("sdk_is", reads=TextOutput, invariant=True)
def sdk_is(out, /, *, level=None, **_):
    return ProbeJudgement(passed=out.text == level, evidence=f"sdk {out.text}", facts=(out.text,))

def pytest_artemis_probe_specs(config):
    return [ProbeKind("sdk", ("getprop", "ro.build.version.sdk"), description="the SDK level")]
''')
    suite.makepyfile(test_body='''
        from pytest_artemis.contracts import ProbeCheck, ProbeSpec
        from pytest_artemis.spec import verify

        SDK = ProbeCheck(probe=ProbeSpec(kind="sdk"), name="sdk_is", args={"level": "34"})

        def test_plugin_kind(artemis):
            result = artemis.run("Turn on Bluetooth", checks=[verify("The SDK is 34", probe=SDK)])
            checks = [(v.source, v.status) for v in artemis.verdicts if v.kind != "goal"]
            assert checks == [("probe", "passed")], result.word

        def test_unknown_kind(artemis):
            probe = ProbeCheck(probe=ProbeSpec(kind="nope"), name="sdk_is")
            artemis.run("Turn on Bluetooth", checks=[verify("x", probe=probe)])
    ''')
    result, cases = run_junit(suite, "--artemis-device=sim")
    assert cases["test_plugin_kind"].result is None, cases["test_plugin_kind"].text
    assert cases["test_unknown_kind"].result == "failure"
    assert "artemis.run(): unknown probe kind 'nope'" in cases["test_unknown_kind"].message


TYPOS = '''
import pytest


@pytest.mark.goal("Turn on Bluetooth")
@pytest.mark.verfy("FAIL: the thing is done")
def test_verfy(artemis):
    pass


@pytest.mark.goals("Turn on Bluetooth")
def test_goals(artemis):
    pass


@pytest.mark.goal("Turn on Bluetooth")
@pytest.mark.asert("FAIL: a toast appears")
def test_asert(artemis):
    pass


@pytest.mark.goal("Turn on Bluetooth")
@pytest.mark.artemis_(max_steps=3)
def test_artemis_(artemis):
    pass


@pytest.mark.Verify("FAIL: the thing is done")
class TestInAClass:
    @pytest.mark.goal("Turn on Bluetooth")
    def test_class_marker(self, artemis):
        pass


@pytest.mark.goal("Turn on Bluetooth")
@pytest.mark.assets("a marker of the user's own, registered")
@pytest.mark.smoke
def test_own_markers(artemis):
    pass


@pytest.mark.verfy("not an artemis test: pytest's warning is all it gets")
def test_plain():
    pass
'''

MEANT = {"test_verfy": ("verfy", "verify"), "test_goals": ("goals", "goal"),
         "test_asert": ("asert", "assert_"), "test_artemis_": ("artemis_", "artemis"),
         "TestInAClass::test_class_marker": ("Verify", "verify")}


@pytest.mark.parametrize("strict", [False, True], ids=["plain", "strict-markers"])
def test_a_misspelt_marker_on_an_artemis_test_is_a_collection_error(suite, strict):
    suite.makeini("[pytest]\nmarkers =\n    assets: the user's own marker\n    smoke: quick tests\n")
    suite.makepyfile(test_typos=TYPOS)
    args = ["--artemis-device=sim", "-rfE", "--junitxml=junit.xml"] + (["--strict-markers"] if strict else [])
    result = suite.runpytest("-p", "no:cacheprovider", *args)
    out = result.stdout.str()
    assert result.ret == pytest.ExitCode.INTERRUPTED, out
    if strict:  # pytest refuses the module itself, at import: no test of it runs
        result.stdout.fnmatch_lines(["*ERROR collecting test_typos.py*", "*not found in `markers`*"])
        return
    for test, (typo, meant) in MEANT.items():
        result.stdout.fnmatch_lines([f"artemis marker error: test_typos.py::{test}: unknown marker {typo!r}: "
                                     f"did you mean {meant!r}?*"])
    result.stdout.fnmatch_lines([f"*Interrupted: {len(MEANT)} errors during collection*"])
    # CI sees each as an error of its own test, naming the node id and the marker it was meant to be.
    errors = {f"{tc.get('classname')}.{tc.get('name')}": tc.find("error")
              for tc in ET.parse(suite.path / "junit.xml").getroot().iter("testcase")}
    for test, (typo, meant) in MEANT.items():
        error = errors[f"test_typos.{test.replace('::', '.')}"]
        assert error is not None and f"test_typos.py::{test}: unknown marker {typo!r}: did you mean " \
            f"{meant!r}?" in (error.text or "")
    collected = suite.runpytest("-p", "no:cacheprovider", "--collect-only", "-q").stdout.str()
    assert "test_typos.py::test_own_markers" in collected and "test_typos.py::test_plain" in collected


@pytest.mark.parametrize(("name", "meant"), [
    ("verfy", "verify"), ("vrify", "verify"), ("veryfy", "verify"), ("asert", "assert_"),
    ("assert", "assert_"), ("asserts", "assert_"), ("goals", "goal"), ("gaol", "goal"),
    ("artemis_", "artemis"), ("artmis", "artemis"), ("Verify", "verify"), ("GOAL", "goal"),
])
def test_close_names_are_misspellings(name, meant):
    from pytest_artemis.plugin.marker_typos import closest_marker

    assert closest_marker(name) == meant


@pytest.mark.parametrize("name", [
    "goal", "verify", "assert_", "artemis", "skip", "skipif", "xfail", "parametrize", "usefixtures",
    "filterwarnings", "slow", "smoke", "timeout", "flaky", "order", "dependency", "asyncio", "django_db",
    "xdist_group", "serial", "regression", "android", "device", "alarm", "settings", "vertical", "verified",
])
def test_other_markers_are_not(name):
    from pytest_artemis.plugin.marker_typos import closest_marker

    assert closest_marker(name) is None
