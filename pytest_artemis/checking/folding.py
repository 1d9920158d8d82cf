"""Folding: a replayed run's last checkpoint judged in the final check's checker request.

A replayed turn costs no model time, so a checkpoint anchored at one would still be with the checker when
the run ends a fraction of a second later, and the run would wait for two checker calls side by side. Its
model-judged items are held instead (its probes read the device at once, as always) and the final check
judges them in its own request, each on its own evidence: the history up to the anchor, never the final
state. Only the newest held checkpoint waits; an older one, a held one when the operator model is asked
again (the replay fell back), and any the final check does not take judge themselves as usual.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import TYPE_CHECKING

from pytest_artemis.contracts import CheckVerdict

from .checkpoints import Attempt

if TYPE_CHECKING:
    from pytest_artemis.engine.state import RunProgress, RunServices


def foldable(svc: RunServices, run: RunProgress, attempt: Attempt) -> bool:
    """Whether ``attempt`` may be held for the final check: anchored at a replayed turn, with the final
    check on, and with an item for the checker."""
    anchor = attempt.anchor_step
    return (svc.config.final_check and svc.replay is not None and 1 <= anchor <= len(run.steps)
            and run.steps[anchor - 1].replayed and any(i.probe is None for i in attempt.checkpoint.items))


class Folding:
    """The held checkpoint attempts of one run, each waiting for the verdicts of its model-judged items
    (or for None: judge them yourself)."""

    def __init__(self) -> None:
        self._slots: dict[str, asyncio.Future[list[CheckVerdict] | None]] = {}
        self._let_go: set[str] = set()
        self._taken = ""
        self._closed = False

    def _slot(self, attempt_id: str) -> asyncio.Future[list[CheckVerdict] | None]:
        if attempt_id not in self._slots:
            self._slots[attempt_id] = asyncio.get_running_loop().create_future()
        return self._slots[attempt_id]

    async def wait(self, attempt: Attempt) -> list[CheckVerdict] | None:
        """Hold ``attempt`` until the final check judges its model items (their verdicts) or lets it go
        (None); an older held attempt is let go now. None at once while folding is closed."""
        if self._closed and attempt.attempt_id not in self._slots:  # not taken by the final check
            self._let_go.add(attempt.attempt_id)
            return None
        self.release(keep=attempt.attempt_id)
        slot = self._slot(attempt.attempt_id)
        try:
            return await slot
        finally:
            self._slots.pop(attempt.attempt_id, None)

    def release(self, *, keep: str = "") -> None:
        """Let every held attempt (but ``keep`` and the one the final check took) judge itself."""
        for attempt_id, slot in list(self._slots.items()):
            if attempt_id not in (keep, self._taken) and not slot.done():
                slot.set_result(None)
                self._let_go.add(attempt_id)

    def holds(self, attempt: Attempt) -> bool:
        """Whether ``attempt`` (one that ``foldable`` allows) is held or will be when it gets to its model
        items: it has not been let go to judge them itself."""
        return attempt.attempt_id not in self._let_go

    def close(self) -> None:
        """Nothing is held from now on (the exit settlement has begun); what waits judges itself."""
        self._closed = True
        self.release()

    def reopen(self) -> None:
        """Turns follow again (the operator was sent back): their checkpoints may be held."""
        self._closed = False

    def take(self, attempt: Attempt) -> None:
        """The final check judges ``attempt``'s model items: it stays held (even if it has not begun to
        wait yet) until ``deliver``; everything else judges itself, and nothing more is held."""
        self._slot(attempt.attempt_id)
        self._taken = attempt.attempt_id
        self.close()

    def deliver(self, attempt: Attempt, verdicts: Sequence[CheckVerdict] | None) -> None:
        """The final check's verdicts for a taken attempt's items (None: it could not judge them)."""
        if self._taken == attempt.attempt_id:
            self._taken = ""
        slot = self._slots.get(attempt.attempt_id)
        if slot is not None and not slot.done():
            slot.set_result(None if verdicts is None else list(verdicts))
