"""The per-run journal: append-only JSON lines, content-addressed screens, plan history.

Layout of ``<root>/<run_id>/``::

    run.jsonl           header record (status RUNNING) ... terminal record appended by close()
    steps.jsonl         StepRecord per line
    ledger.jsonl        CheckVerdict per line (every attempt, superseded ones included)
    model_calls.jsonl   ModelCallRecord per line
    events.jsonl        free-form engine events: {"kind", "at", "fields"}
    screens/<hash>.png  a screenshot, named by the hash of the frame the device sent (``Capture.sha256``)
    screens/<sha256>.<ext>   a blob, content-addressed; every file is written once
    plan/0001.md ...    every plan version
    outcome.json        RunOutcome (written by close(), before the terminal record)

Every line is written with one ``write`` and flushed (``os.fsync`` too when ``fsync=True``); all writes
hold one lock, so checkpoint tasks and the operator may append concurrently. Every text passes through
the ``Redactor`` first (screenshots are pixels and are not redacted). A screenshot handed over as a capture
is encoded and written in the background (``ScreenWriter``); ``close()`` waits for every one.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import re
import threading
import time
from pathlib import Path
from typing import IO, Literal

from pydantic import BaseModel, Field, JsonValue, TypeAdapter

from pytest_artemis.contracts import (
    CheckItem,
    CheckVerdict,
    Execution,
    ModelCallRecord,
    RunOutcome,
    StepRecord,
)
from pytest_artemis.contracts._base import Contract
from pytest_artemis.contracts.errors import ArtemisError, InfrastructureError

from .redact import Redactor
from .screen_writer import Encodable, ScreenWriter

RUN_FILE = "run.jsonl"
STEPS_FILE = "steps.jsonl"
LEDGER_FILE = "ledger.jsonl"
MODEL_CALLS_FILE = "model_calls.jsonl"
EVENTS_FILE = "events.jsonl"
OUTCOME_FILE = "outcome.json"
SCREENS_DIR = "screens"
PLAN_DIR = "plan"
_TEXT_EXTS = frozenset({"xml", "txt", "json", "md", "html", "log", "csv"})
_SAFE = re.compile(r"[^A-Za-z0-9._-]")
_EXT = re.compile(r"^[A-Za-z0-9]{1,16}$")
_JSON: TypeAdapter[JsonValue] = TypeAdapter(JsonValue)


class RunHeader(Contract):
    """The first line of ``run.jsonl``: who ran what, where, with which models."""

    record: Literal["header"] = "header"
    status: Literal["RUNNING"] = "RUNNING"
    run_id: str = Field(min_length=1)
    goal: str
    test_id: str = ""
    app: str | None = None
    device: str = ""
    checks: tuple[CheckItem, ...] = ()
    models: dict[str, str] = Field(default_factory=dict)
    """Role → model name."""
    config: dict[str, JsonValue] = Field(default_factory=dict)
    started_at: float = Field(default_factory=time.time)


class RunTerminal(Contract):
    """The last line of ``run.jsonl`` of a closed run; its absence means the run was interrupted."""

    record: Literal["terminal"] = "terminal"
    execution: Execution
    finished_at: float


class Event(Contract):
    """One line of ``events.jsonl``: a free-form engine event (kind + JSON-safe fields)."""

    kind: str = Field(min_length=1)
    at: float
    fields: dict[str, JsonValue] = Field(default_factory=dict)


class JournalClosed(ArtemisError):
    """A write to a journal after ``close()`` (the run's record is final)."""


class ArtifactsWriteFailed(InfrastructureError):
    """The operating system refused a journal write (a full disk, a file size limit, a read-only mount).

    Nothing torn stays behind: a refused line is cut off again and a refused file is never renamed into
    place, so what was written before still reads back.
    """

    @classmethod
    def of(cls, path: Path, exc: OSError) -> ArtifactsWriteFailed:
        return cls(f"cannot write {path}: {exc.strerror or exc} (errno {exc.errno}): free space there, "
                   "or write the artifacts elsewhere")


def _write_all(handle: IO[bytes], data: bytes) -> None:
    """Write every byte through an unbuffered handle (a write near a size limit can be partial)."""
    view = memoryview(data)
    while view:
        written = handle.write(view)
        if not written:
            raise OSError(errno.EIO, "the write made no progress")
        view = view[written:]


def safe_name(run_id: str) -> str:
    """The directory name for a run id: characters outside ``[A-Za-z0-9._-]`` become ``_``."""
    name = _SAFE.sub("_", run_id).strip(".")
    return name or "run"


def _jsonable(value: object) -> JsonValue:
    """A JSON-safe value: pydantic models are dumped, tuples become lists, anything else must be JSON."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    return _JSON.validate_python(value, strict=True)


class RunJournal:
    """Writer of one run's artifacts directory. Create with ``RunJournal.create``."""

    def __init__(self, run_dir: Path, header: RunHeader, *, fsync: bool, redactor: Redactor) -> None:
        self.dir = run_dir
        self.header = header
        self.fsync = fsync
        self.redactor = redactor
        self._lock = threading.RLock()
        self._plan_version = 0
        self._closed = False
        self._screens = ScreenWriter(self._write_once)

    @classmethod
    def create(
        cls, root: Path, header: RunHeader, *, fsync: bool = False, redactor: Redactor | None = None
    ) -> RunJournal:
        """Create ``root/<run_id>/`` (refuses an existing journal) and write the header record.

        Without a ``redactor`` one is built from the environment (``Redactor.from_environment()``).
        """
        run_dir = Path(root) / safe_name(header.run_id)
        if (run_dir / RUN_FILE).exists():
            raise FileExistsError(f"a run journal already exists in {run_dir}")
        (run_dir / SCREENS_DIR).mkdir(parents=True, exist_ok=True)
        (run_dir / PLAN_DIR).mkdir(exist_ok=True)
        journal = cls(run_dir, header, fsync=fsync, redactor=redactor or Redactor.from_environment())
        journal._append(RUN_FILE, header)
        return journal

    @property
    def closed(self) -> bool:
        return self._closed

    def _line(self, record: BaseModel | dict[str, JsonValue]) -> str:
        data = record.model_dump(mode="json") if isinstance(record, BaseModel) else record
        return json.dumps(self.redactor.redact_json(data), ensure_ascii=False, separators=(",", ":")) + "\n"

    def _sync(self, handle: IO[str] | IO[bytes]) -> None:
        handle.flush()
        if self.fsync:
            os.fsync(handle.fileno())

    def _append(self, name: str, record: BaseModel | dict[str, JsonValue]) -> None:
        self._screens.raise_failure()  # a screenshot that could not be written fails the next write
        line = self._line(record).encode("utf-8")
        with self._lock:
            if self._closed:
                raise JournalClosed(f"journal {self.dir} is closed; cannot append to {name}")
            path = self.dir / name
            try:
                with open(path, "ab", buffering=0) as handle:
                    start = handle.seek(0, os.SEEK_END)
                    try:
                        _write_all(handle, line)
                        self._sync(handle)
                    except OSError:
                        handle.truncate(start)  # no torn line: the lines before it still read back
                        raise
            except OSError as exc:
                raise ArtifactsWriteFailed.of(path, exc) from exc

    def _write_once(self, path: Path, data: bytes) -> None:
        """Write ``data`` to ``path`` atomically (temp file + rename) unless it already exists."""
        with self._lock:
            if path.exists():
                return
            tmp = path.with_name(f".{path.name}.tmp")
            try:
                with open(tmp, "wb") as handle:
                    handle.write(data)
                    self._sync(handle)
                os.replace(tmp, path)
            except OSError as exc:
                with contextlib.suppress(OSError):  # the directory itself may be what failed
                    tmp.unlink(missing_ok=True)
                raise ArtifactsWriteFailed.of(path, exc) from exc

    def put_screen(self, screen: Encodable | bytes) -> str:
        """Store a screenshot as ``screens/<hash>.png`` (once); returns the hash.

        PNG bytes are hashed and written now. A capture (anything with a ``png`` and its ``sha256``) is
        named by its hash and encoded and written in the background: ``screen_png`` serves it meanwhile,
        and ``close`` waits for it.
        """
        self._screens.raise_failure()
        if isinstance(screen, bytes):
            sha = hashlib.sha256(screen).hexdigest()
            self._write_once(self.dir / SCREENS_DIR / f"{sha}.png", screen)
            return sha
        sha = screen.sha256
        path = self.dir / SCREENS_DIR / f"{sha}.png"
        if not path.exists():
            self._screens.submit(path, screen)
        return sha

    def screen_png(self, sha: str) -> bytes | None:
        """The PNG of a stored screenshot (from memory while its write is pending); None when unknown."""
        path = self.dir / SCREENS_DIR / f"{sha}.png"
        pending = self._screens.png(path)
        if pending is not None:
            return pending
        try:
            return path.read_bytes()
        except FileNotFoundError:
            return None

    def flush_screens(self) -> None:
        """Wait until every screenshot handed over so far is on disk (ArtifactsWriteFailed for one that
        could not be written)."""
        self._screens.flush()

    def put_blob(self, data: bytes | str, ext: str) -> str:
        """Store a blob as ``screens/<sha256>.<ext>`` (once); returns that file name (the reference).

        Text (a ``str``, or bytes with a text extension such as ``xml``) is redacted before hashing.
        """
        if not _EXT.match(ext):
            raise ValueError(f"invalid blob extension {ext!r}")
        if isinstance(data, bytes) and ext.lower() in _TEXT_EXTS:
            data = data.decode("utf-8", errors="surrogateescape")
        if isinstance(data, str):
            data = self.redactor.redact(data).encode("utf-8", errors="surrogateescape")
        ref = f"{hashlib.sha256(data).hexdigest()}.{ext}"
        self._write_once(self.dir / SCREENS_DIR / ref, data)
        return ref

    def append_step(self, step: StepRecord) -> None:
        """Append one step record to ``steps.jsonl``."""
        self._append(STEPS_FILE, step)

    def append_verdict(self, verdict: CheckVerdict) -> None:
        """Append one verdict to ``ledger.jsonl`` (never rewritten)."""
        self._append(LEDGER_FILE, verdict)

    def append_model_call(self, record: ModelCallRecord) -> None:
        """Append one model-call diagnostics record to ``model_calls.jsonl``."""
        self._append(MODEL_CALLS_FILE, record)

    def append_event(self, kind: str, **fields: object) -> None:
        """Append a free-form engine event; fields must be JSON-safe (pydantic models are dumped)."""
        event = Event(kind=kind, at=time.time(), fields={k: _jsonable(v) for k, v in fields.items()})
        self._append(EVENTS_FILE, event)

    def write_plan(self, text: str) -> int:
        """Store a plan version as ``plan/NNNN.md``; returns its version number (1, 2, …)."""
        data = self.redactor.redact(text).encode("utf-8")
        with self._lock:
            if self._closed:
                raise JournalClosed(f"journal {self.dir} is closed; cannot write a plan")
            self._plan_version += 1
            version = self._plan_version
            self._write_once(self.dir / PLAN_DIR / f"{version:04d}.md", data)
        return version

    def close(self, outcome: RunOutcome) -> None:
        """Wait for the screenshots still being written, then write ``outcome.json`` and the terminal record;
        later writes raise ``JournalClosed``.

        The outcome is decided by now: a screenshot that could not be written is recorded (a
        ``screens_not_written`` event; ``read_run`` names the file missing), not raised. A run that must
        fail on it flushes first (``flush_screens``)."""
        lost = self._screens.settle()
        if lost is not None:
            self.append_event("screens_not_written", error=str(lost)[:500])
        body = json.dumps(
            self.redactor.redact_json(outcome.model_dump(mode="json")), ensure_ascii=False, indent=2
        )
        with self._lock:
            if self._closed:
                raise JournalClosed(f"journal {self.dir} is already closed")
            self._write_once(self.dir / OUTCOME_FILE, (body + "\n").encode("utf-8"))
            self._append(RUN_FILE, RunTerminal(execution=outcome.execution, finished_at=outcome.finished_at))
            self._closed = True
