"""Read a run's artifacts back into typed records, tolerating a torn last line and nothing worse.

* A last line of any ``.jsonl`` that is not valid JSON (a write cut short by a crash) is dropped and
  reported in ``RunRecord.notices``; the valid prefix is kept.
* Any other unreadable line — invalid JSON before the last line, or valid JSON that is not the expected
  record — raises ``JournalCorrupt`` naming the file and the 1-based line number.
* A run without a terminal record reads back as ``execution="interrupted"`` with ``outcome=None`` (no
  outcome is synthesised: the steps and the ledger are all there is) — never as finished.
* A screenshot a step refers to that is not in ``screens/`` (the process died before its background write)
  is named in ``RunRecord.notices``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from pytest_artemis.contracts import (
    CheckVerdict,
    Execution,
    ModelCallRecord,
    RunOutcome,
    StepRecord,
)
from pytest_artemis.contracts._base import Contract
from pytest_artemis.contracts.errors import ArtemisError

from .journal import (
    EVENTS_FILE,
    LEDGER_FILE,
    MODEL_CALLS_FILE,
    OUTCOME_FILE,
    PLAN_DIR,
    RUN_FILE,
    SCREENS_DIR,
    STEPS_FILE,
    Event,
    RunHeader,
    RunTerminal,
)

M = TypeVar("M", bound=BaseModel)


class JournalCorrupt(ArtemisError):
    """A journal file that cannot be trusted: a corrupt line that is not the last, or a missing header."""

    def __init__(self, path: Path, line_no: int | None, problem: str) -> None:
        where = f"{path}:{line_no}" if line_no is not None else str(path)
        super().__init__(f"corrupt journal {where}: {problem}")
        self.path = path
        self.line_no = line_no
        self.problem = problem


class RunRecord(Contract):
    """Everything one run left on disk, typed."""

    dir: Path
    header: RunHeader
    steps: tuple[StepRecord, ...] = ()
    verdicts: tuple[CheckVerdict, ...] = ()
    plans: tuple[str, ...] = ()
    """Plan texts in version order: ``plans[v - 1]`` is version ``v``."""
    model_calls: tuple[ModelCallRecord, ...] = ()
    events: tuple[Event, ...] = ()
    outcome: RunOutcome | None = None
    execution: Execution
    terminal: RunTerminal | None = None
    notices: tuple[str, ...] = ()

    def screen_path(self, sha: str) -> Path:
        """Path of a screenshot stored by ``put_screen``."""
        return self.dir / SCREENS_DIR / f"{sha}.png"

    def blob_path(self, ref: str) -> Path:
        """Path of a blob stored by ``put_blob`` (``ref`` is the name it returned)."""
        return self.dir / SCREENS_DIR / ref


def _json_lines(path: Path, notices: list[str]) -> list[tuple[int, object]]:
    """(line number, parsed JSON) of every non-blank line; a torn last line is dropped with a notice."""
    if not path.exists():
        return []
    raw_lines = path.read_bytes().split(b"\n")
    numbered = [(n, line) for n, line in enumerate(raw_lines, start=1) if line.strip(b" \t\r")]
    parsed: list[tuple[int, object]] = []
    for position, (number, line) in enumerate(numbered):
        try:
            parsed.append((number, json.loads(line.decode("utf-8"))))
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            if position == len(numbered) - 1:
                notices.append(f"{path.name}: torn last line {number} ({len(line)} bytes) ignored")
                break
            raise JournalCorrupt(path, number, f"not a JSON line ({error})") from error
    return parsed


def _typed(path: Path, model: type[M], lines: Sequence[tuple[int, object]]) -> tuple[M, ...]:
    records = []
    for number, data in lines:
        try:
            records.append(model.model_validate(data))
        except ValidationError as error:
            raise JournalCorrupt(path, number, f"not a {model.__name__}: {error}") from error
    return tuple(records)


def _read_jsonl(run_dir: Path, name: str, model: type[M], notices: list[str]) -> tuple[M, ...]:
    path = run_dir / name
    return _typed(path, model, _json_lines(path, notices))


def _read_run_file(run_dir: Path, notices: list[str]) -> tuple[RunHeader, RunTerminal | None]:
    path = run_dir / RUN_FILE
    if not path.exists():
        raise JournalCorrupt(path, None, "missing (not a run directory)")
    lines = _json_lines(path, notices)
    if not lines:
        raise JournalCorrupt(path, 1, "no header record")
    (header,) = _typed(path, RunHeader, lines[:1])
    terminals = _typed(path, RunTerminal, lines[1:])
    if len(terminals) > 1:
        raise JournalCorrupt(path, lines[2][0], "more than one terminal record")
    return header, (terminals[0] if terminals else None)


def _read_outcome(run_dir: Path, notices: list[str]) -> RunOutcome | None:
    path = run_dir / OUTCOME_FILE
    if not path.exists():
        notices.append(f"{OUTCOME_FILE}: missing although the run was closed")
        return None
    try:
        return RunOutcome.model_validate_json(path.read_bytes())
    except ValidationError as error:
        notices.append(f"{OUTCOME_FILE}: unreadable ({error.error_count()} errors) and ignored")
        return None


def _read_plans(run_dir: Path) -> tuple[str, ...]:
    files = [p for p in (run_dir / PLAN_DIR).glob("*.md") if p.stem.isdigit()]
    return tuple(p.read_text(encoding="utf-8") for p in sorted(files, key=lambda p: int(p.stem)))


def _missing_screens(run_dir: Path, steps: Sequence[StepRecord], notices: list[str]) -> None:
    missing = [f"step {s.step} {which}" for s in steps
               for which, ref in (("pre", s.pre_screen), ("post", s.post_screen))
               if ref and not (run_dir / SCREENS_DIR / f"{ref}.png").exists()]
    if missing:
        shown = ", ".join(missing[:8]) + (f" and {len(missing) - 8} more" if len(missing) > 8 else "")
        notices.append(f"{SCREENS_DIR}/: {len(missing)} screenshot(s) the steps refer to were never written "
                       f"(the run ended before they were): {shown}")


def read_run(run_dir: Path | str) -> RunRecord:
    """Read one run directory (see the module docstring for what is tolerated and what raises)."""
    run_dir = Path(run_dir)
    notices: list[str] = []
    header, terminal = _read_run_file(run_dir, notices)
    steps = _read_jsonl(run_dir, STEPS_FILE, StepRecord, notices)
    _missing_screens(run_dir, steps, notices)
    verdicts = _read_jsonl(run_dir, LEDGER_FILE, CheckVerdict, notices)
    calls = _read_jsonl(run_dir, MODEL_CALLS_FILE, ModelCallRecord, notices)
    events = _read_jsonl(run_dir, EVENTS_FILE, Event, notices)
    execution: Execution
    if terminal is None:
        notices.append(f"{RUN_FILE}: no terminal record: the run was interrupted")
        outcome, execution = None, "interrupted"
    else:
        outcome, execution = _read_outcome(run_dir, notices), terminal.execution
    return RunRecord(
        dir=run_dir,
        header=header,
        steps=steps,
        verdicts=verdicts,
        plans=_read_plans(run_dir),
        model_calls=calls,
        events=events,
        outcome=outcome,
        execution=execution,
        terminal=terminal,
        notices=tuple(notices),
    )


def list_runs(artifacts_root: Path | str) -> tuple[Path, ...]:
    """Every run directory (one holding ``run.jsonl``) under ``artifacts_root``, at any depth, sorted."""
    root = Path(artifacts_root)
    if not root.is_dir():
        return ()
    return tuple(sorted(p.parent for p in root.rglob(RUN_FILE)))
