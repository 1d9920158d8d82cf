"""Why a run stops: the one place that decides whether the operator may take another turn, and what the
outcome reports as the reason the run ended."""

from __future__ import annotations

import time
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from pytest_artemis.contracts import Execution, InfraFailure

from .config import RunConfig

if TYPE_CHECKING:
    from .state import RunProgress, RunServices


class StopReason(Enum):
    """Why a run ended; the value is how the outcome words it when there is nothing more to say."""

    BREAKER = "circuit breaker"
    GAVE_UP = "the operator gave up"
    ASSERT_HALT = "assert failed (halt policy)"
    TIME_BUDGET = "time budget exhausted"
    STEP_BUDGET = "step budget exhausted"
    FINISH_CLAIMED = "finish claimed"
    ALL_DONE = "all subgoals done"
    INTERRUPTED = "interrupted"
    CRASHED = "crashed"


BLOCKING = frozenset({StopReason.BREAKER, StopReason.GAVE_UP, StopReason.ASSERT_HALT, StopReason.TIME_BUDGET})
"""Stops that end the run as blocked, whatever its checks say."""


@dataclass(frozen=True)
class Stop:
    """A reason to stop, with the words that say it (``detail``, else the reason's own)."""

    reason: StopReason
    detail: str = ""

    @property
    def text(self) -> str:
        return self.detail or self.reason.value

    @property
    def blocks(self) -> bool:
        return self.reason in BLOCKING


def deadline_passed(config: RunConfig) -> bool:
    return config.deadline is not None and time.time() >= config.deadline


def limit_reached(svc: RunServices, run: RunProgress) -> Stop | None:
    """What forbids any further operator turn: a blocking stop already recorded, the step budget, the time
    budget; None while turns may go on."""
    if run.stop is not None:
        return run.stop
    if len(run.steps) >= svc.max_steps:
        return Stop(StopReason.STEP_BUDGET)
    if deadline_passed(svc.config):
        return Stop(StopReason.TIME_BUDGET)
    return None


def before_turn(svc: RunServices, run: RunProgress, *, first: bool) -> Stop | None:
    """Whether the operator loop ends before its next turn: a limit, or (after its first turn, which a
    send-back must always get) the plan converged."""
    limit = limit_reached(svc, run)
    if limit is not None:
        return limit
    if not first and run.plan.all_done:
        return Stop(StopReason.ALL_DONE)
    return None


def gave_up(reason: str) -> Stop:
    """The operator reported that the goal cannot be reached on this device, and why."""
    return Stop(StopReason.GAVE_UP, f"{StopReason.GAVE_UP.value}: {reason}")


def _interrupted(reason: str) -> Stop:
    return Stop(StopReason.INTERRUPTED, f"{StopReason.INTERRUPTED.value} ({reason})" if reason else "")


def run_stop(
    run: RunProgress, execution: Execution, infra: InfraFailure | None, interrupted: str = ""
) -> Stop:
    """Why the run ended, as its outcome reports it (``interrupted``: why an interrupted run was, if
    known)."""
    if infra is not None:
        return Stop(StopReason.CRASHED, f"crashed: {infra.kind} ({infra.error_class})")
    if execution == "interrupted":
        return _interrupted(interrupted)
    if run.stop is not None:
        return run.stop
    if run.finish_claimed:
        return Stop(StopReason.FINISH_CLAIMED)
    if run.plan.all_done:
        return Stop(StopReason.ALL_DONE)
    return Stop(StopReason.STEP_BUDGET)


def blocked_reason(
    run: RunProgress, execution: Execution, infra: InfraFailure | None, interrupted: str = ""
) -> str:
    """What blocks the task outright, whatever its checks say; empty when nothing does."""
    if run.stop is not None:
        return run.stop.text
    if infra is not None:
        return f"infrastructure failure: {infra.error_class}"
    return _interrupted(interrupted).text if execution == "interrupted" else ""
