"""A bug in our own code is loud: ERROR with its traceback in the journal, the JUnit output and the report;
an exception from one of our hooks propagates as it is; debug events go to the ``pytest_artemis`` logger."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from plugin_helpers import Case, run_junit

from pytest_artemis.store import read_run

TEST_FILE = '''
import pytest


@pytest.mark.goal("Turn on Bluetooth")
@pytest.mark.verify("PASS: Bluetooth is on")
def test_bugged(artemis):
    pass
'''

#: The checker asks for a step's detail; serving it (our code) hits the injected bug.
CHECKER_TOOL_BUG = '''

from pytest_artemis.agents.schemas import ToolRequest
from pytest_artemis.checking.evidence import RunEvidence

_respond = respond


def respond(request):
    if request.role == "checker":
        return CheckReport(requests=[ToolRequest(tool="step_detail", step=1)])
    return _respond(request)


async def _broken_step_detail(self, step):
    raise ZeroDivisionError("injected checker-tool bug")


@pytest.fixture(autouse=True)
def _inject(monkeypatch):
    monkeypatch.setattr(RunEvidence, "step_detail", _broken_step_detail)
'''

#: Building the post-action view of a turn (our code, once per turn) hits the injected bug.
LOOP_BUG = '''

import pytest_artemis.engine.loop


def _broken_post_view(*args, **kwargs):
    raise ZeroDivisionError("injected loop bug")


@pytest.fixture(autouse=True)
def _inject(monkeypatch):
    monkeypatch.setattr(pytest_artemis.engine.loop, "post_view", _broken_post_view)
'''

STEP_HOOK_BUG = '''

def pytest_artemis_step(item, step):
    raise ZeroDivisionError("injected hook bug")
'''

START_HOOK_BUG = '''

def pytest_artemis_run_start(item, spec, device, artifacts):
    raise ZeroDivisionError("injected hook bug")
'''


def _run(suite: pytest.Pytester, conftest_extra: str) -> tuple[pytest.RunResult, Case, Path]:
    suite.makeconftest(suite.path.joinpath("conftest.py").read_text() + conftest_extra)
    suite.makepyfile(test_bug=TEST_FILE)
    result, cases = run_junit(suite, "--artemis-device=sim", "--artemis-artifacts=out")
    result.assert_outcomes(errors=1)
    case = cases["test_bugged"]
    assert case.result == "error"
    return result, case, Path(case.props["artemis.artifacts"])


def _assert_traceback_recorded(run_dir: Path, message: str) -> None:
    """The traceback, down to the injected bug, in the journal and on the report page."""
    outcome = read_run(run_dir).outcome
    assert outcome is not None and outcome.execution == "crashed"
    assert outcome.infra is not None and outcome.infra.kind == "harness"
    assert outcome.infra.error_class == "ZeroDivisionError"
    assert outcome.infra.traceback.startswith("Traceback (most recent call last):")
    assert f"ZeroDivisionError: {message}" in outcome.infra.traceback
    report = (run_dir / "report.html").read_text()
    assert "Traceback (most recent call last):" in report and f"ZeroDivisionError: {message}" in report


@pytest.mark.parametrize(("bug", "message"), [
    (CHECKER_TOOL_BUG, "injected checker-tool bug"),
    (LOOP_BUG, "injected loop bug"),
])
def test_a_bug_in_our_code_is_an_error_with_its_traceback(suite, bug, message):
    result, case, run_dir = _run(suite, bug)
    assert case.props["artemis.outcome"] == "ERROR"
    assert case.props["artemis.infra"] == "harness/ZeroDivisionError"
    assert case.message.startswith("ERROR: infrastructure failure (harness) ZeroDivisionError")
    assert "Traceback (most recent call last):" in case.system_out  # the stdout [artemis] section
    assert "Traceback (most recent call last):" in case.text and f"ZeroDivisionError: {message}" in case.text
    _assert_traceback_recorded(run_dir, message)
    # The short summary keeps the reason: on the line, or wrapped under the node id when it is long.
    assert re.search(r"ERROR test_bug\.py::test_bugged(?: -|\n  -) infrastructure failure \(harness\)",
                     result.stdout.str())
    assert "During handling of the above exception" not in case.text


@pytest.mark.parametrize("bug", [STEP_HOOK_BUG, START_HOOK_BUG], ids=["step", "run_start"])
def test_an_exception_in_our_hook_propagates_as_it_is(suite, bug):
    result, case, run_dir = _run(suite, bug)
    # pytest reports the hook's own exception (not an infrastructure failure), raised in its frame.
    assert "infrastructure failure" not in case.message
    assert "ZeroDivisionError: injected hook bug" in case.text
    assert 'raise ZeroDivisionError("injected hook bug")' in case.text
    assert case.props["artemis.infra"] == "harness/ZeroDivisionError"
    assert "raised by the run's observer" in read_run(run_dir).outcome.infra.message
    assert "Traceback (most recent call last):" in case.system_out  # the stdout [artemis] section
    _assert_traceback_recorded(run_dir, "injected hook bug")


LOGGED_TEST = '''
import pytest
from pytest_artemis import probes


@pytest.mark.goal("Turn on Bluetooth")
@pytest.mark.verify("PASS: Bluetooth is on")
@pytest.mark.assert_("No error dialog", when="end", probe=probes.no_error_dialog())
def test_logged(artemis):
    pass
'''


def test_debug_events_reach_the_pytest_artemis_logger(suite):
    suite.makepyfile(test_quiet=LOGGED_TEST)
    quiet = suite.runpytest("--artemis-device=sim", "-p", "no:cacheprovider")
    quiet.assert_outcomes(passed=1)
    assert not [line for line in quiet.outlines if "DEBUG" in line or "pytest_artemis." in line]
    loud = suite.runpytest("--artemis-device=sim", "-p", "no:cacheprovider", "--log-cli-level=DEBUG")
    loud.assert_outcomes(passed=1)
    loud.stdout.fnmatch_lines_random([
        "*DEBUG*pytest_artemis.engine.loop*turn 1 starts*",
        "*DEBUG*pytest_artemis.engine.loop*turn 1 ends*",
        "*DEBUG*pytest_artemis.checking.checkpoints*checkpoint * spawned, anchored to step 3*",
        "*DEBUG*pytest_artemis.checking.checkpoints*checkpoint * harvested: passed*",
        "*DEBUG*pytest_artemis.models.calls*model call * operator scripted ok*",
        "*DEBUG*pytest_artemis.device.adb*probe *",
    ])
