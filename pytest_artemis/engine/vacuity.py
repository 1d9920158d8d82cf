"""The vacuity check: a probe-backed check that already holds before the agent acts proves nothing."""

from __future__ import annotations

from pydantic import JsonValue

from pytest_artemis.contracts import CheckItem, ProbeResult, VerdictStatus

VACUOUS_REASON = "already true before the run"


def _state(result: ProbeResult) -> JsonValue:
    """The probed state: the parsed output when the probe parses, else the raw text."""
    return result.parsed if result.parsed is not None else result.raw


class Vacuity:
    """Baselines of every probe-backed item, taken before the first operator turn.

    An item whose check already held is vacuous; its ``passed`` verdicts become ``unchecked``
    ("already true before the run") unless its probed state was seen to change during the run.
    """

    def __init__(self) -> None:
        self._baseline: dict[str, JsonValue] = {}
        self._vacuous: set[str] = set()
        self._changed: set[str] = set()

    def baseline(self, item: CheckItem, result: ProbeResult, held: bool) -> None:
        """Record the pre-run state of ``item``'s probe and whether its check already held."""
        self._baseline[item.key] = _state(result)
        if held:
            self._vacuous.add(item.key)

    def observe(self, item: CheckItem, result: ProbeResult) -> None:
        """Note a later probe of ``item``: a state different from the baseline is a change."""
        if item.key in self._baseline and _state(result) != self._baseline[item.key]:
            self._changed.add(item.key)

    def is_vacuous(self, item: CheckItem) -> bool:
        return item.key in self._vacuous

    @property
    def watched(self) -> frozenset[str]:
        """Keys of vacuous items whose state has not changed yet (worth re-probing after steps)."""
        return frozenset(self._vacuous - self._changed)

    def adjust(self, item: CheckItem, status: VerdictStatus) -> tuple[VerdictStatus, str]:
        """The status a probe verdict may keep, and the reason when vacuity downgraded it."""
        if status == "passed" and item.key in self._vacuous and item.key not in self._changed:
            return "unchecked", VACUOUS_REASON
        return status, ""
