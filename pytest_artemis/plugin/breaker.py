"""The session's provider breaker: after a model configuration error, or a few provider failures in a
row, the remaining tests are not run against the provider; they are ERROR at once, naming the first."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from pytest_artemis.contracts import RunOutcome

CONFIGURATION_ERRORS = frozenset({"ModelCredentialsError", "ModelNotFound", "ModelBadRequest"})
"""Model errors no retry and no later test can fix (``pytest_artemis.models.errors``)."""
CONSECUTIVE_LIMIT = 3
"""Runs in a row ended by a model-provider failure before the session stops calling it."""


@dataclass
class ProviderBreaker:
    """Per process (each xdist worker keeps its own): fed every run's outcome, asked before each run."""

    tripped: str = ""
    """Why the provider is no longer called (empty: it is)."""
    _streak: int = 0
    _streak_start: str = ""

    def note(self, nodeid: str, outcome: RunOutcome) -> None:
        """Count a finished run."""
        infra = outcome.infra
        if infra is None or infra.kind != "model":
            self._streak = 0
            return
        self._streak += 1
        self._streak_start = self._streak_start if self._streak > 1 else nodeid
        first_line = infra.message.splitlines()[0] if infra.message else ""
        if self.tripped:
            return
        if infra.error_class in CONFIGURATION_ERRORS:
            self.tripped = f"the first configuration error, in {nodeid}: {infra.error_class}: {first_line}"
        elif self._streak >= CONSECUTIVE_LIMIT:
            self.tripped = (f"{self._streak} runs in a row failed on the provider, the first in "
                            f"{self._streak_start}: {infra.error_class}: {first_line}")

    def refusal(self) -> str | None:
        """The ERROR message for a run that is not started, or None while the provider is called."""
        if not self.tripped:
            return None
        return ("ERROR: infrastructure failure (model) ProviderNotCalled: not run; this session stopped "
                f"calling the model provider after {self.tripped}")


breaker_key = pytest.StashKey[ProviderBreaker]()
