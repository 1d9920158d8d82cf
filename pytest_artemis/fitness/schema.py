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

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


class Usage(Record):
    """Tokens and cost of a set of calls; ``cost_usd`` is None when any call's price was unknown."""

    calls: int = 0
    """Model calls, as ``model_calls.jsonl`` logs them."""
    requests: int = 0
    """Calls plus their re-asks: every reply the model was asked for."""
    tokens: int = 0
    """Prompt and completion tokens."""
    cost_usd: float | None = 0.0
    """Dollars; None when any call's price was unknown (never a made-up zero)."""
    latency_ms_mean: float = 0.0
    """Milliseconds per call, on average."""
    latency_ms_max: float = 0.0
    """Milliseconds of the slowest call."""


class ItemResult(Record):
    """One judged item of a checker case, against its known truth."""

    item: str
    """The item's text, verbatim."""
    kind: Literal["goal", "verify", "assert"]
    """``goal`` (the original goal's own verdict), ``verify`` or ``assert``."""
    truth: Truth
    """Its honest value: ``true``, ``false``, or ``unsettled`` (nothing the run records settles it)."""
    said: Said
    """What the model answered: ``passed``, ``failed``, ``inconclusive``, or ``none`` (no verdict for it, or
    the call failed)."""
    recorded: str
    """The status the harness recorded (``passed``, ``failed``, ``inconclusive``, ``unchecked``)."""
    outcome: ItemOutcome
    """``right``, ``false_pass``, ``false_fail``, ``false_unchecked`` (settled, but not answered right or the
    right answer rejected) or ``unanswered`` (no answer on an unsettled item)."""
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
    """Replies that could not be used as they were (see ``CheckerScore.invalid_replies``)."""
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
    """The checker model's name."""
    cases: tuple[CaseResult, ...]
    """Each case: its run, its items against their truth, its calls."""
    counts: CheckerCounts
    """The items by outcome (false passes and fails split by whether the harness let them stand)."""
    right_rate: float
    """Items whose recorded verdict is the honest one, of all items."""
    false_unchecked_rate: float
    """Settled items left without their honest verdict, of all settled items."""
    invalid_replies: int
    """Replies re-asked or failed as unusable, replies naming no listed item, replies contradicting
    themselves."""
    invalid_reply_rate: float
    """Invalid replies of all checker requests."""
    usage: Usage
    """The checker's calls: requests (re-asks included), tokens, cost, latency."""
    request_budget: int
    """The most checker requests the suite can make (cases × rounds × (1 + re-asks))."""
    fitness: Fitness
    """``fit``, ``unfit``, or ``not scored`` (no call reached the model)."""
    reasons: tuple[str, ...] = ()
    """Each threshold missed, in words (none when fit)."""


class GoalResult(Record):
    """One operator goal: reached or not, by a probe after the run."""

    name: str
    """The goal's short name (``alarm-645``)."""
    goal: str
    """The goal as the model was given it."""
    run: str
    """The run's directory, relative to the output directory."""
    reached: bool
    """Every success probe holds after the run (none held before it)."""
    evidence: str
    """What the probes read after the run (the model's word is never evidence)."""
    claimed: bool
    """The operator claimed ``finish``."""
    outcome: str
    """The run's outcome word."""
    steps: int
    seconds: float
    """Wall time of the run."""
    actions: int
    """Actions the operator asked for."""
    refused: int
    """Actions the harness or the device refused."""
    invalid_replies: int
    """Planner and operator replies re-asked or failed as unusable."""
    usage: Usage
    """The planner's and operator's calls."""


class OperatorScore(Record):
    """The operator part's result (planner and operator roles)."""

    model: str
    """The operator model's name (the planner's too, unless it has its own)."""
    goals: tuple[GoalResult, ...]
    """Each goal: reached or not by its probes, its run, its steps and calls."""
    reached: int
    goal_rate: float
    """Goals reached, of all goals."""
    steps: int
    actions: int
    refused: int
    refused_rate: float
    """Refused actions, of all actions."""
    invalid_replies: int
    invalid_reply_rate: float
    """Invalid planner and operator replies, of all their requests."""
    usage: Usage
    """The planner's and operator's calls over every goal."""
    tokens_per_step: float
    """Planner and operator tokens per recorded step."""
    cost_per_step_usd: float | None
    """None when a price was unknown."""
    fitness: Fitness
    """``fit``, ``unfit``, or ``not scored`` (no call reached the model)."""
    reasons: tuple[str, ...] = ()
    """Each threshold missed, in words."""


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
    """This file's format; it changes only when a field changes meaning or goes away."""
    suite_version: str
    """The built-in suite's version: compare scores of one version only."""
    created_at: float
    """When the kit started (epoch seconds)."""
    seconds: float
    """How long it took."""
    models: RoleModels
    """Which model played each role, and the api base (never a key)."""
    thresholds: Thresholds
    """The thresholds the fitness was judged by."""
    operator: OperatorScore | None = None
    """The operator part (None when no operator model was given)."""
    checker: CheckerScore | None = None
    """The checker part (None when no checker model was given)."""
    verdict: str = Field(min_length=1)
    """The verdict line: ``scripted:honest: fit as operator, fit as checker``."""
