"""Judging items: probe-backed ones by running the probe (no model), the rest by the checker."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from pytest_artemis.agents.checker import Assessment, Checker, CheckRequest, Entry, rules_for
from pytest_artemis.contracts import (
    ArtemisError,
    CheckItem,
    CheckVerdict,
    Citation,
    EvidenceScreen,
    ScreenView,
    VerdictStatus,
)
from pytest_artemis.engine.config import RunConfig
from pytest_artemis.engine.state import RunProgress, RunServices
from pytest_artemis.models import ImagePart
from pytest_artemis.probes import run_probe_check

from .checkpoints import Attempt, AttemptRunner
from .evidence import RunEvidence
from .facts import Fact
from .folding import foldable
from .grounding import Evidence, Window, ground
from .verdicts import blanket, make_verdict

ATTEMPT_GRACE_S = 5.0


async def probe_verdict(
    svc: RunServices, item: CheckItem, *, attempt_id: str, checkpoint_id: str, anchor_step: int | None,
    reason: str = "",
) -> CheckVerdict:
    """Run the item's probe now; the probe output is the evidence. Vacuity may downgrade a pass."""
    assert item.probe is not None
    started = time.time()
    result, judgement = await asyncio.to_thread(run_probe_check, svc.device, item.probe)
    status: VerdictStatus = ("passed" if judgement.passed else "failed") if judgement.conclusive \
        else "inconclusive"
    status, vacuous_reason = svc.vacuity.adjust(item, status, judgement)
    citation = Citation(probe=item.probe.probe.kind, quote="; ".join(judgement.facts), found=True,
                        found_in="probe") if judgement.conclusive else None
    return make_verdict(
        item, status=status, evidence=judgement.evidence, source="probe", attempt_id=attempt_id,
        checkpoint_id=checkpoint_id, anchor_step=anchor_step, started_at=started,
        reason=vacuous_reason or reason, vacuous=svc.vacuity.is_vacuous(item, judgement),
        suggestion=f"expected: {item.probe.description or item.text}",
        citations=(citation,) if citation is not None else (),
    )


def attempt_limit_s(config: RunConfig) -> float:
    """The backstop of a whole check attempt (probes, evidence, checker). The checker's own
    ``check_timeout_s`` fires first, inside it, so the verdicts of probes already run are kept."""
    return config.check_timeout_s * 2 + ATTEMPT_GRACE_S


def _fail_open(
    items: Sequence[CheckItem], reason: str, attempt_id: str, checkpoint_id: str, anchor_step: int | None,
    started: float,
) -> list[CheckVerdict]:
    return list(blanket(items, status="inconclusive", reason=reason, source="model", attempt_id=attempt_id,
                        checkpoint_id=checkpoint_id, anchor_step=anchor_step, started_at=started))


@dataclass(frozen=True)
class Placement:
    """Where an item's verdict belongs when one request judges items of another check: the window its
    citation is grounded in, and the attempt, checkpoint and anchor step it is recorded under."""

    window: Window
    attempt_id: str
    checkpoint_id: str
    anchor_step: int | None


def checker_for(svc: RunServices) -> Checker:
    probes = svc.device.probe_table if svc.config.checker_probes else None
    return Checker(svc.models.checker, svc.calls, probes=probes,
                   max_iterations=svc.config.checker_max_iterations)


Judged = tuple[list[CheckVerdict], tuple[str, ...], dict[str, tuple[Fact, ...]]]
"""A judgement's verdicts, the subgoals it names unmet (final entry), and the goal's facts its citations
left to this run's probe checks (by item key)."""


async def model_verdicts(
    svc: RunServices, run: RunProgress,
    items: Sequence[CheckItem],
    *,
    window: Window,
    attempt_id: str,
    checkpoint_id: str,
    anchor_step: int | None,
    history: tuple[str, ...],
    images: tuple[ImagePart, ...] = (),
    screen: ScreenView | None = None,
    screens: tuple[EvidenceScreen, ...] = (),
    note: str = "",
    plan_text: str | None = None,
    placements: Mapping[str, Placement] | None = None,
) -> Judged:
    """One checker judgement of ``items``, every passed/failed verdict grounded by the rules of evidence
    against the recorded artifacts inside ``window`` (an item with a ``placements`` entry: inside its own
    window, recorded under its own attempt)."""
    started = time.time()
    entry: Entry = "final" if window.final else "checkpoint"
    placements = placements or {}
    here = Placement(window, attempt_id, checkpoint_id, anchor_step)
    request = CheckRequest(
        entry=entry, goal=svc.spec.goal, plan=run.plan_text if plan_text is None else plan_text,
        items=tuple(items), history=history, images=images, screen=screen, turn=len(run.steps), note=note,
        screens=screens, judged_at={key: p.anchor_step for key, p in placements.items()
                                    if p.anchor_step is not None},
        ids=svc.item_ids.map(items),
    )
    request = replace(request, rules=rules_for(request, typed=bool(window.typed)))
    timeout = svc.config.check_timeout_s
    prefix = "final check " if entry == "final" else ""
    evidence = RunEvidence(svc, run, window)
    try:
        async with asyncio.timeout(timeout):
            result = await checker_for(svc).assess(request, evidence)
    except TimeoutError:
        return _fail_open_placed(items, f"{prefix}timeout after {timeout:g}s", here, placements,
                                 started), (), {}
    except ArtemisError as exc:  # fail-open: the device or provider failing lets the run go on, inconclusive
        reason = f"{prefix or 'checker '}error: {type(exc).__name__}: {exc}"[:500]
        return _fail_open_placed(items, reason, here, placements, started), (), {}
    if result.unmatched:
        svc.journal.append_event("checker_unmatched_verdicts", attempt=attempt_id,
                                 named=list(result.unmatched))
    verdicts: list[CheckVerdict] = []
    pending: dict[str, tuple[Fact, ...]] = {}
    for judged in result.assessments:
        verdict, left = await _grounded(svc, run, judged, placements.get(judged.item.key, here), evidence,
                                        started=started)
        verdicts.append(verdict)
        if left:
            pending[judged.item.key] = left
    return verdicts, result.unmet_subgoals, pending


def _fail_open_placed(
    items: Sequence[CheckItem], reason: str, here: Placement, placements: Mapping[str, Placement],
    started: float,
) -> list[CheckVerdict]:
    verdicts: list[CheckVerdict] = []
    for item in items:
        p = placements.get(item.key, here)
        verdicts += _fail_open([item], reason, p.attempt_id, p.checkpoint_id, p.anchor_step, started)
    return verdicts


async def _grounded(
    svc: RunServices, run: RunProgress, assessment: Assessment, placement: Placement,
    evidence: RunEvidence, *, started: float,
) -> tuple[CheckVerdict, tuple[Fact, ...]]:
    """The ledger entry of one assessment: a passed/failed verdict stands only on citations that hold by
    the rules of evidence in its placement's window; and the goal's facts left to the run's probe checks."""
    status, reason = assessment.status, assessment.reason
    grounded = None
    if assessment.claims or status in ("passed", "failed"):
        seen = Evidence(svc.screens, tuple(evidence.probes), run.baseline)
        grounded = await asyncio.to_thread(ground, assessment.claims, assessment.item, placement.window, seen,
                                           passed=status == "passed")
        if grounded.why and status in ("passed", "failed"):
            status, reason = "inconclusive", f"{assessment.status}, but {grounded.why}"
    verdict = make_verdict(
        assessment.item, status=status, evidence=assessment.evidence, suggestion=assessment.suggestion,
        reason=reason, source="model", attempt_id=placement.attempt_id, checkpoint_id=placement.checkpoint_id,
        anchor_step=placement.anchor_step, started_at=started,
        citations=grounded.citations if grounded is not None else (),
    )
    left = grounded.pending if grounded is not None and status == "passed" else ()
    return verdict, left


async def judge_history(
    svc: RunServices, run: RunProgress, items: Sequence[CheckItem], *, attempt_id: str, checkpoint_id: str,
    anchor: int,
    plan_text: str | None = None, reason: str = "",
    held: Callable[[], Awaitable[list[CheckVerdict] | None]] | None = None,
) -> list[CheckVerdict]:
    """Judge items from the recorded history up to ``anchor`` (checkpoint entry: no live screen, no later
    step is served or citable). Probes run now; with ``held``, the model-judged items wait for the verdicts
    it gives (the final check judged them, see ``folding``), and are judged here only when it gives none."""
    verdicts = [
        await probe_verdict(svc, item, attempt_id=attempt_id, checkpoint_id=checkpoint_id,
                            anchor_step=anchor, reason=reason)
        for item in items if item.probe is not None
    ]
    model_items = [item for item in items if item.probe is None]
    folded = await held() if held is not None and model_items else None
    if folded is not None:
        verdicts += folded
    elif model_items:
        window = Window.over(run.steps[:anchor], anchor=anchor)
        history, images, caption, screens = await RunEvidence(svc, run, window).anchored(anchor)
        judged, _, _ = await model_verdicts(
            svc, run, model_items, window=window, attempt_id=attempt_id, checkpoint_id=checkpoint_id,
            anchor_step=anchor, history=history, images=images, screens=screens, note=caption,
            plan_text=plan_text,
        )
        verdicts += judged
    return verdicts


def checkpoint_runner(svc: RunServices, run: RunProgress) -> AttemptRunner:
    """What the checkpoint scheduler runs for each attempt: the history up to its anchor, judged."""

    async def run_attempt(attempt: Attempt) -> list[CheckVerdict]:
        checkpoint = attempt.checkpoint
        return await judge_history(
            svc, run, checkpoint.items, attempt_id=attempt.attempt_id, checkpoint_id=checkpoint.checkpoint_id,
            anchor=attempt.anchor_step, plan_text=checkpoint.plan_text,
            held=(lambda: svc.folding.wait(attempt)) if foldable(svc, run, attempt) else None,
        )

    return run_attempt
