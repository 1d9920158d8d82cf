"""RunState: the one typed, mutable record of a run in progress (mirrors what the journal holds)."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pytest_artemis.contracts import (
    CheckItem,
    CheckVerdict,
    ModelCallRecord,
    StepRecord,
    TaskSpec,
    TurnKind,
    Usage,
)
from pytest_artemis.device import Device
from pytest_artemis.models import CallLog, ModelSet
from pytest_artemis.plan import Plan, plan_check_items, render_plan
from pytest_artemis.store.journal import RunHeader, RunJournal

from .breakers import Breakers
from .config import RunConfig
from .findings import FindingKey
from .observer import RunObserver
from .screens import RecordedScreens
from .stopping import Stop
from .vacuity import Vacuity

if TYPE_CHECKING:
    from pytest_artemis.device.ocr import OcrEngine

    from .replay import Replay


@dataclass
class RunState:
    """Everything the engine knows about the run; every change that matters is journaled as it happens."""

    spec: TaskSpec
    config: RunConfig
    device: Device
    models: ModelSet
    journal: RunJournal
    observer: RunObserver
    header: RunHeader
    calls: CallLog
    ocr: OcrEngine | None = None
    replay: Replay | None = None
    """Where the first plan and operator decisions may come from instead of the models."""
    started_at: float = field(default_factory=time.time)
    plan: Plan = field(default_factory=Plan)
    plan_version: int = 0
    planner_items: tuple[CheckItem, ...] = ()
    steps: list[StepRecord] = field(default_factory=list)
    ledger: list[CheckVerdict] = field(default_factory=list)
    findings: dict[FindingKey, str] = field(default_factory=dict)
    """The findings shown to the operator: an item's until a later verdict on it passes, the goal's until
    the next final check."""
    anchors: dict[str, int] = field(default_factory=dict)
    """Subgoal key → the step that last marked it done."""
    repairs: Counter[str] = field(default_factory=Counter)
    vacuity: Vacuity = field(default_factory=Vacuity)
    breakers: Breakers = field(default_factory=lambda: Breakers(same_finding_limit=3, no_effect_limit=4))
    stop: Stop | None = None
    """Why the run must end as blocked (breaker, time budget, halt policy); None while it may go on."""
    finish_claimed: bool = False
    unmet_subgoals: tuple[str, ...] = ()
    last_finding: str = ""
    final_attempts: int = 0
    turn_kind: TurnKind = "act"
    usage: Usage = field(default_factory=Usage)
    screens: RecordedScreens = field(init=False)
    """The recorded screens verdicts may cite (grounding)."""

    def __post_init__(self) -> None:
        self.screens = RecordedScreens(self.journal.dir, self.ocr)

    @property
    def goal_item(self) -> CheckItem:
        """The original goal as a ledger item of its own, judged by the final check."""
        return CheckItem(kind="goal", text=self.spec.goal, when="end")

    @property
    def run_id(self) -> str:
        return self.header.run_id

    @property
    def max_steps(self) -> int:
        return self.spec.max_steps or self.config.max_steps

    @property
    def user_items(self) -> tuple[CheckItem, ...]:
        return self.spec.checks

    @property
    def plan_text(self) -> str:
        return render_plan(self.plan)

    def plan_items(self) -> tuple[CheckItem, ...]:
        """The check items of the current plan, user items keeping their identity (and probes)."""
        known = self.user_items + self.planner_items
        return plan_check_items(self.plan, known=known, origin="operator")

    def all_items(self) -> tuple[CheckItem, ...]:
        """Every item the tally reports: plan items, user items (even if unplaced), items with verdicts."""
        items: dict[str, CheckItem] = {}
        for item in self.plan_items() + self.user_items:
            items.setdefault(item.key, item)
        return tuple(items.values())

    def set_plan(self, plan: Plan) -> None:
        """Adopt a new plan and store it as the next plan version."""
        self.plan = plan
        self.plan_version = self.journal.write_plan(render_plan(plan))

    def record_verdict(self, verdict: CheckVerdict) -> None:
        """Append a verdict to the ledger (journal first), then tell the observer."""
        self.journal.append_verdict(verdict)
        self.ledger.append(verdict)
        self.observer.on_verdict(verdict)

    def record_step(self, step: StepRecord) -> None:
        self.journal.append_step(step)
        self.steps.append(step)
        self.observer.on_step(step)

    def count_call(self, record: ModelCallRecord) -> None:
        """CallLog sink: journal every model call and sum its usage."""
        self.journal.append_model_call(record)
        self.usage = self.usage.add(record)
