"""The task specification: what one run is asked to do and check (built from markers or by hand)."""

from __future__ import annotations

from pydantic import Field

from ._base import Contract
from .checks import CheckItem


class TaskSpec(Contract):
    """A goal in plain language plus the declared checks."""

    goal: str = Field(min_length=1)
    app: str | None = None
    """Package to launch before the first turn (optional)."""
    max_steps: int | None = Field(default=None, ge=1)
    checks: tuple[CheckItem, ...] = ()
    test_id: str = ""
