"""What CI reads, end to end: JUnit types and messages, xunit2 validity, attachments, the terminal's words."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from plugin_helpers import ROWS_TESTS, assert_words, parse_junit, run_junit

from pytest_artemis.junit import read_properties
from pytest_artemis.plugin import _SUB_PLUGINS

XSD = Path(__file__).with_name("junit-10.xsd")
TYPES = {"test_failed": ("failure", "artemis.assertion"), "test_blocked": ("error", "artemis.blocked"),
         "test_error": ("error", "artemis.infra.model.ModelUnavailable"),
         "test_unchecked": ("skipped", "pytest.xfail")}


@pytest.fixture
def rows(suite, monkeypatch):
    """The five outcome rows, run once at 80 columns outside CI (so the short summary is trimmed)."""
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("BUILD_NUMBER", raising=False)
    suite.makepyfile(test_rows=ROWS_TESTS)
    return run_junit(suite, "--artemis-device=sim")


def _results(xml: Path) -> dict[str, ET.Element]:
    return {tc.get("name"): child for tc in ET.parse(xml).getroot().iter("testcase")
            for child in tc if child.tag in ("failure", "error", "skipped")}


def test_every_non_pass_has_a_type_and_a_message_that_leads_with_the_reason(rows, suite):
    result, cases = rows
    elements = _results(suite.path / "junit.xml")
    assert {name: (e.tag, e.get("type")) for name, e in elements.items()} == TYPES
    assert elements["test_failed"].get("message").startswith(
        "FAILED: 1 assertion(s) failed: assert_ 'FAIL: a toast appears': the item says FAIL")
    assert elements["test_blocked"].get("message").startswith("BLOCKED: circuit breaker: ")
    assert re.fullmatch(r"ERROR: infrastructure failure \(model\) ModelUnavailable on device "
                        r"127\.0\.0\.1:\d+/emulator-5554: provider answered HTTP 503",
                        elements["test_error"].get("message"))
    unchecked = elements["test_unchecked"]
    assert unchecked.get("message") == ("UNCHECKED: 1 item could not be confirmed (nothing failed): "
                                        "assert_ 'MAYBE: a toast appears': the item says MAYBE")
    assert "assert_ 'MAYBE: a toast appears'" in unchecked.text  # the body lists the items and why


def test_xunit2_keeps_testcases_schema_valid_with_properties_on_the_testsuite(rows, suite):
    xmlschema = pytest.importorskip("xmlschema")
    xml = suite.path / "junit.xml"
    xmlschema.XMLSchema(XSD).validate(xml)  # raises on the first violation
    root = ET.parse(xml).getroot()
    assert all(tc.find("properties") is None for tc in root.iter("testcase"))
    props = read_properties(xml)
    assert props["test_rows.py::test_blocked"]["artemis.outcome"] == "BLOCKED"
    assert props["test_rows.py::test_error"]["artemis.infra"] == "model/ModelUnavailable"


def test_xunit1_keeps_the_properties_on_each_testcase(suite):
    suite.makepyfile(test_rows=ROWS_TESTS)
    suite.makeini("[pytest]\njunit_family = xunit1\nartemis_reset = full\n")
    _, cases = run_junit(suite, "--artemis-device=sim", "-k", "blocked or unchecked")
    root = ET.parse(suite.path / "junit.xml").getroot()
    assert root.find("testsuite/properties") is None
    assert {name: case.props["artemis.outcome"] for name, case in cases.items()} == {
        "test_blocked": "BLOCKED", "test_unchecked": "UNCHECKED"}
    props = read_properties(suite.path / "junit.xml")
    assert props["test_rows::test_blocked"]["artemis.outcome"] == "BLOCKED"


def test_key_screenshots_are_attached_for_gitlab(rows):
    _, cases = rows
    for name in ("test_failed", "test_blocked", "test_unchecked"):
        lines = [line for line in cases[name].system_out.splitlines() if line.startswith("[[ATTACHMENT|")]
        assert lines, name
        for line in lines:
            assert Path(line.removeprefix("[[ATTACHMENT|").removesuffix("]]")).is_file()
    assert "[[ATTACHMENT|" not in cases["test_error"].system_out  # no step, no screenshot


def test_terminal_counts_our_words_lists_unchecked_and_ends_with_the_index(rows, suite):
    result, _ = rows
    assert_words(result, passed=1, failed=1, errors=1, blocked=1, unchecked=1)
    out = result.stdout.lines
    summary = out[out.index(next(line for line in out if "short test summary info" in line)):]
    assert any(line.startswith("UNCHECKED test_rows.py::test_unchecked - 1 item could not be confirmed")
               for line in summary)
    assert "  - assert_ 'MAYBE: a toast appears': the item says MAYBE" in summary
    # At 80 columns the reason is shown (wrapped under the node id when it does not fit), never the
    # exception's name, and it leads with the cause: here the breaker that stopped the run.
    at = summary.index(next(line for line in summary if line.startswith("BLOCKED ")))
    assert summary[at] == "BLOCKED test_rows.py::test_blocked"
    assert summary[at + 1].startswith("  - circuit breaker: the same finding 3 times: FAIL: Bluetooth")
    assert all(len(line) <= 80 for line in summary[at:at + 3])
    reason = " ".join(line.strip().removeprefix("- ") for line in summary[at + 1:at + 4])
    assert "unmet: 'FAIL: Bluetooth is on'" in reason or reason.endswith("...")
    assert not any("ArtemisOutcome" in line for line in summary)
    index = suite.path / ".artemis" / "index.html"
    assert f"artemis report: {index}" in out[-2] and index.is_file()


def test_plain_xfails_stay_out_of_the_default_short_summary(suite):
    suite.makepyfile(test_x='''
        import pytest

        @pytest.mark.goal("Turn on Bluetooth")
        @pytest.mark.assert_("MAYBE: a toast appears")
        def test_unchecked(artemis):
            pass

        @pytest.mark.xfail(reason="known bug")
        def test_plain_xfail():
            assert False
    ''')
    result, _ = run_junit(suite, "--artemis-device=sim")
    assert_words(result, unchecked=1, xfailed=1)
    result.stdout.fnmatch_lines(["UNCHECKED test_x.py::test_unchecked - *"])
    assert not [line for line in result.stdout.lines if line.startswith("XFAIL")]


def test_runxfail_cannot_make_an_unchecked_run_pass(suite):
    suite.makepyfile(test_u='''
        import pytest

        @pytest.mark.goal("Turn on Bluetooth")
        @pytest.mark.assert_("MAYBE: a toast appears")
        def test_unchecked(artemis):
            pass
    ''')
    result, cases = run_junit(suite, "--artemis-device=sim", "--runxfail")
    assert_words(result, failed=1)
    case = cases["test_unchecked"]
    assert case.result == "failure" and case.props["artemis.outcome"] == "FAILED"
    assert "UNCHECKED (--runxfail cannot make it pass)" in case.text
    assert _results(suite.path / "junit.xml")["test_unchecked"].get("type") == "artemis.unchecked"


@pytest.mark.parametrize("part", _SUB_PLUGINS)
def test_disabling_a_part_of_the_plugin_is_a_usage_error(suite, part):
    suite.makepyfile(test_rows=ROWS_TESTS)
    result = suite.runpytest("-p", f"no:{part}", "--artemis-device=sim")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*-p no:{part}: parts of pytest-artemis cannot be disabled one by one*"])


def test_every_registered_part_of_the_plugin_is_refused_when_disabled(pytester):
    """A part registered but missing from the refusal list could be switched off silently."""
    config = pytester.parseconfigure("--artemis-device=sim")
    parts = {name for name, _ in config.pluginmanager.list_name_plugin() if name.startswith("artemis.")}
    assert parts and parts <= set(_SUB_PLUGINS), parts - set(_SUB_PLUGINS)


def test_disabling_the_whole_plugin_runs_no_goal_as_passed(pytester):
    pytester.makepyfile(test_rows=ROWS_TESTS)
    result, cases = run_junit(pytester, "-p", "no:artemis")
    assert_words(result, errors=5)  # no `artemis` fixture: every goal errors, none passes
    assert all(case.result == "error" for case in cases.values())


def test_last_failed_reruns_every_test_that_did_not_pass(suite):
    suite.makepyfile(test_rows=ROWS_TESTS)
    suite.runpytest("--artemis-device=sim")
    result = suite.runpytest("--artemis-device=sim", "--lf", "-v")
    assert_words(result, failed=1, errors=1, blocked=1, unchecked=1)  # the passed test is not rerun


def test_maxfail_stops_at_blocked_but_not_at_unchecked(suite):
    suite.makepyfile(test_order='''
        import pytest

        @pytest.mark.goal("Turn on Bluetooth")
        @pytest.mark.assert_("MAYBE: a toast appears")
        def test_1_unchecked(artemis):
            pass

        @pytest.mark.goal("Turn on Bluetooth")
        @pytest.mark.verify("FAIL: Bluetooth is on")
        def test_2_blocked(artemis):
            pass

        def test_3_never_reached():
            pass
    ''')
    result, _ = run_junit(suite, "--artemis-device=sim", "-x")
    assert_words(result, unchecked=1, blocked=1)


def test_xfail_strict_and_xfail_markers_never_turn_a_not_passed_run_into_a_pass(suite):
    suite.makeini("[pytest]\nxfail_strict = true\njunit_logging = system-out\nartemis_reset = full\n")
    suite.makepyfile(test_marks='''
        import pytest

        @pytest.mark.goal("Turn on Bluetooth")
        @pytest.mark.assert_("MAYBE: a toast appears")
        def test_unchecked(artemis):
            pass

        @pytest.mark.xfail(reason="known flaky flow")
        @pytest.mark.goal("Turn on Bluetooth")
        @pytest.mark.verify("FAIL: Bluetooth is on")
        def test_blocked_but_marked_xfail(artemis):
            pass

        @pytest.mark.xfail(reason="expected to fail")
        @pytest.mark.goal("Turn on Bluetooth")
        @pytest.mark.verify("PASS: Bluetooth is on")
        def test_passed_but_marked_xfail(artemis):
            pass
    ''')
    result, cases = run_junit(suite, "--artemis-device=sim")
    # The user's own xfail marker is honoured as pytest does (xfailed / strict XPASS fails); UNCHECKED
    # is unaffected by xfail_strict; nothing reads as passed.
    assert_words(result, unchecked=1, xfailed=1, failed=1)
    assert cases["test_unchecked"].props["artemis.outcome"] == "UNCHECKED"
    assert cases["test_passed_but_marked_xfail"].result == "failure"


def test_junit_parsing_helper_reads_both_families(tmp_path):
    xml = tmp_path / "j.xml"
    xml.write_text('<testsuites><testsuite name="s" tests="1"><properties>'
                   '<property name="artemis.outcome[a.py::t]" value="BLOCKED"/></properties>'
                   '<testcase classname="a" name="t"/></testsuite></testsuites>')
    assert read_properties(xml) == {"a.py::t": {"artemis.outcome": "BLOCKED"}}
    assert parse_junit(xml)["t"].props == {"artemis.outcome": "BLOCKED"}


def test_a_rerun_plugin_reruns_what_did_not_pass_and_reports_the_last_attempt(suite):
    pytest.importorskip("pytest_rerunfailures")
    suite.makepyfile(test_rr='''
        import pytest

        @pytest.mark.goal("Turn on Bluetooth")
        @pytest.mark.verify("FAIL: Bluetooth is on")
        def test_blocked(artemis):
            pass

        @pytest.mark.goal("Turn on Bluetooth")
        @pytest.mark.assert_("MAYBE: a toast appears")
        def test_unchecked(artemis):
            pass
    ''')
    result, cases = run_junit(suite, "--artemis-device=sim", "--reruns=1")
    # BLOCKED is an error: rerun once, still BLOCKED (never a pass); UNCHECKED is not a failure: not rerun.
    assert_words(result, blocked=1, unchecked=1, rerun=1)
    assert cases["test_blocked"].props["artemis.outcome"] == "BLOCKED"
    runs = sorted((suite.path / ".artemis" / "test_rr.py__test_blocked").glob("*/run.jsonl"))
    assert len(runs) == 2  # each attempt is a run with its own journal
    assert len(list((suite.path / ".artemis" / "test_rr.py__test_unchecked").glob("*/run.jsonl"))) == 1
