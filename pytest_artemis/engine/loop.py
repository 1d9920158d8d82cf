"""Operator turns: perceive → context → decide → guard the plan write → execute → record → spawn checks."""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field

from pytest_artemis.agents.operator import decide
from pytest_artemis.agents.schemas import OperatorDecision
from pytest_artemis.checking.checkpoints import Checkpoint, CheckpointScheduler
from pytest_artemis.checking.harvest import harvest_effects
from pytest_artemis.checking.screens import post_view
from pytest_artemis.contracts import ActionResult, StepFlag, StepRecord, UIElement
from pytest_artemis.device import DeviceCommandFailed, DeviceError
from pytest_artemis.device.model_image import prerender_jpeg
from pytest_artemis.device.perception import Screen, meaningful, perceive
from pytest_artemis.models import ImagePart, ModelOutputInvalid
from pytest_artemis.plan import PlanSyntaxError, guard_operator_write, new_completions, parse_plan

from .actions import execute
from .context import operator_context, operator_scenario
from .effects import apply
from .state import RunProgress, RunServices
from .stopping import Stop, StopReason, before_turn, gave_up

log = logging.getLogger(__name__)


@dataclass
class _Turn:
    """What one turn produced before it is recorded."""

    number: int
    started_at: float
    flags: list[StepFlag] = field(default_factory=list)
    error: str = ""
    completed: tuple[str, ...] = ()
    replayed: bool = False


def _plan_write(svc: RunServices, run: RunProgress, turn: _Turn, text: str) -> None:
    """Adopt the operator's plan write through the check-line guard and note new completions."""
    try:
        proposed = parse_plan(text)
    except PlanSyntaxError as exc:
        turn.error = f"plan write refused: {exc}"
        return
    protected = svc.user_items if svc.config.checks_enabled else ()
    guarded = guard_operator_write(run.plan, proposed, protected=protected)
    if guarded.restored:
        turn.flags.append("guard_restored")
        svc.journal.append_event("guard_restored", step=turn.number,
                                 lines=[line.model_dump(mode="json") for line in guarded.restored])
    if guarded.plan == run.plan:
        return
    turn.completed = new_completions(run.plan, guarded.plan)
    run.set_plan(guarded.plan, svc.journal)


def _queue_checkpoints(
    svc: RunServices, run: RunProgress, scheduler: CheckpointScheduler, turn: _Turn
) -> None:
    """Every subgoal newly marked done this turn is anchored; those with checks are queued."""
    items = run.plan_items(svc.user_items)
    for key in turn.completed:
        run.anchors[key] = turn.number
        subgoal = run.plan.subgoal(key)
        own = tuple(i for i in items if i.subgoal == key and i.when == "complete")
        if subgoal is None or not own or not svc.config.midway_checks or run.stop is not None:
            continue
        scheduler.queue(Checkpoint(key, subgoal.text, own, run.plan_text))


async def _decide(svc: RunServices, run: RunProgress, screen: Screen, turn: _Turn) -> OperatorDecision | None:
    if svc.replay is None:
        return await _ask(svc, run, screen, turn)
    decision, turn.replayed = await svc.replay.decide(svc, run, turn.number, screen,
                                                      lambda: _ask(svc, run, screen, turn))
    return decision


async def _ask(svc: RunServices, run: RunProgress, screen: Screen, turn: _Turn) -> OperatorDecision | None:
    svc.folding.release()  # a checkpoint held for the final check is judged while the model decides
    text, context = operator_context(svc, run, screen, turn.number)
    # Decoding and scaling the screenshot is the costliest harness work of a turn: off the event loop,
    # so running checks are not held up by it.
    image = ImagePart(await asyncio.to_thread(screen.model_image, svc.config.image_max_side))
    try:
        return await decide(svc.models.operator, svc.calls, scenario=operator_scenario(svc, run),
                            user_text=text, image=image, context=context)
    except ModelOutputInvalid as exc:
        turn.flags.append("model_failed")
        turn.error = f"model output invalid: {exc}"
        return None


async def operator_turn(svc: RunServices, run: RunProgress, scheduler: CheckpointScheduler) -> bool:
    """One recorded turn; returns whether the operator claimed ``finish``. Device errors propagate
    after the turn is recorded."""
    turn = _Turn(number=len(run.steps) + 1, started_at=time.time())
    log.debug("run %s: turn %d starts", svc.run_id, turn.number)
    screen = await asyncio.to_thread(perceive, svc.device, ocr=svc.ocr,
                                     image_max_side=svc.config.image_max_side)
    pre = svc.journal.put_screen(screen.capture)
    hierarchy = svc.journal.put_blob(screen.hierarchy_xml, "xml")
    decision = await _decide(svc, run, screen, turn)
    if decision is not None and decision.plan is not None:
        _plan_write(svc, run, turn, decision.plan)
    actions = tuple(decision.actions) if decision else ()
    run.acting = turn.number if actions else run.acting
    executed = await execute(svc.device, screen.view, actions, svc.secrets)
    results, finish, refused = executed.results, executed.finish, executed.refused
    device_error = executed.error
    if executed.gave_up:
        # Before the checkpoints are queued: nothing is judged midway, nor repaired, after giving up.
        turn.flags.append("gave_up")
        apply(svc, run, [gave_up(executed.gave_up)])
    post = post_hierarchy = None
    post_elements: tuple[UIElement, ...] = ()
    if device_error is None:
        try:
            shot = await asyncio.to_thread(svc.device.screenshot)
            # Most often the next turn's screen too: its model image is rendered while that turn begins.
            prerender_jpeg(shot, svc.config.image_max_side)
            post = svc.journal.put_screen(shot)
            if turn.completed:  # the evidence its checkpoint is judged from
                post_hierarchy, post_elements = await _post_hierarchy(svc, run)
        except DeviceError as exc:  # the actions ran: record the turn, then let the error end the run
            device_error = exc
    if refused:
        turn.flags.append("actions_refused")
    run.breakers.refusal(refused, next((r.detail for r in results if r.refused), ""))
    if finish:
        turn.flags.append("finish_claimed")
    if run.breakers.step(pre, post, [r.action for r in results if r.ok]):
        turn.flags.append("no_effect")
    if device_error is not None:
        turn.error = f"{type(device_error).__name__}: {device_error}"
    _queue_checkpoints(svc, run, scheduler, turn)
    svc.screens.record(turn.number, "pre", screen.view, ocr_done=True)
    svc.screens.record(turn.number, "post", post_view(post, screen.view, post_elements))
    step = _record(run, turn, screen, (pre, post, hierarchy, post_hierarchy), decision, results)
    svc.journal.append_step(step)
    run.steps.append(step)
    svc.observer.on_step(step)
    if run.breakers.tripped:
        apply(svc, run, [Stop(StopReason.BREAKER, run.breakers.tripped)])
    log.debug("run %s: turn %d ends: %d action(s), %d refused, finish=%s, error=%s", svc.run_id,
              turn.number, len(results), sum(r.refused for r in results), finish, turn.error or "none")
    if device_error is not None:
        raise device_error
    for harvest in await scheduler.release(turn.number):
        apply(svc, run, harvest_effects(svc, run, harvest))
    return finish


async def _post_hierarchy(svc: RunServices, run: RunProgress) -> tuple[str | None, tuple[UIElement, ...]]:
    """The hierarchy after a completing turn's actions; a failed dump only leaves that evidence missing."""
    try:
        dumped = await asyncio.to_thread(svc.device.hierarchy)
    except DeviceCommandFailed as exc:
        svc.journal.append_event("post_hierarchy_missing", step=len(run.steps) + 1, error=str(exc)[:300])
        return None, ()
    return svc.journal.put_blob(dumped.xml, "xml"), meaningful(dumped.elements)


def _record(
    run: RunProgress, turn: _Turn, screen: Screen, refs: tuple[str, str | None, str, str | None],
    decision: OperatorDecision | None, results: list[ActionResult],
) -> StepRecord:
    pre, post, hierarchy, post_hierarchy = refs
    kind = run.turn_kind if run.turn_kind == "final_repair" else ("repair" if run.findings else "act")
    return StepRecord(
        step=turn.number, turn=kind, pre_screen=pre, post_screen=post, hierarchy=hierarchy,
        post_hierarchy=post_hierarchy,
        foreground=screen.view.foreground, decision=decision.decision if decision else "",
        actions=tuple(decision.actions) if decision else (), results=tuple(results),
        plan_version=run.plan_version, completed=turn.completed, flags=tuple(turn.flags),
        error=turn.error, replayed=turn.replayed, started_at=turn.started_at, finished_at=time.time(),
    )


def harvest_now(svc: RunServices, run: RunProgress, scheduler: CheckpointScheduler) -> None:
    """Apply every finished checkpoint; never waits for a running one."""
    for harvest in scheduler.harvest():
        apply(svc, run, harvest_effects(svc, run, harvest))


async def drive(svc: RunServices, run: RunProgress, scheduler: CheckpointScheduler) -> None:
    """Operator turns until convergence (all subgoals done, a finish claim), a stop, or a budget.

    Always runs at least one turn when budget and time allow (a send-back must reach the operator).
    """
    first = True
    while True:
        harvest_now(svc, run, scheduler)
        for harvest in await scheduler.spawn_ready():
            apply(svc, run, harvest_effects(svc, run, harvest))
        stop = before_turn(svc, run, first=first)
        if stop is not None:
            if stop.blocks:
                apply(svc, run, [stop])
            return
        first = False
        if await operator_turn(svc, run, scheduler):
            run.finish_claimed = True
            return
