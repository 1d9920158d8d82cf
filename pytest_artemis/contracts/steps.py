"""Step records: one per operator turn, appended to ``steps.jsonl`` and never rewritten."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ._base import Contract
from .actions import Action, ActionResult

TurnKind = Literal["act", "repair", "final_repair"]
StepFlag = Literal[
    "planner_rejected",
    "actions_refused",
    "guard_restored",
    "model_failed",
    "finish_claimed",
    "gave_up",
    "no_effect",
]


class StepRecord(Contract):
    """One recorded turn: what was seen, what was decided, what happened.

    Screens and hierarchies are stored by reference (content hashes under ``screens/``), never inline.
    """

    step: int = Field(ge=1)
    turn: TurnKind = "act"
    pre_screen: str | None = None
    post_screen: str | None = None
    hierarchy: str | None = None
    post_hierarchy: str | None = None
    """The hierarchy dumped after the actions, recorded on turns that marked a subgoal done (the
    evidence its checkpoint is judged from)."""
    foreground: str = ""
    decision: str = ""
    """The operator's own summary of what it is doing (a claim, not evidence)."""
    actions: tuple[Action, ...] = ()
    results: tuple[ActionResult, ...] = ()
    plan_version: int = 0
    completed: tuple[str, ...] = ()
    """Subgoal keys this turn newly marked done."""
    flags: tuple[StepFlag, ...] = ()
    error: str = ""
    replayed: bool = False
    """The decision was replayed from a recording (the screen matched it), not asked of the operator model.

    Only the decision is replayed: its actions ran on the device and every verdict is judged afresh."""
    started_at: float
    finished_at: float

    @property
    def duration_ms(self) -> float:
        return (self.finished_at - self.started_at) * 1000.0
