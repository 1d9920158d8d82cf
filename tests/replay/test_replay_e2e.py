"""Replay end to end on the simulated phone: record, replay without the operator, fall back at the turn
that changed, ``only`` mode's usage error, and verdicts judged afresh on every replayed run."""

from __future__ import annotations

from pathlib import Path

import pytest
from plugin_helpers import Case, run_junit
from replay_project import TESTS, TWO_TESTS

from pytest_artemis.store.reader import RunRecord, read_run
from pytest_artemis.store.recording import Recording

NAME = "test_alarm"


def run(project: pytest.Pytester, mode: str | None) -> tuple[pytest.RunResult, Case, RunRecord]:
    option = (f"--artemis-replay={mode}",) if mode else ()
    result, cases = run_junit(project, "-v", "--artemis-device=sim", *option)
    case = cases[NAME]
    return result, case, read_run(Path(case.props["artemis.artifacts"]))


def calls(record: RunRecord, role: str) -> int:
    return sum(1 for c in record.model_calls if c.role == role)


def recording(project: pytest.Pytester) -> Recording:
    files = sorted((project.path / ".artemis-recordings").glob("*.json"))
    assert len(files) == 1, files
    return Recording.model_validate_json(files[0].read_bytes())


def test_first_run_records_and_second_replays_without_the_operator(project):
    project.makepyfile(test_replay=TESTS)
    _, first_case, first = run(project, "auto")
    assert first_case.props["artemis.outcome"] == "PASSED", first_case.message
    assert calls(first, "operator") == len(first.steps) > 1 and calls(first, "planner") == 1
    assert not any(s.replayed for s in first.steps)
    recorded = recording(project)
    assert [t.turn for t in recorded.turns] == [s.step for s in first.steps]

    result, case, second = run(project, "auto")
    assert case.props["artemis.outcome"] == "PASSED", case.message
    assert calls(second, "operator") == 0 and calls(second, "planner") == 0
    assert all(s.replayed for s in second.steps) and len(second.steps) == len(first.steps)
    # Verdicts are this run's own: the probe read the device again and the checker judged again.
    assert calls(second, "checker") >= 1
    probe = [v for v in second.verdicts if v.source == "probe" and v.status == "passed"]
    assert probe and all(v.anchor_step in {s.step for s in second.steps} for v in probe)
    assert "0 live" in case.props["artemis.replay"] and "recording unchanged" in case.props["artemis.replay"]
    assert case.props["artemis.replay_status"] == "replayed"
    result.stdout.fnmatch_lines(["*step 1 (act, replayed)*", "*- artemis replay: 1 replayed -*"])


def test_a_changed_screen_falls_back_to_the_model_at_exactly_that_turn(project, monkeypatch):
    project.makepyfile(test_replay=TESTS)
    _, _, first = run(project, "auto")
    monkeypatch.setenv("REPLAY_INJECT", "crash-after-1")  # the Clock app crashes on turn 1's tap
    _, case, second = run(project, "auto")
    assert case.props["artemis.outcome"] == "PASSED", case.message
    assert [s.replayed for s in second.steps] == [True] + [False] * (len(second.steps) - 1)
    assert second.steps[1].decision == "close the crash dialog"
    assert calls(second, "operator") == len(second.steps) - 1 and calls(second, "planner") == 0
    mismatch = [e.fields for e in second.events if e.kind == "replay_mismatch"]
    assert len(mismatch) == 1 and mismatch[0]["turn"] == 2 and "screen differs" in mismatch[0]["reason"]
    assert "live model from turn 2" in case.props["artemis.replay"]
    assert case.props["artemis.replay_status"] == "fell-back"
    # The new path is recorded: the next run replays it whole.
    assert [t.decision for t in recording(project).turns] == [s.decision for s in second.steps]
    assert len(second.steps) > len(first.steps)


def test_only_mode_ends_a_mismatch_as_a_usage_error_without_any_model_call(project, monkeypatch):
    project.makepyfile(test_replay=TESTS)
    run(project, "auto")
    monkeypatch.setenv("REPLAY_INJECT", "crash-after-1")
    result, case, record = run(project, "only")
    assert case.result == "error" and case.props["artemis.outcome"] == "ERROR"
    assert case.message.startswith("ERROR: usage error on device 127.0.0.1:")  # the server is in the name
    assert ("/emulator-5554: replay mismatch (--artemis-replay=only) at turn 2: "
            "the screen differs") in case.message
    assert "The operator model was not called" in case.message and "--artemis-replay=auto" in case.message
    assert record.model_calls == () and [s.replayed for s in record.steps] == [True]
    assert record.outcome.infra.kind == "usage" and "stopped at turn 2" in case.props["artemis.replay"]
    result.stdout.fnmatch_lines(["*::test_alarm ERROR*", "*- artemis replay: 1 stopped -*",
                                 "test_replay.py::test_alarm: replay only: 1 turns replayed, 0 live*"])


@pytest.mark.parametrize("form", ["option", "marker"])
def test_only_mode_without_a_recording_calls_no_model(project, form):
    marker = '@pytest.mark.artemis(replay="only")\ndef test_alarm'
    project.makepyfile(test_replay=TESTS if form == "option" else TESTS.replace("def test_alarm", marker))
    _, case, record = run(project, "only" if form == "option" else None)
    assert case.props["artemis.outcome"] == "ERROR"
    assert "no usable recording of this test for this goal" in case.message
    assert record.model_calls == () and record.steps == ()
    assert not (project.path / ".artemis-recordings").exists()


@pytest.mark.slow
def test_a_recording_under_an_edited_goal_is_reported_stale_and_not_used(project):
    project.makepyfile(test_replay=TESTS)
    run(project, "auto")
    old = recording(project)
    project.makepyfile(test_replay=TESTS.replace("7:30 AM\", app", "7:30 AM, please\", app"))
    result, case, record = run(project, "auto")
    assert case.props["artemis.replay_status"] == "live,stale"
    assert not any(s.replayed for s in record.steps) and calls(record, "operator") == len(record.steps)
    stale = f"records this test under another goal ({old.goal!r}); it is not used"
    assert stale in case.props["artemis.replay"]
    result.stdout.fnmatch_lines(["*- artemis replay: 1 live, 1 with stale recordings -*"])
    assert len(list((project.path / ".artemis-recordings").glob("*.json"))) == 2  # reported, not deleted


def test_a_replayed_run_whose_device_state_no_longer_holds_is_not_passed(project, monkeypatch):
    project.makepyfile(test_replay=TESTS)
    run(project, "auto")
    monkeypatch.setenv("REPLAY_INJECT", "wifi-off")  # only the status bar shows it: the signature ignores it
    _, case, record = run(project, "only")
    assert all(s.replayed for s in record.steps) and calls(record, "operator") == 0
    assert case.props["artemis.outcome"] == "FAILED" and case.result == "failure"
    failed = [v for v in record.verdicts if v.status == "failed"]
    assert [v.item_text for v in failed] == ["The status bar still shows Wi-Fi at the end"]
    assert "no Wi-Fi element" in failed[0].evidence


@pytest.mark.slow
def test_xdist_workers_record_and_replay_side_by_side(project):
    project.makepyfile(test_two=TWO_TESTS)
    argv = ("-n", "2", "--artemis-device=sim:2")
    result, cases = run_junit(project, *argv, "--artemis-replay=auto", subprocess=True)
    result.assert_outcomes(passed=2)
    files = sorted(p.name for p in (project.path / ".artemis-recordings").glob("*.json"))
    assert files == [f"test_two.py__test_alarm_{label}--{files[0].rsplit('--', 1)[1]}"
                     for label in ("first", "second")]
    result, cases = run_junit(project, *argv, "--artemis-replay=only", subprocess=True)
    result.assert_outcomes(passed=2)
    for case in cases.values():
        record = read_run(Path(case.props["artemis.artifacts"]))
        assert all(s.replayed for s in record.steps) and calls(record, "operator") == 0
