"""Reading runs back: torn last lines are tolerated, corrupt middles refused, RUNNING means interrupted."""

import pytest

from pytest_artemis.contracts import CheckVerdict, ModelCallRecord, RunOutcome, StepRecord, TaskResult
from pytest_artemis.store import JournalCorrupt, Redactor, RunHeader, RunJournal, list_runs, read_run

T0 = 1764493200.5


def verdict(n):
    return CheckVerdict(
        item_key="a1b2c3d4e5f6",
        item_text="Alarm listed",
        kind="assert",
        when="end",
        status="inconclusive",
        evidence="",
        reason="timeout",
        source="settlement",
        attempt_id=f"final#{n}",
        checkpoint_id="final",
        started_at=T0,
        finished_at=T0 + n,
    )


def populated(root, run_id="run-1"):
    journal = RunJournal.create(root, RunHeader(run_id=run_id, goal="g", started_at=T0), redactor=Redactor())
    for n in (1, 2, 3):
        journal.append_step(StepRecord(step=n, started_at=T0, finished_at=T0 + n))
        journal.append_verdict(verdict(n))
        journal.append_model_call(
            ModelCallRecord(run_id=run_id, seq=n, role="operator", model="m", status="ok")
        )
        journal.append_event("tick", n=n)
    return journal


def finished(journal):
    journal.close(
        RunOutcome(
            run_id="run-1",
            execution="finished",
            task=TaskResult(status="completed"),
            started_at=T0,
            finished_at=T0,
        )
    )


def tear(path, keep_bytes_of_last=7):
    """Cut the file's last line short, as a crash in the middle of a write would."""
    data = path.read_bytes()
    start = data.rstrip(b"\n").rfind(b"\n") + 1
    path.write_bytes(data[: start + keep_bytes_of_last])


@pytest.mark.parametrize(
    ("name", "field", "kept"),
    [
        ("steps.jsonl", "steps", 2),
        ("ledger.jsonl", "verdicts", 2),
        ("model_calls.jsonl", "model_calls", 2),
        ("events.jsonl", "events", 2),
    ],
)
def test_torn_last_line_keeps_the_valid_prefix_and_names_the_file(tmp_path, name, field, kept):
    journal = populated(tmp_path)
    finished(journal)
    tear(journal.dir / name)
    run = read_run(journal.dir)
    assert len(getattr(run, field)) == kept
    assert run.execution == "finished"
    assert run.notices == (f"{name}: torn last line 3 (7 bytes) ignored",)


def test_zero_filled_tail_after_a_crash_counts_as_torn(tmp_path):
    journal = populated(tmp_path)
    with open(journal.dir / "ledger.jsonl", "ab") as handle:
        handle.write(b"\x00" * 64)
    run = read_run(journal.dir)
    assert len(run.verdicts) == 3
    assert any(n.startswith("ledger.jsonl: torn last line 4") for n in run.notices)


def test_corrupt_middle_line_is_refused_naming_file_and_line(tmp_path):
    journal = populated(tmp_path)
    path = journal.dir / "steps.jsonl"
    lines = path.read_bytes().split(b"\n")
    lines[1] = lines[1][:10]
    path.write_bytes(b"\n".join(lines))
    with pytest.raises(JournalCorrupt) as info:
        read_run(journal.dir)
    assert info.value.path == path and info.value.line_no == 2
    assert "steps.jsonl:2" in str(info.value)


def test_valid_json_of_the_wrong_shape_is_corrupt_even_on_the_last_line(tmp_path):
    journal = populated(tmp_path)
    with open(journal.dir / "ledger.jsonl", "a") as handle:
        handle.write('{"status": "passed"}\n')
    with pytest.raises(JournalCorrupt, match=r"ledger.jsonl:4: not a CheckVerdict"):
        read_run(journal.dir)


def test_run_without_terminal_record_is_interrupted_never_finished(tmp_path):
    journal = populated(tmp_path)
    run = read_run(journal.dir)
    assert run.execution == "interrupted" and run.outcome is None and run.terminal is None
    assert len(run.steps) == 3 and len(run.verdicts) == 3
    assert "run.jsonl: no terminal record: the run was interrupted" in run.notices


def test_torn_terminal_record_reads_as_interrupted_even_with_an_outcome_file(tmp_path):
    journal = populated(tmp_path)
    finished(journal)
    tear(journal.dir / "run.jsonl")
    run = read_run(journal.dir)
    assert run.execution == "interrupted" and run.outcome is None
    assert run.notices == (
        "run.jsonl: torn last line 2 (7 bytes) ignored",
        "run.jsonl: no terminal record: the run was interrupted",
    )


def test_closed_run_with_missing_outcome_keeps_the_terminal_execution_and_says_so(tmp_path):
    journal = populated(tmp_path)
    finished(journal)
    (journal.dir / "outcome.json").unlink()
    run = read_run(journal.dir)
    assert run.execution == "finished" and run.outcome is None
    assert run.notices == ("outcome.json: missing although the run was closed",)


def test_directory_without_a_header_is_refused(tmp_path):
    with pytest.raises(JournalCorrupt, match="missing"):
        read_run(tmp_path)
    (tmp_path / "run.jsonl").write_text("")
    with pytest.raises(JournalCorrupt, match="no header"):
        read_run(tmp_path)


def test_list_runs_finds_run_directories_at_any_depth(tmp_path):
    populated(tmp_path, "b")
    populated(tmp_path / "nested" / "deeper", "a")
    (tmp_path / "not-a-run").mkdir()
    assert list_runs(tmp_path) == (tmp_path / "b", tmp_path / "nested" / "deeper" / "a")
    assert list_runs(tmp_path / "absent") == ()


def test_screen_and_blob_paths_resolve_what_the_journal_stored(tmp_path):
    journal = populated(tmp_path)
    sha = journal.put_screen(b"png")
    ref = journal.put_blob("<x/>", "xml")
    run = read_run(journal.dir)
    assert run.screen_path(sha).read_bytes() == b"png"
    assert run.blob_path(ref).read_text() == "<x/>"
