"""The run outcome on three separate axes: execution, task, tests (DESIGN.md §2)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ._base import Contract
from .checks import CheckKind, CheckWhen, VerdictStatus
from .models import Usage

Execution = Literal["finished", "interrupted", "crashed"]
TaskStatus = Literal["completed", "partial", "blocked"]
InfraKind = Literal["device", "model", "harness"]


class ItemSummary(Contract):
    """The current verdict of one item, as the test summary and JUnit report it."""

    text: str
    kind: CheckKind
    when: CheckWhen
    status: VerdictStatus
    evidence: str = ""
    reason: str = ""


class TestTally(Contract):
    """Counts of the current verdict per item, and the items that were not passed."""

    __test__ = False  # not a pytest test class, despite its name

    passed: int = 0
    failed: int = 0
    inconclusive: int = 0
    unchecked: int = 0
    items: tuple[ItemSummary, ...] = ()

    def with_status(self, *statuses: VerdictStatus) -> tuple[ItemSummary, ...]:
        return tuple(i for i in self.items if i.status in statuses)


class TaskResult(Contract):
    status: TaskStatus
    reason: str = ""
    unmet: tuple[str, ...] = ()
    """Texts of verify items still unmet at the end."""


class InfraFailure(Contract):
    """An infrastructure failure (device, model provider, harness) that ended the run."""

    kind: InfraKind
    error_class: str
    message: str


class RunOutcome(Contract):
    """What one run produced; written to ``outcome.json``."""

    run_id: str
    execution: Execution
    task: TaskResult
    tests: TestTally = Field(default_factory=TestTally)
    usage: Usage = Field(default_factory=Usage)
    steps: int = 0
    stop_reason: str = ""
    infra: InfraFailure | None = None
    device: str = ""
    started_at: float
    finished_at: float
