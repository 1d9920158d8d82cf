"""Replay recordings: one JSON file per test and goal, holding screen signatures and decisions only.

Layout of the recordings directory (commit it next to the tests)::

    <sanitized node id>--<goal hash>.json   one Recording per test and goal text
    .gitignore                               keeps the lock and temporary files out of version control
    .lock                                    serialises writers (xdist workers, CI jobs on a shared disk)

A file is replaced whole: written to a temporary file in the same directory, then renamed over the old
one while the directory lock is held, so a reader (another worker, another machine) sees the old file
or the new one, never a torn one. A recording holds no screenshots and no hierarchy: only signatures
(hashes), the planner's plan text and the operator's decisions (which may quote what the model read on
screen); the caller keeps anything carrying a secret out.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from filelock import FileLock
from pydantic import Field, ValidationError

from pytest_artemis.contracts import Action
from pytest_artemis.contracts._base import Contract

SUFFIX = ".json"
LOCK_NAME = ".lock"
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_GITIGNORE = "# written by pytest-artemis: the lock and temporary files of the recordings\n.lock\n.*.tmp\n"


class RecordedTurn(Contract):
    """One operator turn as recorded: where it was decided, and what was decided."""

    turn: int = Field(ge=1)
    signature: str = Field(min_length=1)
    """The screen signature (``device.signature``) the decision was made on."""
    situation: str = Field(min_length=1)
    """A hash of the operator's other inputs: the turn kind, the plan text and the open findings."""
    decision: str = ""
    actions: tuple[Action, ...] = ()
    targets: tuple[str | None, ...] = ()
    """Per action: the fingerprint of the element it aimed at (None for actions without an element)."""
    plan: str | None = None
    """The operator's plan write of that turn, if any."""


class Recording(Contract):
    """Everything replay needs for one test and goal: the plan and each turn's decision."""

    format: Literal[1] = 1
    node_id: str = Field(min_length=1)
    goal: str
    plan_key: str = Field(min_length=1)
    """A hash of what the planner was given: goal, app, declared checks, whether checks are on."""
    plan: str = Field(min_length=1)
    turns: tuple[RecordedTurn, ...] = ()
    truncated: str = ""
    """Why recording stopped before the run's last turn (e.g. a decision carried a secret)."""
    recorded_at: float = Field(default_factory=time.time)

    def same_path(self, other: Recording) -> bool:
        """Whether ``other`` records the same plan and turns (the time of recording aside)."""
        return self.model_dump(exclude={"recorded_at"}) == other.model_dump(exclude={"recorded_at"})


@dataclass(frozen=True)
class Loaded:
    """What was found for one test and goal: the recording (None if absent or unusable) and why not."""

    path: Path
    recording: Recording | None
    problem: str = ""
    """Non-empty when a file exists but cannot be used (unreadable, another format, another test)."""


def goal_hash(goal: str) -> str:
    return hashlib.sha256(goal.encode("utf-8")).hexdigest()[:12]


def node_stem(node_id: str) -> str:
    """The file-name stem of a node id (long ids keep a hash of the whole id)."""
    name = _UNSAFE.sub("_", node_id.replace("::", "__")).strip("._") or "test"
    if len(name) > 120:
        name = f"{name[:100]}-{hashlib.sha256(node_id.encode('utf-8')).hexdigest()[:12]}"
    return name


class RecordingStore:
    """The recordings directory: load, list and atomically replace per-test recordings."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    def path_for(self, node_id: str, goal: str) -> Path:
        return self.root / f"{node_stem(node_id)}--{goal_hash(goal)}{SUFFIX}"

    def load(self, node_id: str, goal: str) -> Loaded:
        """The recording of ``node_id`` for ``goal``; a broken or foreign file is reported, not used."""
        path = self.path_for(node_id, goal)
        if not path.is_file():
            return Loaded(path, None)
        try:
            recording = Recording.model_validate_json(path.read_bytes())
        except (OSError, ValidationError, ValueError) as exc:
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            return Loaded(path, None, f"unreadable recording {path.name} ({first}); it is not used")
        if recording.node_id != node_id or recording.goal != goal:
            return Loaded(path, None, f"{path.name} records another test or goal "
                                      f"({recording.node_id!r}, {recording.goal!r}); it is not used")
        return Loaded(path, recording)

    def other_goals(self, node_id: str, goal: str) -> tuple[tuple[Path, str], ...]:
        """Recordings of ``node_id`` under another goal text: (file, its goal), e.g. after a goal edit."""
        if not self.root.is_dir():
            return ()
        own = self.path_for(node_id, goal)
        found = []
        for path in sorted(self.root.glob(f"{node_stem(node_id)}--*{SUFFIX}")):
            if path == own:
                continue
            try:
                recording = Recording.model_validate_json(path.read_bytes())
            except (OSError, ValidationError, ValueError):
                found.append((path, "(unreadable)"))
                continue
            if recording.node_id == node_id:
                found.append((path, recording.goal))
        return tuple(found)

    def recorded(self) -> tuple[tuple[Path, str], ...]:
        """Every readable recording in the directory: (file, the node id it records)."""
        if not self.root.is_dir():
            return ()
        found = []
        for path in sorted(self.root.glob(f"*{SUFFIX}")):
            try:
                found.append((path, Recording.model_validate_json(path.read_bytes()).node_id))
            except (OSError, ValidationError, ValueError):
                continue  # an unreadable file is reported by the test that loads it
        return tuple(found)

    def save(self, recording: Recording) -> Path:
        """Replace the file of ``recording`` atomically under the directory lock; returns its path."""
        self.root.mkdir(parents=True, exist_ok=True)
        ignore = self.root / ".gitignore"
        path = self.path_for(recording.node_id, recording.goal)
        body = json.dumps(recording.model_dump(mode="json"), ensure_ascii=False, indent=1) + "\n"
        with FileLock(str(self.root / LOCK_NAME), timeout=60):
            if not ignore.exists():
                _replace(ignore, _GITIGNORE)
            _replace(path, body)
        return path


def _replace(path: Path, text: str) -> None:
    """Write ``text`` to a unique temporary file beside ``path``, flush it to disk, rename it over."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
