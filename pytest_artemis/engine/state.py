"""A run's two halves: the services it uses (fixed for the run) and the progress it makes (what changes,
mirroring what the journal holds)."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pytest_artemis.agents.checker import ItemIds
from pytest_artemis.checking.findings import FindingKey
from pytest_artemis.checking.folding import Folding
from pytest_artemis.checking.history import ProbeOutput
from pytest_artemis.checking.screens import RecordedScreens
from pytest_artemis.checking.vacuity import Vacuity
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
from pytest_artemis.store.journal import RunJournal

from .breakers import Breakers
from .config import RunConfig
from .observer import RunObserver
from .stopping import Stop

if TYPE_CHECKING:
    from pytest_artemis.device.ocr import OcrEngine

    from .replay import Replay
    from .secrets import SecretBook


@dataclass(frozen=True)
class RunServices:
    """What a run uses and never replaces: the task, its settings, the device, the models and where
    everything is recorded."""

    spec: TaskSpec
    config: RunConfig
    device: Device
    models: ModelSet
    journal: RunJournal
    observer: RunObserver
    calls: CallLog
    screens: RecordedScreens
    """The recorded screens verdicts may cite (grounding)."""
    vacuity: Vacuity
    """The pre-run baselines of the probe-backed items (taken before the first turn)."""
    folding: Folding
    """The replayed checkpoint the final check may judge in its own request."""
    item_ids: ItemIds
    """The short ids checker requests list the run's items by (stable for the run)."""
    ocr: OcrEngine | None = None
    replay: Replay | None = None
    """Where the first plan and operator decisions may come from instead of the models."""
    secrets: SecretBook | None = None
    """The test's secrets: ``device`` and ``models`` are then the masked ones."""

    @classmethod
    def start(
        cls, spec: TaskSpec, config: RunConfig, device: Device, models: ModelSet, journal: RunJournal, *,
        observer: RunObserver, calls: CallLog, ocr: OcrEngine | None = None, replay: Replay | None = None,
        secrets: SecretBook | None = None,
    ) -> RunServices:
        """The services of a new run: its recorded screens and vacuity baselines start empty; with
        ``secrets`` the device and the models are seen through them (``secrets.MaskedDevice``)."""
        if secrets is not None:
            from .secrets import MaskedDevice, masked_models

            device, models = MaskedDevice(device, secrets), masked_models(models, secrets)
            for value in map(secrets.value, secrets.names):
                journal.redactor.add(value)
        return cls(spec=spec, config=config, device=device, models=models, journal=journal, observer=observer,
                   calls=calls, screens=RecordedScreens(journal.dir, ocr, journal.screen_png),
                   vacuity=Vacuity(), folding=Folding(), item_ids=ItemIds(), ocr=ocr, replay=replay,
                   secrets=secrets)

    @property
    def run_id(self) -> str:
        return self.journal.header.run_id

    @property
    def goal_item(self) -> CheckItem:
        """The original goal as a ledger item of its own, judged by the final check."""
        return CheckItem(kind="goal", text=self.spec.goal, when="end")

    @property
    def max_steps(self) -> int:
        return self.spec.max_steps or self.config.max_steps

    @property
    def user_items(self) -> tuple[CheckItem, ...]:
        return self.spec.checks


@dataclass
class RunProgress:
    """Everything a run changes as it goes; every change that matters is journaled as it happens."""

    breakers: Breakers
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
    acting: int = 0
    """The latest step whose actions have started on the device: a probe read after step N's actions began
    shows the device after step N - 1."""
    repairs: Counter[str] = field(default_factory=Counter)
    stop: Stop | None = None
    """Why the run must end as blocked (breaker, time budget, halt policy); None while it may go on."""
    finish_claimed: bool = False
    unmet_subgoals: tuple[str, ...] = ()
    last_finding: str = ""
    final_attempts: int = 0
    turn_kind: TurnKind = "act"
    usage: Usage = field(default_factory=Usage)
    baseline: tuple[ProbeOutput, ...] = ()
    """What the probe table's state listings (and the declared probe checks) read before the first action:
    what held before the run ([E7])."""

    @classmethod
    def start(cls, config: RunConfig) -> RunProgress:
        """A run that has not begun, its breakers set as ``config`` says."""
        return cls(breakers=Breakers(same_finding_limit=config.same_finding_limit,
                                     no_effect_limit=config.no_effect_limit))

    @property
    def plan_text(self) -> str:
        return render_plan(self.plan)

    def plan_items(self, user_items: tuple[CheckItem, ...]) -> tuple[CheckItem, ...]:
        """The check items of the current plan, user items keeping their identity (and probes)."""
        return plan_check_items(self.plan, known=user_items + self.planner_items, origin="operator")

    def all_items(self, user_items: tuple[CheckItem, ...]) -> tuple[CheckItem, ...]:
        """Every item the tally reports: plan items, user items (even if unplaced), items with verdicts."""
        items: dict[str, CheckItem] = {}
        for item in self.plan_items(user_items) + user_items:
            items.setdefault(item.key, item)
        return tuple(items.values())

    def set_plan(self, plan: Plan, journal: RunJournal) -> None:
        """Adopt a new plan and store it as the next plan version."""
        self.plan = plan
        self.plan_version = journal.write_plan(render_plan(plan))

    def count_call(self, record: ModelCallRecord, journal: RunJournal) -> None:
        """Journal a model call and sum its usage."""
        journal.append_model_call(record)
        self.usage = self.usage.add(record)
