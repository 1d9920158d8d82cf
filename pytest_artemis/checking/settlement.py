"""Exit settlement: the barrier over running checks, then the final check against the original goal."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Sequence

from pytest_artemis.contracts import ArtemisError, CheckItem, CheckVerdict, EvidenceScreen
from pytest_artemis.engine.context import recent_history
from pytest_artemis.engine.effects import AddFinding, Effect, FinalCheck, Record, Reopen, SendBack, apply
from pytest_artemis.engine.state import RunProgress, RunServices
from pytest_artemis.engine.stopping import limit_reached
from pytest_artemis.models import ImagePart
from pytest_artemis.plan import normalize_text

from .checkpoints import Attempt, CheckpointScheduler
from .evidence import RunEvidence, final_screen
from .facts import Fact
from .findings import FindingKey, finding_text
from .folding import foldable
from .grounding import Window
from .harvest import harvest_effects
from .judging import Placement, attempt_limit_s, judge_history, model_verdicts, probe_verdict
from .ledger_facts import shown_by_probe_checks
from .tally import unmet_verify
from .verdicts import blanket, current_verdicts, make_verdict

FINAL = "final"


def _needs_judging(verdict: CheckVerdict | None) -> bool:
    """A complete item is judged at exit only when the ledger holds nothing but a settlement placeholder."""
    return verdict is None or (verdict.source == "settlement" and verdict.status == "unchecked")


async def settle(svc: RunServices, run: RunProgress, scheduler: CheckpointScheduler) -> bool:
    """Run the exit settlement, applying what each phase asks; returns True when the operator is sent back
    to repair unmet verify items."""
    if not svc.config.final_check:
        apply(svc, run, await barrier(svc, run, scheduler))
        apply(svc, run, await recheck_probes(svc, run))
        return False
    attempt = run.final_attempts + 1
    # The final state (the goal, the end items) is judged while running checks finish: it depends on the
    # device and the steps, not on their verdicts. A run whose turns cost no model time (replayed) would
    # otherwise wait for a checkpoint check and then the final check, one after the other; its held
    # checkpoint is judged in the same request.
    bound = bound_back(svc, run, attempt)
    held = None if bound else held_checkpoint(svc, run, scheduler, attempt)
    svc.folding.close()
    on_state = None if bound else asyncio.create_task(judge_final_state(svc, run, attempt, held))
    try:
        apply(svc, run, await barrier(svc, run, scheduler))
        apply(svc, run, await recheck_probes(svc, run))
        # A verify item already failed, or left open, decides a send-back: the goal is judged at the exit.
        unmet = bound_back(svc, run, attempt)
        if unmet and cut_short(svc, run, attempt, unmet):
            return True
        on_state = on_state or asyncio.create_task(judge_final_state(svc, run, attempt))
        apply(svc, run, await judge_final(svc, run, attempt, on_state))
    finally:
        if on_state is not None:
            on_state.cancel()  # a cut-short check's judgement, or a settlement that was cancelled or failed
        if held is not None:
            svc.folding.deliver(held, None)  # not judged after all: the attempt judges itself
        svc.folding.reopen()
    back = send_back(svc, run)
    apply(svc, run, back)
    return bool(back)


def held_checkpoint(
    svc: RunServices, run: RunProgress, scheduler: CheckpointScheduler, attempt: int
) -> Attempt | None:
    """The running checkpoint attempt final check ``attempt`` judges in its own request (``folding``): the
    newest one anchored at a replayed turn and still held; None when there is none, or when one of its
    items reads like a final item (one reply could not tell their verdicts apart)."""
    final_texts = {normalize_text(i.text).casefold()
                   for i in (*run.all_items(svc.user_items), svc.goal_item) if i.when == "end"}
    held = [a for a in scheduler.running if foldable(svc, run, a) and svc.folding.holds(a)]
    if not held:
        return None
    newest = max(held, key=lambda a: (a.anchor_step, a.started_at))
    if any(normalize_text(i.text).casefold() in final_texts for i in newest.checkpoint.items):
        return None
    svc.folding.take(newest)
    svc.journal.append_event("checkpoint_judged_with_final_check", attempt=newest.attempt_id,
                             final=f"{FINAL}#{attempt}", anchor_step=newest.anchor_step)
    return newest


def bound_back(svc: RunServices, run: RunProgress, attempt: int) -> tuple[CheckItem, ...]:
    """The verify items that send the operator back whatever final check ``attempt`` would find: ``complete``
    ones whose current verdict failed (the final check never judges them again) and any whose subgoal is
    open, while attempts, steps and time remain; empty when the final check decides."""
    if attempt >= svc.config.final_check_max_attempts or limit_reached(svc, run) is not None:
        return ()
    open_keys = {s.key for s in run.plan.subgoals if not s.done}
    # An ``end`` item failed by an earlier round is judged again by this one: only its open subgoal binds.
    return tuple(item for item in unmet_verify(run.all_items(svc.user_items), run.ledger, run.plan)
                 if item.when == "complete" or item.subgoal in open_keys)


def cut_short(svc: RunServices, run: RunProgress, attempt: int, unmet: Sequence[CheckItem]) -> bool:
    """Final check ``attempt`` without a judgement, when the operator goes back to repair ``unmet`` anyway:
    a goal judged now would be judged again on the state the run ends in (a model call and its wait, per
    repair, saved). False, with nothing sent back, when a limit was reached meanwhile: the check judges."""
    apply(svc, run, [FinalCheck(attempt, ())])
    back = send_back(svc, run)
    if not back:
        return False
    texts = [item.text for item in unmet]
    svc.observer.on_checking(f"final check #{attempt}: not judged, verify item(s) unmet: {'; '.join(texts)}")
    svc.journal.append_event("final_check_cut_short", attempt=attempt, unmet=texts)
    apply(svc, run, back)
    return True


async def barrier(svc: RunServices, run: RunProgress, scheduler: CheckpointScheduler) -> list[Effect]:
    """Every queued or running check to its end (within the settle timeout); their verdicts reopen nothing
    now, the final check judges what is left."""
    if scheduler.idle:
        return []
    svc.observer.on_checking(f"waiting for {len(scheduler.running)} running check(s) "
                             f"(up to {svc.config.settle_timeout_s:g}s)")
    harvests = await scheduler.settle(svc.config.settle_timeout_s)
    return [effect for harvest in harvests for effect in harvest_effects(svc, run, harvest, reopen=False)]


FinalVerdicts = tuple[list[CheckVerdict], tuple[str, ...], dict[str, tuple[Fact, ...]]]
"""A final check part's verdicts, the subgoals it names unmet, and the goal's facts its citations left to
this run's probe checks."""


async def judge_final_state(
    svc: RunServices, run: RunProgress, attempt: int, held: Attempt | None = None
) -> FinalVerdicts:
    """The final check's judgement of the final state: every ``end`` item and the original goal, and the
    model-judged items of a ``held`` checkpoint at its anchor (fail-open: a device or provider failure, or
    its timeout, leaves them inconclusive and the goal unchecked; the held ones then judge themselves)."""
    items = (*(i for i in run.all_items(svc.user_items) if i.when == "end"), svc.goal_item)
    also = f" and checkpoint {held.attempt_id} at step {held.anchor_step}" if held is not None else ""
    svc.observer.on_checking(f"final check #{attempt}: judging the goal and "
                             f"{len(items) - 1} item(s){also} (up to {attempt_limit_s(svc.config):g}s)")
    attempt_id = f"{FINAL}#{attempt}"
    try:
        return await _fail_open_part(svc, items, attempt_id, final_state(svc, run, items, attempt_id, held))
    finally:
        if held is not None:
            svc.folding.deliver(held, None)


async def judge_final(
    svc: RunServices, run: RunProgress, attempt: int, on_state: Awaitable[FinalVerdicts]
) -> list[Effect]:
    """The final check: the ``complete`` items no checkpoint judged (from their anchored history, once
    the running checks ended), then the judgement of the final state, ``on_state``."""
    attempt_id = f"{FINAL}#{attempt}"
    current = current_verdicts(run.ledger)
    unjudged = tuple(i for i in run.all_items(svc.user_items)
                     if i.when == "complete" and _needs_judging(current.get(i.key)))
    verdicts: list[CheckVerdict] = []
    if unjudged:
        verdicts, _, _ = await _fail_open_part(svc, unjudged, attempt_id,
                                               judge_unjudged(svc, run, unjudged, attempt_id))
    state, unmet, pending = await on_state
    # The checks running beside the final state's judgement have ended: the goal's facts its citations left
    # to this run's probe checks are looked up in the ledger now.
    state = [shown_by_probe_checks(v, pending[v.item_key], run, svc.user_items)
             if v.item_key in pending else v for v in state]
    return [FinalCheck(attempt, unmet), *(Record(_goal_unjudged(v)) for v in (*verdicts, *state))]


async def _fail_open_part(
    svc: RunServices, items: Sequence[CheckItem], attempt_id: str, part: Awaitable[FinalVerdicts]
) -> FinalVerdicts:
    """``part`` within the attempt's limit; its timeout or a device/provider failure leaves ``items``
    inconclusive (fail-open: the run ends, nothing passes on it)."""
    started = time.time()
    limit = attempt_limit_s(svc.config)
    try:
        async with asyncio.timeout(limit):
            return await part
    except TimeoutError:
        return _failed_open(items, attempt_id, started, f"final check timeout after {limit:g}s"), (), {}
    except ArtemisError as exc:
        return _failed_open(items, attempt_id, started, f"final check error: {type(exc).__name__}"), (), {}


def _goal_unjudged(verdict: CheckVerdict) -> CheckVerdict:
    """A goal the final check did not judge (silent, failing, timed out, malformed) is ``unchecked``."""
    if verdict.kind != "goal" or verdict.status != "inconclusive" or verdict.citation is not None:
        return verdict
    if verdict.reason.startswith(("final check", "[E12] the checker gave no verdict", "checker error")):
        return verdict.model_copy(update={"status": "unchecked"})
    return verdict


async def recheck_probes(svc: RunServices, run: RunProgress) -> list[Effect]:
    """Still true at the end: every probe-backed ``complete`` verify item whose current verdict passed is
    probed again. A regression records a ``failed`` verdict (the earlier pass stays on record)."""
    current = current_verdicts(run.ledger)
    effects: list[Effect] = []
    for item in run.all_items(svc.user_items):
        before = current.get(item.key)
        if item.kind != "verify" or item.when != "complete" or item.probe is None or before is None \
                or before.status != "passed":
            continue
        again = await probe_verdict(svc, item, attempt_id=f"{FINAL}#recheck{run.final_attempts + 1}",
                                    checkpoint_id=FINAL, anchor_step=len(run.steps) or None)
        if again.status == "failed":
            reason = f"regressed: passed at step {before.anchor_step}, no longer true at the end"
            effects.append(Record(again.model_copy(update={"reason": reason})))
        else:
            svc.journal.append_event("probe_recheck", item=item.text, status=again.status)
    return effects


def _failed_open(
    items: Sequence[CheckItem], attempt_id: str, started: float, reason: str
) -> list[CheckVerdict]:
    return list(blanket(items, status="inconclusive", reason=reason, source="model", attempt_id=attempt_id,
                        checkpoint_id=FINAL, anchor_step=None, started_at=started))


async def judge_unjudged(
    svc: RunServices, run: RunProgress, items: Sequence[CheckItem], attempt_id: str
) -> FinalVerdicts:
    """``complete`` items no checkpoint judged: from the history near their anchor only (never from the
    live screen), else ``unchecked``."""
    verdicts: list[CheckVerdict] = []
    for anchor, group in _by_anchor(run, items).items():
        if anchor is None:
            verdicts += [_no_evidence(i, attempt_id) for i in group]
        else:
            verdicts += await judge_history(svc, run, group, attempt_id=attempt_id, checkpoint_id=FINAL,
                                            anchor=anchor, reason="judged at exit from the anchored history")
    return verdicts, (), {}


async def final_state(
    svc: RunServices, run: RunProgress, items: Sequence[CheckItem], attempt_id: str,
    held: Attempt | None = None,
) -> FinalVerdicts:
    """``end`` items on the final state (probes run now, the rest by the final checker entry) and the goal
    itself, from the final screen and the last step's screens; a ``held`` checkpoint's model-judged items
    in the same request, each grounded in its anchored window (their verdicts go to the held attempt)."""
    end_items = [i for i in items if i.kind != "goal"]
    verdicts = [await probe_verdict(svc, item, attempt_id=attempt_id, checkpoint_id=FINAL,
                                    anchor_step=len(run.steps) or None)
                for item in end_items if item.probe is not None]
    final, image = await final_screen(svc)
    last = len(run.steps)
    window = Window.over(run.steps, final=True)
    screens = [s for s in await RunEvidence(svc, run, window).screens(last, ("pre", "post")) if s is not None]
    screens.append(final)
    model_items = [i for i in end_items if i.probe is None] + [svc.goal_item]
    images: tuple[ImagePart, ...] = (image,)
    note = "The final screen is attached."
    placements: dict[str, Placement] = {}
    if held is not None:
        more, placements, held_images, caption, held_screens = await held_evidence(svc, run, held)
        model_items += more
        images = (*held_images, image)
        note = f"For the items judged at step {held.anchor_step}: {caption} The final screen comes last."
        served = {(h.step, h.screen) for h in held_screens}
        screens = [*held_screens, *(s for s in screens if (s.step, s.screen) not in served)]
    judged, unmet, pending = await model_verdicts(
        svc, run, model_items, window=window,
        attempt_id=attempt_id, checkpoint_id=FINAL, anchor_step=last or None,
        history=recent_history(svc, run),
        images=images, screen=final.view, screens=tuple(screens),
        note=f"{_ledger_note(run)}\n{note}", placements=placements,
    )
    if held is not None:
        svc.folding.deliver(held, [v for v in judged if v.item_key in placements])
    return verdicts + [v for v in judged if v.item_key not in placements], unmet, pending


async def held_evidence(
    svc: RunServices, run: RunProgress, held: Attempt
) -> tuple[list[CheckItem], dict[str, Placement], tuple[ImagePart, ...], str, tuple[EvidenceScreen, ...]]:
    """A held checkpoint's model-judged items, where their verdicts belong, and the evidence its own check
    would serve: the anchor step's and the step before's screenshots (with their caption) and screens."""
    anchor = held.anchor_step
    window = Window.over(run.steps[:anchor], anchor=anchor)
    _, images, caption, screens = await RunEvidence(svc, run, window).anchored(anchor)
    items = [i for i in held.checkpoint.items if i.probe is None]
    place = Placement(window, held.attempt_id, held.checkpoint.checkpoint_id, anchor)
    return items, {i.key: place for i in items}, images, caption, screens


def _by_anchor(run: RunProgress, items: Sequence[CheckItem]) -> dict[int | None, list[CheckItem]]:
    """Group items by the step that last completed their subgoal (task-level: the last step)."""
    groups: dict[int | None, list[CheckItem]] = {}
    for item in items:
        anchor = run.anchors.get(item.subgoal) if item.subgoal else (len(run.steps) or None)
        groups.setdefault(anchor, []).append(item)
    return groups


def _no_evidence(item: CheckItem, attempt_id: str) -> CheckVerdict:
    return make_verdict(item, status="unchecked", evidence="", source="settlement", attempt_id=attempt_id,
                        checkpoint_id=FINAL, anchor_step=None, started_at=time.time(),
                        reason="its subgoal was never marked done: no recorded evidence")


def _ledger_note(run: RunProgress) -> str:
    current = current_verdicts(run.ledger)
    lines = [f"- {v.kind}: {v.item_text}: {v.status}" for v in current.values() if v.when == "complete"]
    return "Ledger (already judged, for context only):\n" + "\n".join(lines) if lines else ""


def send_back(svc: RunServices, run: RunProgress) -> list[Effect]:
    """Send the operator back with findings when verify items (never asserts) are unmet and attempts,
    steps and time remain, reopening the subgoals concerned; no effects when the run ends here."""
    unmet = unmet_verify(run.all_items(svc.user_items), run.ledger, run.plan)
    current = current_verdicts(run.ledger)
    goal = current.get(svc.goal_item.key)
    goal_failed = goal is not None and goal.status == "failed"
    if not unmet and not run.unmet_subgoals and not goal_failed:
        return []
    if run.final_attempts >= svc.config.final_check_max_attempts or limit_reached(svc, run) is not None:
        return []
    effects: list[Effect] = []
    reopen: set[str] = set()
    for item in unmet:
        verdict = current.get(item.key)
        failed = verdict is not None and verdict.status == "failed"
        text = finding_text(verdict) if failed and verdict else \
            f"verify not met: {item.text} (its subgoal is not done)"
        effects.append(AddFinding(FindingKey.item(item.key), text))
        reopen.update([item.subgoal] if item.subgoal else [])
    wanted = {normalize_text(t).casefold() for t in run.unmet_subgoals}
    for subgoal in run.plan.subgoals:
        if subgoal.text.casefold() in wanted:
            reopen.add(subgoal.key)
            effects.append(AddFinding(FindingKey.goal(subgoal.key),
                                      f"final check: not achieved for the goal: {subgoal.text}"))
    if goal_failed and goal is not None:
        effects.append(AddFinding(FindingKey.goal(svc.goal_item.key), finding_text(goal)))
    return [*effects, Reopen(tuple(sorted(reopen))), SendBack(tuple(i.text for i in unmet))]
