"""RunConfig: every knob of one run, validated at the seam (the plugin builds it from options)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from pytest_artemis.contracts._base import Contract
from pytest_artemis.contracts.models import ModelTimeouts


class RunConfig(Contract):
    """How one run is driven and checked."""

    max_steps: int = Field(default=30, ge=1)
    """Step budget when the task spec does not set one."""
    midway_checks: bool = True
    """Checkpoints while the operator works (complete-timed items)."""
    final_check: bool = True
    """The final check against the original goal at exit."""
    assert_policy: Literal["continue", "halt"] = "continue"
    check_timeout_s: float = Field(default=180.0, gt=0)
    check_concurrency: int = Field(default=3, ge=1)
    settle_timeout_s: float = Field(default=120.0, gt=0)
    checkpoint_max_repairs: int = Field(default=2, ge=0)
    final_check_max_attempts: int = Field(default=3, ge=1)
    history_window: int = Field(default=5, ge=0)
    same_finding_limit: int = Field(default=3, ge=1)
    no_effect_limit: int = Field(default=4, ge=1)
    deadline: float | None = None
    """Cooperative time budget: ``time.time()`` epoch seconds, checked between steps."""
    image_max_side: int = Field(default=1280, ge=64)
    checker_probes: bool = True
    """Register the read-only ``probe_device`` tool for the checker."""
    checker_max_iterations: int = Field(default=3, ge=1)
    """Checker rounds per judgement (tool requests, then a report)."""
    model_timeouts: ModelTimeouts = Field(default_factory=ModelTimeouts)
    """How long a model call may take, per role (for the models given no timeouts of their own)."""

    @property
    def checks_enabled(self) -> bool:
        """Whether any check mechanism is on (else no prompt mentions check syntax)."""
        return self.midway_checks or self.final_check
