"""Runs that end badly are still reported (INTERRUPTED page, index row); --artemis-keep prunes pages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from plugin_helpers import SCRIPTED_CONFTEST, assert_words, run_junit

from pytest_artemis.store import list_runs, read_run

KILLED = '''
import pytest


@pytest.mark.goal("Turn on Bluetooth [die]")
@pytest.mark.verify("PASS: Bluetooth on")
def test_killed(artemis):
    pass
'''
FINE = '''
import pytest


@pytest.mark.goal("Turn on Bluetooth")
@pytest.mark.verify("PASS: Bluetooth on")
def test_fine(artemis):
    pass
'''


def _rows(index: Path) -> dict[str, tuple[str, str | None]]:
    """Test name → (word, link) of every row in the session index."""
    rows = {}
    for row in re.findall(r'<tr data-outcome="\w+".*?</tr>', index.read_text(), re.S):
        word = re.search(r'data-outcome="(\w+)"', row).group(1)
        link = re.search(r'<a href="([^"]+)"', row)
        name = re.search(r"::(\w+)", row).group(1)
        rows[name] = (word, link.group(1) if link else None)
    return rows


def test_a_killed_run_is_reported_interrupted_by_the_next_session(pytester):
    # SIGKILL mid-run: no finally, no atexit, no pytest hook runs in the killed process.
    pytester.makeconftest(SCRIPTED_CONFTEST.replace("os._exit(3)", "os.kill(os.getpid(), 9)"))
    pytester.makepyfile(test_killed=KILLED, test_fine=FINE)
    killed = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--artemis-device=sim", "test_killed.py")
    assert killed.ret not in (0, 1)  # the process died; no summary
    (run,) = list_runs(pytester.path / ".artemis")
    assert read_run(run).execution == "interrupted" and not (run / "report.html").exists()

    result, _ = run_junit(pytester, "--artemis-device=sim", "test_fine.py")
    assert_words(result, passed=1)
    index = pytester.path / ".artemis" / "index.html"
    rows = _rows(index)
    assert rows["test_killed"][0] == "INTERRUPTED" and rows["test_fine"][0] == "PASSED"
    page = index.parent / rows["test_killed"][1]
    assert page == run / "report.html" and ">INTERRUPTED<" in page.read_text()
    # Reported once: the session after that does not list it again.
    run_junit(pytester, "--artemis-device=sim", "test_fine.py")
    assert "test_killed" not in _rows(index)


def test_a_run_still_running_elsewhere_is_not_called_interrupted(pytester, tmp_path):
    from pytest_artemis.plugin.interrupted import running, unreported_interrupted

    pytester.makeconftest(SCRIPTED_CONFTEST.replace("os._exit(3)", "os.kill(os.getpid(), 9)"))
    pytester.makepyfile(test_killed=KILLED)
    pytester.runpytest_subprocess("-p", "no:cacheprovider", "--artemis-device=sim")
    (run,) = list_runs(pytester.path / ".artemis")
    with running(run):  # as if its process were alive
        assert unreported_interrupted(pytester.path / ".artemis") == []
    assert [r.dir for r in unreported_interrupted(pytester.path / ".artemis")] == [run]


@pytest.mark.parametrize(("keep", "pages"), [
    pytest.param("all", {"test_passed", "test_failed"}, marks=pytest.mark.slow),
    ("failed", {"test_failed"}),
    pytest.param("none", set(), marks=pytest.mark.slow),
])
def test_keep_decides_which_runs_keep_screenshots_and_pages(suite, keep, pages):
    suite.makepyfile(test_k='''
        import pytest

        @pytest.mark.goal("Turn on Bluetooth")
        @pytest.mark.verify("PASS: Bluetooth is on")
        def test_passed(artemis):
            pass

        @pytest.mark.goal("Turn on Bluetooth")
        @pytest.mark.assert_("FAIL: a toast appears")
        def test_failed(artemis):
            pass
    ''')
    result, cases = run_junit(suite, "--artemis-device=sim", f"--artemis-keep={keep}")
    assert_words(result, passed=1, failed=1)
    for name, case in cases.items():
        run = Path(case.props["artemis.artifacts"])
        kept = name in pages
        assert (run / "report.html").exists() is kept and (run / "screens").exists() is kept, name
        assert ("[[ATTACHMENT|" in case.system_out) is kept, name
        record = read_run(run)  # the journal, the ledger and the outcome are always kept
        assert record.outcome is not None and record.verdicts
    rows = _rows(suite.path / ".artemis" / "index.html")
    assert {name for name, (_, link) in rows.items() if link} == pages
