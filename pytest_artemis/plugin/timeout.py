"""A cooperative deadline from pytest-timeout: the run ends BLOCKED ("time budget") before the hard timer."""

from __future__ import annotations

import time

import pytest

deadline_key = pytest.StashKey[float]()
"""``time.time()`` epoch by which a run on this item must wind down."""


def grace_seconds(timeout: float) -> float:
    """Time kept back for exit settlement (a final check is model calls) and closing the journal:
    20 % of the timeout, at least 1 s, at most 60 s."""
    return min(60.0, max(1.0, timeout * 0.2))


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_timeout_set_timer(item: pytest.Item, settings: object) -> None:
    """Stash a deadline a little before pytest-timeout's; return None so its hard timer stays armed."""
    timeout = getattr(settings, "timeout", None)
    if timeout and timeout > 0:
        item.stash[deadline_key] = time.time() + timeout - grace_seconds(float(timeout))


def run_deadline(item: pytest.Item, time_budget: float | None) -> float | None:
    """The tighter of pytest-timeout's deadline and ``--artemis-time-budget`` (from now), if any."""
    candidates = [item.stash.get(deadline_key, None)]
    if time_budget is not None:
        candidates.append(time.time() + time_budget)
    known = [c for c in candidates if c is not None]
    return min(known) if known else None
