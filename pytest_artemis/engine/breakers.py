"""Circuit breakers: stop a run that repeats itself instead of burning its budget."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from pytest_artemis.contracts import Action, CheckVerdict


def _action_key(actions: Sequence[Action]) -> str:
    return "|".join(a.model_dump_json() for a in actions)


class Breakers:
    """Three breakers; ``tripped`` holds the reason once one of them fires (it never resets).

    * same finding: the same check failing ``same_finding_limit`` times (its failures are the finding).
    * no effect: the same actions on the same screen leaving the screen unchanged ``no_effect_limit``
      times in a row.
    * refusals: ``no_effect_limit`` turns in a row whose actions were refused (by the harness or by the
      device layer's own validation): a model that keeps asking for the impossible gets nowhere.
    """

    def __init__(self, *, same_finding_limit: int, no_effect_limit: int) -> None:
        self._finding_limit = same_finding_limit
        self._no_effect_limit = no_effect_limit
        self._findings: Counter[str] = Counter()
        self._streak: tuple[str, str] | None = None
        self._streak_len = 0
        self._refusals = 0
        self.tripped = ""

    def finding(self, verdict: CheckVerdict) -> str:
        """Count one failed verdict; returns the breaker reason when this one trips it."""
        if verdict.status != "failed":
            return ""
        self._findings[verdict.item_key] += 1
        if self._findings[verdict.item_key] >= self._finding_limit and not self.tripped:
            self.tripped = (
                f"circuit breaker: the same finding {self._findings[verdict.item_key]} times: "
                f"{verdict.item_text}: {verdict.evidence}"
            )
            return self.tripped
        return ""

    def step(self, pre_screen: str | None, post_screen: str | None, actions: Sequence[Action]) -> bool:
        """Observe one executed step; returns whether it had no effect (and may trip the breaker)."""
        acting = [a for a in actions if a.kind not in ("wait", "finish", "give_up")]
        if not acting or pre_screen is None or pre_screen != post_screen:
            self._streak, self._streak_len = None, 0
            return False
        signature = (pre_screen, _action_key(acting))
        self._streak_len = self._streak_len + 1 if signature == self._streak else 1
        self._streak = signature
        if self._streak_len >= self._no_effect_limit and not self.tripped:
            described = ", ".join(a.kind for a in acting)
            self.tripped = (
                f"circuit breaker: {described} repeated {self._streak_len} times on an unchanged screen "
                "without effect"
            )
        return True

    def refusal(self, refused: bool, detail: str = "") -> None:
        """Observe whether a turn's actions were refused; consecutive refusals may trip the breaker."""
        self._refusals = self._refusals + 1 if refused else 0
        if self._refusals >= self._no_effect_limit and not self.tripped:
            self.tripped = f"circuit breaker: actions refused {self._refusals} turns in a row ({detail})"
