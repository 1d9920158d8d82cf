"""The fitness thresholds: one definition, read by the scoring, written into ``fitness.json`` and rendered
into ``docs/models-and-costs.md`` by ``docs.py`` (a test keeps the page equal to :func:`render_markdown`)."""

from __future__ import annotations

import math

from pydantic import BaseModel, ConfigDict, Field


class Contract(BaseModel):
    """Closed and frozen, with each field's docstring as its description (rendered into the docs)."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


class CheckerThresholds(Contract):
    """What a checker model must score on the kit's checker cases to be called fit."""

    min_right_rate: float = Field(default=0.90, ge=0, le=1)
    """Items whose recorded verdict is the honest one, of all items."""
    max_false_passes_stood: int = Field(default=0, ge=0)
    """``passed`` verdicts the harness let stand on items that are false or that no evidence settles."""
    max_false_unchecked_rate: float = Field(default=0.10, ge=0, le=1)
    """Items the evidence settles that ended without their honest verdict (hedged, unanswered, or a right
    answer the rules of evidence rejected), of the items the evidence settles."""
    max_invalid_reply_rate: float = Field(default=0.10, ge=0, le=1)
    """Replies that were not valid (unparseable, off-schema, naming no listed item, contradicting
    themselves), of all checker requests."""


class OperatorThresholds(Contract):
    """What a planner + operator model must score on the kit's goals to be called fit."""

    min_goal_rate: float = Field(default=0.75, ge=0, le=1)
    """Goals reached, read back from the phone by a probe after the run, of all goals."""
    max_refused_rate: float = Field(default=0.10, ge=0, le=1)
    """Actions the harness or the device refused, of all actions the model asked for."""
    max_invalid_reply_rate: float = Field(default=0.10, ge=0, le=1)
    """Planner and operator replies that were not valid (re-asked or failed), of all their requests."""


class Thresholds(Contract):
    """Both roles' thresholds."""

    checker: CheckerThresholds = Field(default_factory=CheckerThresholds)
    operator: OperatorThresholds = Field(default_factory=OperatorThresholds)


THRESHOLDS = Thresholds()
"""The thresholds the kit judges fitness by."""

_WHY = {
    "min_right_rate": "a checker wrong on one item in ten turns a suite of ten checks into a coin toss on "
                      "whether a run is judged right",
    "max_false_passes_stood": "a false pass is the one error nobody sees: a green test on a broken app",
    "max_false_unchecked_rate": "each one is an UNCHECKED test someone must judge by hand; past one in ten "
                                "the checker saves little work",
    "max_invalid_reply_rate": "each invalid reply costs a re-ask (time and tokens), and a second one loses "
                              "the judgement",
    "min_goal_rate": "a goal missed here is a test BLOCKED in your suite",
    "max_refused_rate": "a refused action is a wasted turn, and four in a row trip the circuit breaker",
}


def _shown(name: str, value: float) -> str:
    if name.endswith("_rate"):
        return f"{value:.0%}"
    return str(int(value))


def _rows(role: str, model: Contract, notes: dict[str, str]) -> list[str]:
    rows = []
    for name, field in type(model).model_fields.items():
        bound = "at least" if name.startswith("min_") else "at most"
        value = _shown(name, getattr(model, name))
        doc = " ".join((field.description or "").split())
        rows.append(f"| {role} | `{name}` | {bound} {value} | {doc} | {_WHY[name]}{notes.get(name, '')} |")
    return rows


def allowed_misses(rate: float, total: int) -> int:
    """How many of ``total`` may be missed while ``rate`` of them must be met."""
    return total - math.ceil(round(rate * total, 9))


def render_markdown(goals: int, thresholds: Thresholds = THRESHOLDS) -> str:
    """The thresholds as the table the docs carry (``goals``: how many goals the operator part has)."""
    misses = allowed_misses(thresholds.operator.min_goal_rate, goals)
    notes = {"min_goal_rate": f" (of the kit's {goals} goals, {misses} may be missed)"}
    rows = ["| role | threshold | value | what it counts | why |", "|---|---|---|---|---|"]
    rows += _rows("checker", thresholds.checker, {}) + _rows("operator", thresholds.operator, notes)
    return "\n".join(rows)

