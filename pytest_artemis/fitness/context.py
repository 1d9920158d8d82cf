"""What every run of the kit shares: the phone, where runs are written, the redactor, the run settings."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from pytest_artemis.contracts import ModelTimeouts
from pytest_artemis.engine import RunConfig
from pytest_artemis.store import Redactor

from .phone import Phone


class FitnessError(Exception):
    """The kit could not score: a case's phone did not end where its truth says, or a goal held before its
    run. A fault of the simulator or the harness, never of the model under test."""


@dataclass(frozen=True)
class KitSettings:
    """The run settings the options give (the model-call timeouts, the check timeout, a time budget)."""

    model_timeouts: ModelTimeouts = field(default_factory=ModelTimeouts)
    check_timeout_s: float = 180.0
    time_budget_s: float | None = None

    def config(self, **knobs: object) -> RunConfig:
        """A run's configuration: these settings and the part's own ``knobs``."""
        deadline = time.time() + self.time_budget_s if self.time_budget_s is not None else None
        return RunConfig(model_timeouts=self.model_timeouts, check_timeout_s=self.check_timeout_s,
                         deadline=deadline, **knobs)  # type: ignore[arg-type]


@dataclass(frozen=True)
class KitContext:
    """One kit run's shared parts."""

    phone: Phone
    out: Path
    """The output directory (``fitness.json``, ``fitness.html``, ``runs/``)."""
    redactor: Redactor
    settings: KitSettings

    @property
    def runs(self) -> Path:
        return self.out / "runs"

    def relative(self, path: Path) -> str:
        """``path`` relative to the output directory, as the report links it."""
        return path.relative_to(self.out).as_posix()
