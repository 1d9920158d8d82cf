"""The plugin renders ``report.html`` after every run and ``<artifacts>/index.html`` once per session."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from plugin_helpers import assert_words, run_junit

TESTS = '''
import pytest


@pytest.mark.goal("Turn on Bluetooth")
@pytest.mark.verify("PASS: Bluetooth is on")
def test_passed(artemis):
    pass


@pytest.mark.goal("Turn on Bluetooth")
@pytest.mark.assert_("FAIL: a toast appears")
def test_failed(artemis):
    pass


@pytest.mark.goal("Turn on Bluetooth")
@pytest.mark.assert_("MAYBE: a toast appears")
def test_unchecked(artemis):
    pass


def test_plain():
    pass
'''
WORDS = {"test_passed": "PASSED", "test_failed": "FAILED", "test_unchecked": "UNCHECKED"}


def _index_rows(index: Path) -> dict[str, tuple[str, str]]:
    """Test name → (outcome word, report link) from the session index."""
    row = r'<tr data-outcome="(\w+)"[^>]*>.*?<a href="([^"]+)">[^<]*::(\w+)</a>'
    rows = re.findall(row, index.read_text())
    return {name: (word, href) for word, href, name in rows}


def _check(root: Path, cases: dict) -> None:
    for name, word in WORDS.items():
        run_dir = Path(cases[name].props["artemis.artifacts"])
        report = (run_dir / "report.html").read_text()
        assert f">{word}<" in report, name
        assert run_dir.parent.parent == root
    rows = _index_rows(root / "index.html")
    assert {name: word for name, (word, _) in rows.items()} == WORDS  # tests without a run are not listed
    for name, (_, href) in rows.items():
        assert (root / href).resolve() == Path(cases[name].props["artemis.artifacts"]) / "report.html"


def test_every_run_gets_a_report_and_the_session_an_index(suite):
    suite.makepyfile(test_w=TESTS)
    result, cases = run_junit(suite, "--artemis-device=sim", "--artemis-artifacts=out")
    assert_words(result, passed=2, failed=1, unchecked=1)
    _check(suite.path / "out", cases)


def test_the_index_shows_the_test_word_when_the_body_fails_after_a_passing_run(suite):
    suite.makepyfile(test_body='''
        import pytest

        @pytest.mark.goal("Turn on Bluetooth")
        @pytest.mark.verify("PASS: Bluetooth is on")
        def test_body(artemis):
            assert False, "body says no"
    ''')
    result, cases = run_junit(suite, "--artemis-device=sim")
    result.assert_outcomes(failed=1)
    run_dir = Path(cases["test_body"].props["artemis.artifacts"])
    assert ">PASSED<" in (run_dir / "report.html").read_text()  # the run itself passed
    assert _index_rows(suite.path / ".artemis" / "index.html")["test_body"][0] == "FAILED"


def test_no_index_without_artemis_tests(pytester):
    pytester.makepyfile(test_plain="def test_plain():\n    pass\n")
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=1)
    assert not (pytester.path / ".artemis").exists()


@pytest.mark.slow  # two xdist workers: the end-to-end matrix CI runs with -m slow
def test_under_xdist_the_controller_writes_one_index_for_all_workers(suite):
    pytest.importorskip("xdist")
    suite.makepyfile(test_w=TESTS)
    result, cases = run_junit(suite, "-n", "2", "--artemis-device=sim:2", "--artemis-artifacts=out",
                              subprocess=True)
    assert_words(result, passed=2, failed=1, unchecked=1)
    _check(suite.path / "out", cases)
    devices = {cases[name].props["artemis.device"] for name in WORDS}
    assert {d.rpartition("/")[2] for d in devices} <= {"emulator-5554", "emulator-5556"}
