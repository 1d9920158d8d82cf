"""``fitness.json``: the kit's result as closed, versioned pydantic models (a stable schema for CI trends)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from .thresholds import Thresholds

SCHEMA_VERSION: Literal[1] = 1
"""Bumped whenever a field of ``fitness.json`` changes meaning or goes away."""

Truth = Literal["true", "false", "unsettled"]
"""An item's honest value: true, false, or not settled by any evidence the run records."""
Said = Literal["passed", "failed", "inconclusive", "none"]
"""What the model answered for an item (``none``: no verdict for it, or the call failed)."""
ItemOutcome = Literal["right", "false_pass", "false_fail", "false_unchecked", "unanswered"]
"""How the recorded verdict compares with the truth (``unanswered``: no answer on an unsettled item)."""
Fitness = Literal["fit", "unfit", "not scored"]


class Record(BaseModel):
    """Closed and frozen: an unknown key in ``fitness.json`` is an error, never silently kept."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Usage(Record):
    """Tokens and cost of a set of calls; ``cost_usd`` is None when any call's price was unknown."""

    calls: int = 0
    requests: int = 0
    """Calls plus their re-asks: every reply the model was asked for."""
    tokens: int = 0
    cost_usd: float | None = 0.0
    latency_ms_mean: float = 0.0
    latency_ms_max: float = 0.0


class ItemResult(Record):
    """One judged item of a checker case, against its known truth."""

    item: str
    kind: Literal["goal", "verify", "assert"]
    truth: Truth
    said: Said
    recorded: str
    """The status the harness recorded (``passed``, ``failed``, ``inconclusive``, ``unchecked``)."""
    outcome: ItemOutcome
    stood: bool | None = None
    """For a ``passed``/``failed`` answer: whether the harness let it stand (None for other answers)."""
    rule: str = ""
    """The rule of evidence that rejected the answer (``E4``), or ``E12`` for no verdict; '' otherwise."""
    reason: str = ""
    """The harness's reason, verbatim (it starts with the rule's id)."""
    verdict: int | None = None
    """The verdict's 1-based place in the run's ledger: ``report.html#verdict-N``."""


class CaseResult(Record):
    """One checker case: a recorded run of the simulated phone and the candidate's verdicts on it."""

    name: str
    goal: str
    run: str
    """The run's directory, relative to the output directory (its ``report.html`` shows the evidence)."""
    items: tuple[ItemResult, ...]
    usage: Usage
    invalid_replies: int
    unmatched: tuple[str, ...] = ()
    """What the replies named that is no listed item."""


class CheckerCounts(Record):
    """The checker's items by outcome."""

    items: int
    settled: int
    """Items whose truth the evidence settles (true or false)."""
    right: int
    false_passes_stood: int
    false_passes_blocked: int
    false_fails_stood: int
    false_fails_blocked: int
    false_unchecked_rejected: int
    """A right answer the rules of evidence rejected."""
    false_unchecked_hedged: int
    """``inconclusive`` where the evidence settles the item."""
    false_unchecked_unanswered: int
    """No verdict (or a failed call) where the evidence settles the item."""
    unanswered_unsettled: int

    @property
    def false_unchecked(self) -> int:
        """Settled items left without their honest verdict, however that came about."""
        return self.false_unchecked_rejected + self.false_unchecked_hedged + self.false_unchecked_unanswered


class CheckerScore(Record):
    """The checker part's result."""

    model: str
    cases: tuple[CaseResult, ...]
    counts: CheckerCounts
    right_rate: float
    false_unchecked_rate: float
    invalid_replies: int
    invalid_reply_rate: float
    usage: Usage
    request_budget: int
    """The most checker requests the suite can make (cases × rounds × (1 + re-asks))."""
    fitness: Fitness
    reasons: tuple[str, ...] = ()
    """Each threshold missed, in words ('' when fit)."""


class GoalResult(Record):
    """One operator goal: reached or not, by a probe after the run."""

    name: str
    goal: str
    run: str
    reached: bool
    evidence: str
    """What the probes read after the run (the model's word is never evidence)."""
    claimed: bool
    """The operator claimed ``finish``."""
    outcome: str
    """The run's outcome word."""
    steps: int
    seconds: float
    actions: int
    refused: int
    invalid_replies: int
    usage: Usage


class OperatorScore(Record):
    """The operator part's result (planner and operator roles)."""

    model: str
    goals: tuple[GoalResult, ...]
    reached: int
    goal_rate: float
    steps: int
    actions: int
    refused: int
    refused_rate: float
    invalid_replies: int
    invalid_reply_rate: float
    usage: Usage
    tokens_per_step: float
    cost_per_step_usd: float | None
    fitness: Fitness
    reasons: tuple[str, ...] = ()


class RoleModels(Record):
    """Which model played each role (names only: never a key)."""

    planner: str | None = None
    operator: str | None = None
    checker: str | None = None
    api_base: str | None = None
    """The provider's base URL without credentials or query."""


class FitnessReport(Record):
    """Everything ``fitness.json`` holds."""

    schema_version: Literal[1] = SCHEMA_VERSION
    suite_version: str
    created_at: float
    seconds: float
    models: RoleModels
    thresholds: Thresholds
    operator: OperatorScore | None = None
    checker: CheckerScore | None = None
    verdict: str = Field(min_length=1)
    """The verdict line: ``scripted:honest: fit as operator, fit as checker``."""
