"""Every row of the outcome table, end to end: pytester on the simulated phone, words, JUnit XML."""

from __future__ import annotations

import pytest
from plugin_helpers import ROWS_TESTS, assert_words, check_rows, run_junit

from pytest_artemis.store import read_run


def test_every_outcome_row_in_process(suite):
    suite.makepyfile(test_rows=ROWS_TESTS)
    result, cases = run_junit(suite, "-v", "--artemis-device=sim")
    check_rows(result, cases)
    # The verdict sequence lands in <system-out> (junit_logging=system-out) and names each attempt.
    assert "FAILED assert_ 'FAIL: a toast appears' (model @step 3)" in cases["test_failed"].system_out
    # Each run's journal is where the artifacts property says, closed with the outcome it reports.
    record = read_run(cases["test_failed"].props["artemis.artifacts"])
    assert record.execution == "finished" and record.outcome.tests.failed == 1
    # -v shows live progress: one line per step (the operator's decision, then what was done) and per verdict.
    result.stdout.fnmatch_lines([
        "*[[]artemis[]] step 1 (act): 'open Settings' -> launch com.android.settings [[]ok[]]",
        "*[[]artemis[]] step 3 (act): 'turn Bluetooth on' -> tap * on [[]*[]] 'OFF' [[]ok[]]",
        "*[[]artemis[]] PASSED verify 'PASS: *"])
    # ... and says when the run is waiting on its checker rather than acting.
    result.stdout.fnmatch_lines(["*[[]artemis[]] checking: final check #1: judging the goal and * item(s)*"])
    # Short summaries keep pytest's categories with our words.
    result.stdout.fnmatch_lines_random(["BLOCKED test_rows.py::test_blocked*",
                                        "ERROR test_rows.py::test_error*"])


@pytest.mark.slow
def test_every_outcome_row_in_a_subprocess(suite):
    suite.makepyfile(test_rows=ROWS_TESTS)
    result, cases = run_junit(suite, "-v", "--artemis-device=sim", subprocess=True)
    check_rows(result, cases)


@pytest.mark.parametrize(("mode", "outcome", "element"), [
    ("skip", {"skipped": 1}, "skipped:pytest.skip"),
    ("fail", {"failed": 1}, "failure"),
])
def test_unchecked_mode(suite, mode, outcome, element):
    suite.makepyfile(test_u='''
        import pytest

        @pytest.mark.goal("Turn on Bluetooth")
        @pytest.mark.assert_("MAYBE: a toast appears")
        def test_unchecked(artemis):
            pass
    ''')
    result, cases = run_junit(suite, "--artemis-device=sim", f"--artemis-unchecked={mode}")
    result.assert_outcomes(**outcome)
    assert cases["test_unchecked"].result == element
    assert "UNCHECKED" in cases["test_unchecked"].message
    expected = "UNCHECKED" if mode == "skip" else "FAILED"
    assert cases["test_unchecked"].props["artemis.outcome"] == expected


def test_a_failure_in_the_test_body_takes_precedence(suite):
    suite.makepyfile(test_body='''
        import pytest

        @pytest.mark.goal("Turn on Bluetooth")
        @pytest.mark.assert_("MAYBE: a toast appears")
        def test_body_fails(artemis):
            assert artemis.outcome.steps == 99, "body says no"
    ''')
    result, cases = run_junit(suite, "--artemis-device=sim")
    result.assert_outcomes(failed=1)
    assert "body says no" in cases["test_body_fails"].message
    assert cases["test_body_fails"].props["artemis.outcome"] == "FAILED"


def test_run_from_the_test_body(suite):
    suite.makepyfile(test_run='''
        from pytest_artemis.spec import assert_, verify

        def test_body_run(artemis):
            assert artemis.outcome is None
            result = artemis.run("Turn on Bluetooth",
                                 checks=[verify("PASS: Bluetooth on"), assert_("FAIL: toast")])
            assert result.word == "FAILED"
            assert [(v.kind, v.status) for v in artemis.verdicts] == [
                ("verify", "passed"), ("assert", "failed"), ("goal", "passed")]
            assert artemis.steps and artemis.artifacts.is_dir()
            assert artemis.device.serial == "emulator-5554"

        def test_body_run_passes(artemis):
            artemis.run("Turn on Bluetooth", checks=[verify("PASS: Bluetooth on")])
    ''')
    result, cases = run_junit(suite, "--artemis-device=sim")
    result.assert_outcomes(failed=1, passed=1)
    assert cases["test_body_run"].result == "failure"
    assert "FAIL: toast" in cases["test_body_run"].text
    assert cases["test_body_run_passes"].props["artemis.checks.passed"] == "2"  # the check and the goal


def test_time_budget_ends_blocked_not_crashed(suite):
    suite.makepyfile(test_budget='''
        import pytest

        @pytest.mark.goal("Look forever [slow]", max_steps=200)
        @pytest.mark.verify("PASS: found it")
        def test_slow(artemis):
            pass
    ''')
    result, cases = run_junit(suite, "--artemis-device=sim", "--artemis-time-budget=1.5")
    assert_words(result, blocked=1)
    case = cases["test_slow"]
    assert case.props["artemis.outcome"] == "BLOCKED" and case.props["artemis.execution"] == "finished"
    assert "time budget" in case.text


def test_scripted_model_stands_in_only_when_no_model_is_configured(pytester):
    pytester.makeconftest('''
        import pytest
        from pytest_artemis.plugin import configured_models

        @pytest.fixture
        def artemis_model(pytestconfig):
            models = configured_models(pytestconfig)
            return "scripted" if models is None else models.operator.name
    ''')
    pytester.makepyfile(test_m='''
        def test_models(artemis_model, pytestconfig):
            expected = pytestconfig.getoption("artemis_model") or "scripted"
            assert artemis_model == expected
    ''')
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=1)
    pytester.runpytest("-p", "no:cacheprovider", "--artemis-model=openai/gpt-4o").assert_outcomes(passed=1)


def test_a_blocked_run_from_the_body_is_an_error_like_the_fixtures_run(suite):
    suite.makepyfile(test_body_blocked='''
        from pytest_artemis import verify

        def test_body_blocked(artemis):
            result = artemis.run("Turn on Bluetooth", checks=[verify("FAIL: Bluetooth is on")])
            assert result.word == "BLOCKED"

        def test_body_error(artemis):
            artemis.run("Turn on Bluetooth [model-down]", checks=[verify("PASS: Bluetooth is on")])
    ''')
    result, cases = run_junit(suite, "--artemis-device=sim", "-v")
    assert_words(result, errors=1, blocked=1)
    result.stdout.fnmatch_lines_random(["*test_body_blocked BLOCKED*", "*test_body_error ERROR*"])
    blocked, error = cases["test_body_blocked"], cases["test_body_error"]
    assert blocked.result == "error" and "BLOCKED: " in blocked.message
    assert blocked.props["artemis.outcome"] == "BLOCKED"
    assert error.result == "error" and "infrastructure failure (model)" in error.message
    assert error.props["artemis.outcome"] == "ERROR"
