"""The run outcome on three separate axes: execution, task, tests."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ._base import Contract
from .checks import CheckKind, CheckWhen, VerdictStatus
from .models import Usage

Execution = Literal["finished", "interrupted", "crashed"]
TaskStatus = Literal["completed", "partial", "blocked"]
InfraKind = Literal["device", "model", "harness", "usage"]
"""``usage``: the run's configuration forbade what it needed (``--artemis-replay=only`` met a screen its
recording does not cover); not the app's fault, nor the device's."""


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
    """The task axis of an outcome: completed, partial or blocked, why, and the unmet verify items."""

    status: TaskStatus
    reason: str = ""
    unmet: tuple[str, ...] = ()
    """Texts of verify items still unmet at the end."""


class InfraFailure(Contract):
    """An infrastructure failure (device, model provider, harness) that ended the run."""

    kind: InfraKind
    error_class: str
    message: str
    traceback: str = ""
    """The formatted traceback of a ``harness`` failure (a bug in our own code); empty for the outside
    world's failures, whose class and message say all there is."""


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


OutcomeWord = Literal["PASSED", "FAILED", "BLOCKED", "ERROR", "UNCHECKED", "INTERRUPTED"]
OUTCOME_WORDS: tuple[OutcomeWord, ...] = ("PASSED", "FAILED", "BLOCKED", "ERROR", "UNCHECKED", "INTERRUPTED")


def outcome_word(outcome: RunOutcome | None) -> OutcomeWord:
    """The outcome word of a run: the outcome table (docs/outcomes-and-ci.md), the contract users rely on.

    ``None`` (a journal without a terminal record) or an interrupted run is ``INTERRUPTED`` (pytest shows
    it as ``ERROR``). Precedence: a failed assertion wins over everything; then infrastructure; then a
    blocked task or a failed verify item; then any item unchecked or inconclusive; a task that is still
    not completed is blocked. Only a completed task whose every item passed is ``PASSED``.
    """
    if outcome is None or outcome.execution == "interrupted":
        return "INTERRUPTED"
    tally = outcome.tests
    failed_assert = any(i.kind == "assert" and i.status == "failed" for i in tally.items)
    if failed_assert or (tally.failed and not tally.items):  # a failure with no detail still fails
        return "FAILED"
    if outcome.infra is not None or outcome.execution == "crashed":
        return "ERROR"
    if outcome.task.status == "blocked" or tally.with_status("failed"):
        return "BLOCKED"
    if tally.inconclusive or tally.unchecked:
        return "UNCHECKED"
    if outcome.task.status != "completed":
        return "BLOCKED"
    return "PASSED"


_STOPPED_BY = ("circuit breaker", "time budget", "assert failed", "the operator gave up")
"""Stop reasons that are themselves the cause of a blocked run (a breaker, the time budget, a halt, the
operator's own report of what it could not find: its give_up reason is its last word, said once)."""


def blocked_cause(outcome: RunOutcome, last_word: str) -> str:
    """The real cause of a blocked run, for the first line of its message and banner: the breaker (or
    budget, or the operator's give_up) that stopped it, else the agent's last word (``last_word``: its
    last step's decision, which says what it could not find), else the task's own reason."""
    stop = outcome.stop_reason
    if stop.startswith(_STOPPED_BY):
        return stop
    word = " ".join(last_word.split())
    if word:
        ended = f"{stop}, after {outcome.steps} steps" if stop else f"after {outcome.steps} steps"
        return f"the agent's last word: {word!r} ({ended})"
    return outcome.task.reason or stop or "the goal was not reached"
