"""The vacuity check, per fact: a probe check whose judgement and matched values did not change proves
nothing about what the agent did."""

from __future__ import annotations

from pytest_artemis.contracts import CheckItem, VerdictStatus
from pytest_artemis.probes import ProbeJudgement

VACUOUS_REASON = "already true before the run, and the checked fact did not change"

Fact = tuple[bool, tuple[str, ...]]
"""What a check rests on: its predicate's judgement and the normalised values it matched."""


def fact(judgement: ProbeJudgement) -> Fact:
    return (judgement.passed and judgement.conclusive, tuple(judgement.facts))


class Vacuity:
    """Baselines of every probe-backed item, taken before the first operator turn.

    A check is vacuous when it already held before the run and its fact — the predicate's judgement and
    the values it matched — is the same when it is judged, whatever else in the probe output changed
    (an unrelated contact added, another alarm toggled). Its ``passed`` verdicts become ``unchecked``.
    """

    def __init__(self) -> None:
        self._baseline: dict[str, Fact] = {}

    def baseline(self, item: CheckItem, judgement: ProbeJudgement) -> None:
        """Record the pre-run fact of ``item``'s check."""
        self._baseline[item.key] = fact(judgement)

    def held_before(self, item: CheckItem) -> bool:
        known = self._baseline.get(item.key)
        return known is not None and known[0]

    def is_vacuous(self, item: CheckItem, judgement: ProbeJudgement) -> bool:
        """Whether this judgement of ``item`` rests on the very fact that already held before the run."""
        return self.held_before(item) and fact(judgement) == self._baseline[item.key]

    def adjust(
        self, item: CheckItem, status: VerdictStatus, judgement: ProbeJudgement
    ) -> tuple[VerdictStatus, str]:
        """The status a probe verdict may keep, and the reason when vacuity downgraded it."""
        if status == "passed" and self.is_vacuous(item, judgement):
            return "unchecked", VACUOUS_REASON
        return status, ""
