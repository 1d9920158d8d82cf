"""Findings: what the operator is shown about failed checks, keyed by whose finding it is."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pytest_artemis.contracts import CheckVerdict

FindingScope = Literal["item", "goal"]


@dataclass(frozen=True)
class FindingKey:
    """Whose open finding this is: a check item's (``item``: the item key), or one the final check made
    about the goal (``goal``: the goal item's key, or the key of a subgoal it found unmet)."""

    scope: FindingScope
    key: str

    @classmethod
    def item(cls, key: str) -> FindingKey:
        return cls("item", key)

    @classmethod
    def goal(cls, key: str) -> FindingKey:
        return cls("goal", key)

    @property
    def token(self) -> str:
        """The key as a replay recording's situation hash spells it (kept so recordings stay valid)."""
        return self.key if self.scope == "item" else f"goal:{self.key}"


def finding_text(verdict: CheckVerdict) -> str:
    """How a failed check is shown to the operator (and reported as the last finding)."""
    text = f"{verdict.kind} failed: {verdict.item_text} — evidence: {verdict.evidence}"
    return f"{text} — suggestion: {verdict.suggestion}" if verdict.suggestion else text
