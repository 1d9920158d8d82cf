"""The run journal: layout, content addressing, plan history, events, closing, concurrent appends."""

import contextlib
import hashlib
import json
import resource
import signal
import threading
from collections.abc import Iterator

import pytest

from pytest_artemis.contracts import CheckVerdict, RunOutcome, StepRecord, Tap, TaskResult
from pytest_artemis.store import (
    ArtifactsWriteFailed,
    JournalClosed,
    Redactor,
    RunHeader,
    RunJournal,
    read_run,
)

T0 = 1764493200.5


def header(run_id="run-1"):
    return RunHeader(run_id=run_id, goal="Create a 7:30 AM alarm", device="emulator-5554", started_at=T0)


def verdict(n, status="passed"):
    return CheckVerdict(
        item_key="a1b2c3d4e5f6",
        item_text="Alarm listed",
        kind="verify",
        when="complete",
        status=status,
        evidence=f"attempt {n}",
        source="model",
        attempt_id=f"cp#{n}",
        checkpoint_id="cp",
        started_at=T0,
        finished_at=T0 + n,
    )


def outcome(execution="finished"):
    return RunOutcome(
        run_id="run-1",
        execution=execution,
        task=TaskResult(status="completed"),
        started_at=T0,
        finished_at=T0 + 9,
    )


@pytest.fixture
def journal(tmp_path):
    return RunJournal.create(tmp_path, header(), redactor=Redactor())


def test_create_writes_the_running_header_first(tmp_path, journal):
    assert journal.dir == tmp_path / "run-1"
    first = json.loads((journal.dir / "run.jsonl").read_text().splitlines()[0])
    assert first["record"] == "header" and first["status"] == "RUNNING" and first["run_id"] == "run-1"
    assert read_run(journal.dir).header == header()


def test_create_refuses_to_overwrite_an_existing_journal(tmp_path, journal):
    with pytest.raises(FileExistsError):
        RunJournal.create(tmp_path, header(), redactor=Redactor())


def test_run_ids_become_safe_directory_names(tmp_path):
    made = RunJournal.create(tmp_path, header("tests/test_a.py::test_x[sim-0]"), redactor=Redactor())
    assert made.dir.parent == tmp_path
    assert made.dir.name == "tests_test_a.py__test_x_sim-0_"


def test_screens_are_content_addressed_and_written_once(journal):
    png = b"\x89PNG\r\n\x1a\n fake image bytes"
    sha = journal.put_screen(png)
    assert sha == hashlib.sha256(png).hexdigest()
    path = journal.dir / "screens" / f"{sha}.png"
    mtime = path.stat().st_mtime_ns
    assert journal.put_screen(png) == sha
    assert path.read_bytes() == png and path.stat().st_mtime_ns == mtime
    assert sorted(p.name for p in (journal.dir / "screens").iterdir()) == [f"{sha}.png"]


def test_blobs_are_stored_under_screens_with_their_extension(journal):
    ref = journal.put_blob('<hierarchy rotation="0"/>', "xml")
    assert ref.endswith(".xml") and (journal.dir / "screens" / ref).read_text() == '<hierarchy rotation="0"/>'
    assert journal.put_blob(b'<hierarchy rotation="0"/>', "xml") == ref
    with pytest.raises(ValueError, match="extension"):
        journal.put_blob(b"x", "../evil")


def test_plan_versions_are_numbered_files(journal):
    assert journal.write_plan("- [ ] A\n") == 1
    assert journal.write_plan("- [x] A\n") == 2
    assert (journal.dir / "plan" / "0002.md").read_text() == "- [x] A\n"
    assert read_run(journal.dir).plans == ("- [ ] A\n", "- [x] A\n")


def test_records_and_events_read_back_typed(journal):
    step = StepRecord(step=1, actions=(Tap(element=1),), plan_version=1, started_at=T0, finished_at=T0 + 1)
    journal.append_step(step)
    journal.append_verdict(verdict(1))
    journal.append_event("checkpoint_spawned", subgoal="0123456789ab", items=("a", "b"), action=Tap(x=1, y=2))
    run = read_run(journal.dir)
    assert run.steps == (step,) and run.verdicts == (verdict(1),)
    event = run.events[0]
    assert event.kind == "checkpoint_spawned"
    assert event.fields == {
        "subgoal": "0123456789ab",
        "items": ["a", "b"],
        "action": {"kind": "tap", "element": None, "x": 1, "y": 2},
    }


def test_events_refuse_values_that_are_not_json(journal):
    with pytest.raises(ValueError):
        journal.append_event("bad", value=object())


def test_every_line_is_on_disk_as_soon_as_append_returns(tmp_path):
    synced = RunJournal.create(tmp_path, header(), fsync=True, redactor=Redactor())
    synced.append_verdict(verdict(1))
    # Read through a separate handle while the journal object stays open: nothing is buffered.
    assert json.loads((synced.dir / "ledger.jsonl").read_text())["attempt_id"] == "cp#1"


def test_close_writes_outcome_then_terminal_and_refuses_later_writes(journal):
    journal.close(outcome())
    lines = (journal.dir / "run.jsonl").read_text().splitlines()
    assert json.loads(lines[-1]) == {"record": "terminal", "execution": "finished", "finished_at": T0 + 9}
    run = read_run(journal.dir)
    assert run.execution == "finished" and run.outcome == outcome() and run.notices == ()
    assert journal.closed
    with pytest.raises(JournalClosed):
        journal.append_verdict(verdict(2))
    with pytest.raises(JournalClosed):
        journal.write_plan("- [ ] late\n")
    with pytest.raises(JournalClosed):
        journal.close(outcome())


def test_crashed_execution_is_kept_by_the_terminal_record(journal):
    journal.close(outcome("crashed"))
    assert read_run(journal.dir).execution == "crashed"


def test_concurrent_appends_from_many_threads_never_interleave(journal):
    def writer(base):
        for n in range(50):
            journal.append_verdict(verdict(base + n))
            journal.append_event("tick", n=base + n)

    threads = [threading.Thread(target=writer, args=(1000 * t,)) for t in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    run = read_run(journal.dir)
    assert len(run.verdicts) == 400 and len(run.events) == 400
    assert {v.attempt_id for v in run.verdicts} == {f"cp#{1000 * t + n}" for t in range(8) for n in range(50)}
    assert run.notices == ("run.jsonl: no terminal record: the run was interrupted",)


@contextlib.contextmanager
def file_size_limit(limit: int) -> Iterator[None]:
    """Lower this process's file size limit (``RLIMIT_FSIZE``, SIGXFSZ ignored) inside the block: writes
    past it fail with a real ``EFBIG``, as on a full disk. Restored on leaving the block, before pytest
    writes its report (its output may go to a file already longer than the limit)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    previous = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, previous)


def test_a_refused_append_leaves_no_torn_line_and_the_journal_still_closes(journal):
    for n in range(3):
        journal.append_verdict(verdict(n))
    ledger = journal.dir / "ledger.jsonl"
    before = ledger.read_bytes()
    with file_size_limit(len(before) + 100), pytest.raises(  # the next line (over 300 bytes) only partly fits
            ArtifactsWriteFailed, match=r"cannot write .*ledger\.jsonl: File too large"):
        journal.append_verdict(verdict(3))
    assert ledger.read_bytes() == before
    journal.close(outcome())
    record = read_run(journal.dir)
    assert record.execution == "finished" and len(record.verdicts) == 3


def test_a_refused_screen_leaves_no_temporary_file(journal):
    with file_size_limit(10_000), pytest.raises(ArtifactsWriteFailed, match="File too large"):
        journal.put_screen(b"\x89PNG" + b"0" * 20_000)
    assert list((journal.dir / "screens").iterdir()) == []
