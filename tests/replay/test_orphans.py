"""Recordings of deleted or renamed tests are named at the end of a session that collected every test
they could belong to, and never under a selection (``-k``, node ids) that cannot tell."""

from __future__ import annotations

import pytest
from plugin_helpers import run_junit
from replay_project import TESTS

from pytest_artemis.store.recording import Recording, RecordingStore

ORPHANED = "orphaned recording"


def session(project: pytest.Pytester, *args: str) -> pytest.RunResult:
    """One session, the phone reset before each test (both files create the same alarm)."""
    argv = ("--artemis-device=sim", "--artemis-replay=auto", "--artemis-reset=full", *args)
    result, _ = run_junit(project, *argv, subprocess=True)
    return result


@pytest.mark.slow
def test_recordings_of_tests_that_no_longer_exist_are_reported_only_when_safe_to_say(project):
    project.makepyfile(test_kept=TESTS, test_gone=TESTS)
    session(project).assert_outcomes(passed=2)
    store = RecordingStore(project.path / ".artemis-recordings")
    first = dict((node, path.name) for path, node in store.recorded())
    assert set(first) == {"test_kept.py::test_alarm", "test_gone.py::test_alarm"}

    (project.path / "test_gone.py").unlink()  # a deleted file
    project.makepyfile(test_kept=TESTS.replace("def test_alarm", "def test_alarm_renamed"))  # a renamed test
    for selection in (("-k", "alarm"), ("test_kept.py::test_alarm_renamed",)):
        result = session(project, *selection)
        result.assert_outcomes(passed=1)
        assert ORPHANED not in result.stdout.str()  # a selection cannot tell deleted from unselected

    result = session(project)
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines([f"*- artemis replay: 1 replayed, 2 {ORPHANED}s -*"])
    for node in ("test_gone.py::test_alarm", "test_kept.py::test_alarm"):
        result.stdout.fnmatch_lines([f"*{first[node]}: records {node}, which this session did not collect "
                                     "(deleted or renamed); delete the file (docs/replay.md)"])
    # Reported, never deleted: pruning is the user's decision.
    assert {node for _, node in store.recorded()} == {*first, "test_kept.py::test_alarm_renamed"}


@pytest.mark.slow
@pytest.mark.parametrize("selection", [("--deselect", "test_kept.py::nothing"), ("-m", "not slow"),
                                       ("-n", "1"), ()])
def test_a_session_that_may_not_have_seen_every_test_names_no_orphan(project, selection):
    project.makepyfile(test_kept=TESTS)
    gone = Recording(node_id="test_kept.py::test_deleted", goal="g", plan_key="k", plan="- [ ] g\n")
    RecordingStore(project.path / ".artemis-recordings").save(gone)
    result = session(project, *selection)
    result.assert_outcomes(passed=1)
    said = f"1 {ORPHANED}" in result.stdout.str()
    assert said == (selection == ()), result.stdout.str()
