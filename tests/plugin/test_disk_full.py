"""A disk that fills up mid-run, for real: the session runs under a lowered ``RLIMIT_FSIZE`` (SIGXFSZ
ignored), so artifact writes past it fail with the OS's own ``EFBIG``. The test is one clear ERROR naming
the file and the OS error, its journal is still closed and readable, and the session summary and the
JUnit XML are written."""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from plugin_helpers import Case, assert_words, parse_junit

from pytest_artemis.store import read_run

#: Lowers the limit, then becomes pytest (exec keeps both the limit and the ignored signal).
LIMITED = '''
import os
import resource
import signal
import sys

limit = int(sys.argv[1])
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
os.execv(sys.executable, [sys.executable, "-m", "pytest", *sys.argv[2:]])
'''

TESTS = '''
import pytest


@pytest.mark.goal("Turn on Bluetooth")
@pytest.mark.verify("PASS: Bluetooth is on")
def test_run(artemis):
    pass


def test_plain():
    pass
'''


def run_limited(suite: pytest.Pytester, limit: int, *args: str) -> tuple[pytest.RunResult, dict[str, Case]]:
    """Run the suite with files limited to ``limit`` bytes (screenshots are larger; journal lines are not)."""
    (suite.path / "limited.py").write_text(LIMITED)
    suite.makepyfile(test_disk=TESTS)
    result = suite.run(sys.executable, "limited.py", str(limit), "-p", "no:cacheprovider",
                       "--junitxml=junit.xml", "--artemis-device=sim", *args, timeout=180)
    assert "INTERNALERROR" not in result.stdout.str() + result.stderr.str()
    return result, parse_junit(suite.path / "junit.xml")


def check_crashed_run(case: Case) -> Path:
    """The test is an infrastructure ERROR naming the file it could not write and the OS error; its journal
    is closed (crashed) and reads back, with nothing half-written left in it."""
    run_dir = Path(case.props["artemis.artifacts"])
    assert case.result == "error" and case.message.startswith("ERROR: infrastructure failure (harness) "
                                                              "ArtifactsWriteFailed")
    assert f"cannot write {run_dir}/screens/" in case.message and "File too large (errno 27)" in case.message
    assert case.props["artemis.execution"] == "crashed"
    record = read_run(run_dir)
    assert record.execution == "crashed" and record.outcome is not None
    assert record.outcome.infra is not None and record.outcome.infra.error_class == "ArtifactsWriteFailed"
    assert not list(run_dir.rglob("*.tmp"))
    return run_dir


def test_a_full_disk_mid_run_is_one_clear_error_and_the_session_goes_on(suite):
    result, cases = run_limited(suite, 64 * 1024)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert_words(result, errors=1, passed=1)
    run_dir = check_crashed_run(cases["test_run"])
    error = next(tc.find("error") for tc in ET.parse(suite.path / "junit.xml").getroot().iter("testcase")
                 if tc.get("name") == "test_run")
    assert error is not None and error.get("type") == "artemis.infra.harness.ArtifactsWriteFailed"
    assert (run_dir / "report.html").is_file()
    result.stdout.fnmatch_lines(["*artemis report: *index.html*"])


def test_when_pages_and_the_index_cannot_be_written_either_the_summary_still_says_so(suite):
    result, cases = run_limited(suite, 8 * 1024, "-k", "run")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert_words(result, errors=1, deselected=1)
    run_dir = check_crashed_run(cases["test_run"])
    assert not (run_dir / "report.html").exists()
    result.stdout.fnmatch_lines([
        f"artemis: a report page could not be written in {run_dir}: File too large; the runs' journals and "
        "outcomes are kept",
        "artemis: the session index could not be written in *: [[]Errno 27[]] File too large",
    ])
