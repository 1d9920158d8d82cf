"""Fit or unfit: a role's scores held to ``thresholds.py``, with every threshold missed said in words."""

from __future__ import annotations

from .schema import CheckerCounts, Fitness
from .thresholds import THRESHOLDS, CheckerThresholds, OperatorThresholds


def _rate(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


def _pct(value: float) -> str:
    return f"{value:.0%}"


def _verdict(missed: list[str], unreachable: bool, what: str) -> tuple[Fitness, tuple[str, ...]]:
    if unreachable:
        return "not scored", (f"no {what} call reached the model (the provider was down, refused the key or "
                              "timed out): nothing can be said of it",)
    return ("unfit" if missed else "fit"), tuple(missed)


def checker_fitness(
    counts: CheckerCounts, invalid: int, requests: int, *, unreachable: bool = False,
    thresholds: CheckerThresholds = THRESHOLDS.checker,
) -> tuple[Fitness, tuple[str, ...]]:
    """The checker's fitness and the thresholds it missed."""
    missed = []
    right = _rate(counts.right, counts.items)
    if right < thresholds.min_right_rate:
        missed.append(f"right verdicts {_pct(right)} ({counts.right} of {counts.items}), under "
                      f"{_pct(thresholds.min_right_rate)}")
    if counts.false_passes_stood > thresholds.max_false_passes_stood:
        missed.append(f"{counts.false_passes_stood} false pass(es) the harness let stand, over "
                      f"{thresholds.max_false_passes_stood}")
    unchecked = counts.false_unchecked
    if _rate(unchecked, counts.settled) > thresholds.max_false_unchecked_rate:
        missed.append(f"false UNCHECKED {_pct(_rate(unchecked, counts.settled))} ({unchecked} of "
                      f"{counts.settled} settled items), over {_pct(thresholds.max_false_unchecked_rate)}")
    if _rate(invalid, requests) > thresholds.max_invalid_reply_rate:
        missed.append(f"invalid replies {_pct(_rate(invalid, requests))} ({invalid} of {requests} requests), "
                      f"over {_pct(thresholds.max_invalid_reply_rate)}")
    return _verdict(missed, unreachable, "checker")


def operator_fitness(
    reached: int, goals: int, refused: int, actions: int, invalid: int, requests: int, *,
    unreachable: bool = False, thresholds: OperatorThresholds = THRESHOLDS.operator,
) -> tuple[Fitness, tuple[str, ...]]:
    """The planner + operator's fitness and the thresholds it missed."""
    missed = []
    if _rate(reached, goals) < thresholds.min_goal_rate:
        missed.append(f"goals reached {_pct(_rate(reached, goals))} ({reached} of {goals}), under "
                      f"{_pct(thresholds.min_goal_rate)}")
    if _rate(refused, actions) > thresholds.max_refused_rate:
        missed.append(f"refused actions {_pct(_rate(refused, actions))} ({refused} of {actions}), over "
                      f"{_pct(thresholds.max_refused_rate)}")
    if _rate(invalid, requests) > thresholds.max_invalid_reply_rate:
        missed.append(f"invalid replies {_pct(_rate(invalid, requests))} ({invalid} of {requests} requests), "
                      f"over {_pct(thresholds.max_invalid_reply_rate)}")
    return _verdict(missed, unreachable, "planner or operator")
