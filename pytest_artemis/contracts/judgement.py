"""A predicate's answer (``ProbeJudgement``): its own module, loaded when a check is first judged, so test
modules that build probe checks, and their collection, never import pydantic for it."""

from __future__ import annotations

from ._base import Contract


class ProbeJudgement(Contract):
    """A predicate's answer: passed or not, with evidence quoting the probe output.

    ``conclusive`` is False when the probe itself could not be read (non-zero exit, unreadable
    output): the caller should record the verdict as inconclusive, not failed. ``facts`` are the
    normalised values of the checked fact the judgement rests on (e.g. the matched user alarms):
    equal whenever the checked fact is the same, whatever else the output holds, so a before/after
    comparison of ``(passed, facts)`` tells whether the run changed what the check looks at.
    """

    passed: bool
    evidence: str
    conclusive: bool = True
    facts: tuple[str, ...] = ()
