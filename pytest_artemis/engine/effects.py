"""What the checking half asks of the run, as typed effects, and the one function that applies them.

Harvests, rechecks, the final check and the send-back decide from the run's state and return effects;
``apply`` is the only place their changes to the run happen (in order; verdicts, plan versions and
send-backs are journaled as they happen).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from pytest_artemis.checking.findings import FindingKey, finding_text
from pytest_artemis.contracts import CheckVerdict

from .state import RunProgress, RunServices
from .stopping import Stop, StopReason


@dataclass(frozen=True)
class Record:
    """Put a verdict on the ledger. A pass clears the item's finding; a failed verify becomes the last
    finding and counts toward the same-finding breaker."""

    verdict: CheckVerdict


@dataclass(frozen=True)
class AddFinding:
    """Show the operator a finding until a later verdict on its item passes (or, for the goal, until the
    next final check)."""

    key: FindingKey
    text: str


@dataclass(frozen=True)
class Reopen:
    """Reopen those of ``subgoals`` marked done (one plan version); ``repair_of`` names the checkpoint whose
    repair quota this spends."""

    subgoals: tuple[str, ...]
    repair_of: str = ""


@dataclass(frozen=True)
class FinalCheck:
    """Final check number ``attempt`` ran: its goal findings replace the previous one's, and it found
    ``unmet_subgoals`` not achieved."""

    attempt: int
    unmet_subgoals: tuple[str, ...]


@dataclass(frozen=True)
class SendBack:
    """Send the operator back for a repair turn after the final check (``unmet``: verify items unmet)."""

    unmet: tuple[str, ...]


Effect = Record | AddFinding | Reopen | FinalCheck | SendBack | Stop


def apply(svc: RunServices, run: RunProgress, effects: Iterable[Effect]) -> None:
    """Apply ``effects`` in order. A blocking stop is recorded only when none is yet: the first one wins."""
    for effect in effects:
        match effect:
            case Record(verdict):
                _record_verdict(svc, run, verdict)
            case AddFinding(key, text):
                run.findings[key] = text
            case Reopen(subgoals, repair_of):
                _reopen(svc, run, subgoals, repair_of)
            case FinalCheck(attempt, unmet_subgoals):
                for key in [k for k in run.findings if k.scope == "goal"]:
                    del run.findings[key]
                run.final_attempts = attempt
                run.unmet_subgoals = unmet_subgoals
            case SendBack(unmet):
                run.turn_kind = "final_repair"
                run.finish_claimed = False
                svc.journal.append_event("final_send_back", attempt=run.final_attempts, unmet=list(unmet),
                                         unmet_subgoals=list(run.unmet_subgoals))
            case Stop():
                if run.stop is None:
                    run.stop = effect


def _record_verdict(svc: RunServices, run: RunProgress, verdict: CheckVerdict) -> None:
    """Journal first, then the ledger, then the observer."""
    svc.journal.append_verdict(verdict)
    run.ledger.append(verdict)
    svc.observer.on_verdict(verdict)
    if verdict.status == "passed":
        run.findings.pop(FindingKey.item(verdict.item_key), None)
    if verdict.kind == "verify" and verdict.status == "failed":
        run.last_finding = finding_text(verdict)
        tripped = run.breakers.finding(verdict)
        if tripped:
            apply(svc, run, [Stop(StopReason.BREAKER, tripped)])


def _reopen(svc: RunServices, run: RunProgress, subgoals: tuple[str, ...], repair_of: str) -> None:
    if repair_of:
        run.repairs[repair_of] += 1
    plan = run.plan
    for key in subgoals:
        found = plan.subgoal(key)
        if found is not None and found.done:
            plan = plan.with_status(key, "reopened")
    if plan != run.plan:
        run.set_plan(plan, svc.journal)
