"""The goal's facts shown by the run's own probe checks ([E5]): a fact no citation of the goal's verdict
shows stands on a current, passed, non-vacuous probe verdict of an item about it (the item's words,
confirmed by a deterministic probe that changed in this run), and is cited as that probe."""

from __future__ import annotations

from collections.abc import Sequence

from pytest_artemis.contracts import CheckItem, CheckVerdict, Citation
from pytest_artemis.engine.state import RunProgress

from .facts import Fact
from .readings import Shown, about, holds
from .rules import broken
from .terms import terms
from .verdicts import current_verdicts


def _as_reading(item: CheckItem, verdict: CheckVerdict) -> Shown:
    """A passed probe check as a reading: its item's words, with the probe's kind and parameters."""
    names = terms(item.text)
    if item.probe is not None:
        spec = item.probe.probe
        names |= terms(spec.kind) | frozenset(t for v in spec.params.values() for t in terms(v))
    return Shown(where=f"the passed probe check {item.text!r}", moment=2.0 * (verdict.anchor_step or 0),
                 label=item.text, row=(verdict.evidence,), names=names)


def shown_by_probe_checks(
    verdict: CheckVerdict, pending: Sequence[Fact], run: RunProgress, user_items: tuple[CheckItem, ...]
) -> CheckVerdict:
    """The goal's passed ``verdict`` with ``pending`` facts looked up among the run's probe checks: cited by
    them when each is shown, inconclusive ([E5]) when one is not."""
    current = current_verdicts(run.ledger)
    checks = [(i, current[i.key]) for i in run.all_items(user_items)
              if i.probe is not None and i.key in current and current[i.key].source == "probe"
              and current[i.key].status == "passed" and not current[i.key].vacuous]
    cited: list[Citation] = []
    for fact in pending:
        by = next(((i, v) for i, v in checks if about(fact, r := _as_reading(i, v)) and holds(fact, r)), None)
        if by is None:
            reason = broken("E5", f"no citation shows {fact.text!r}, nor does a passed probe check "
                                  "of this run: every fact the goal states needs one")
            return verdict.model_copy(update={"status": "inconclusive", "reason": f"passed, but {reason}",
                                              "rule": "E5"})
        item, shown = by
        cited += [c for c in shown.citations if c not in cited]
    return verdict.model_copy(update={"citations": (*verdict.citations, *cited)})
