"""Operator turns: perceive → context → decide → guard the plan write → execute → record → spawn checks."""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field

from pytest_artemis.agents.operator import decide
from pytest_artemis.agents.schemas import OperatorDecision
from pytest_artemis.contracts import ActionResult, StepFlag, StepRecord, UIElement
from pytest_artemis.device import DeviceCommandFailed, DeviceError
from pytest_artemis.device.perception import Screen, meaningful, perceive
from pytest_artemis.models import ImagePart, ModelOutputInvalid
from pytest_artemis.plan import PlanSyntaxError, guard_operator_write, new_completions, parse_plan

from .actions import execute
from .checkpoints import Checkpoint, CheckpointScheduler
from .context import operator_context, operator_scenario
from .effects import apply
from .harvest import harvest_effects
from .screens import post_view
from .state import RunState
from .stopping import Stop, StopReason, before_turn

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


def _plan_write(state: RunState, turn: _Turn, text: str) -> None:
    """Adopt the operator's plan write through the check-line guard and note new completions."""
    try:
        proposed = parse_plan(text)
    except PlanSyntaxError as exc:
        turn.error = f"plan write refused: {exc}"
        return
    protected = state.user_items if state.config.checks_enabled else ()
    guarded = guard_operator_write(state.plan, proposed, protected=protected)
    if guarded.restored:
        turn.flags.append("guard_restored")
        state.journal.append_event("guard_restored", step=turn.number,
                                   lines=[line.model_dump(mode="json") for line in guarded.restored])
    if guarded.plan == state.plan:
        return
    turn.completed = new_completions(state.plan, guarded.plan)
    state.set_plan(guarded.plan)


def _queue_checkpoints(state: RunState, scheduler: CheckpointScheduler, turn: _Turn) -> None:
    """Every subgoal newly marked done this turn is anchored; those with checks are queued."""
    items = state.plan_items()
    for key in turn.completed:
        state.anchors[key] = turn.number
        subgoal = state.plan.subgoal(key)
        own = tuple(i for i in items if i.subgoal == key and i.when == "complete")
        if subgoal is None or not own or not state.config.midway_checks or state.stop is not None:
            continue
        scheduler.queue(Checkpoint(key, subgoal.text, own, state.plan_text))


async def _decide(state: RunState, screen: Screen, turn: _Turn) -> OperatorDecision | None:
    if state.replay is None:
        return await _ask(state, screen, turn)
    decision, turn.replayed = await state.replay.decide(state, turn.number, screen,
                                                        lambda: _ask(state, screen, turn))
    return decision


async def _ask(state: RunState, screen: Screen, turn: _Turn) -> OperatorDecision | None:
    text, context = operator_context(state, screen, turn.number)
    # Decoding and scaling the screenshot is the costliest harness work of a turn: off the event loop,
    # so running checks are not held up by it.
    image = ImagePart(await asyncio.to_thread(screen.model_image, state.config.image_max_side))
    try:
        return await decide(state.models.operator, state.calls, scenario=operator_scenario(state),
                            user_text=text, image=image, context=context)
    except ModelOutputInvalid as exc:
        turn.flags.append("model_failed")
        turn.error = f"model output invalid: {exc}"
        return None


async def operator_turn(state: RunState, scheduler: CheckpointScheduler) -> bool:
    """One recorded turn; returns whether the operator claimed ``finish``. Device errors propagate
    after the turn is recorded."""
    turn = _Turn(number=len(state.steps) + 1, started_at=time.time())
    log.debug("run %s: turn %d starts", state.run_id, turn.number)
    screen = await asyncio.to_thread(perceive, state.device, ocr=state.ocr,
                                   image_max_side=state.config.image_max_side)
    pre = state.journal.put_screen(screen.capture.png)
    hierarchy = state.journal.put_blob(screen.hierarchy_xml, "xml")
    decision = await _decide(state, screen, turn)
    if decision is not None and decision.plan is not None:
        _plan_write(state, turn, decision.plan)
    actions = tuple(decision.actions) if decision else ()
    results, finish, refused, device_error = await execute(state.device, screen.view, actions)
    post = post_hierarchy = None
    post_elements: tuple[UIElement, ...] = ()
    if device_error is None:
        try:
            post = state.journal.put_screen((await asyncio.to_thread(state.device.screenshot)).png)
            if turn.completed:  # the evidence its checkpoint is judged from
                post_hierarchy, post_elements = await _post_hierarchy(state)
        except DeviceError as exc:  # the actions ran: record the turn, then let the error end the run
            device_error = exc
    if refused:
        turn.flags.append("actions_refused")
    state.breakers.refusal(refused, next((r.detail for r in results if r.refused), ""))
    if finish:
        turn.flags.append("finish_claimed")
    if state.breakers.step(pre, post, [r.action for r in results if r.ok]):
        turn.flags.append("no_effect")
    if device_error is not None:
        turn.error = f"{type(device_error).__name__}: {device_error}"
    _queue_checkpoints(state, scheduler, turn)
    state.screens.record(turn.number, "pre", screen.view, ocr_done=True)
    state.screens.record(turn.number, "post", post_view(post, screen.view, post_elements))
    state.record_step(_record(state, turn, screen, (pre, post, hierarchy, post_hierarchy), decision, results))
    if state.breakers.tripped:
        apply(state, [Stop(StopReason.BREAKER, state.breakers.tripped)])
    log.debug("run %s: turn %d ends: %d action(s), %d refused, finish=%s, error=%s", state.run_id,
              turn.number, len(results), sum(r.refused for r in results), finish, turn.error or "none")
    if device_error is not None:
        raise device_error
    for harvest in await scheduler.release(turn.number):
        apply(state, harvest_effects(state, harvest))
    return finish


async def _post_hierarchy(state: RunState) -> tuple[str | None, tuple[UIElement, ...]]:
    """The hierarchy after a completing turn's actions; a failed dump only leaves that evidence missing."""
    try:
        dumped = await asyncio.to_thread(state.device.hierarchy)
    except DeviceCommandFailed as exc:
        state.journal.append_event("post_hierarchy_missing", step=len(state.steps) + 1, error=str(exc)[:300])
        return None, ()
    return state.journal.put_blob(dumped.xml, "xml"), meaningful(dumped.elements)


def _record(
    state: RunState, turn: _Turn, screen: Screen, refs: tuple[str, str | None, str, str | None],
    decision: OperatorDecision | None, results: list[ActionResult],
) -> StepRecord:
    pre, post, hierarchy, post_hierarchy = refs
    kind = state.turn_kind if state.turn_kind == "final_repair" else ("repair" if state.findings else "act")
    return StepRecord(
        step=turn.number, turn=kind, pre_screen=pre, post_screen=post, hierarchy=hierarchy,
        post_hierarchy=post_hierarchy,
        foreground=screen.view.foreground, decision=decision.decision if decision else "",
        actions=tuple(decision.actions) if decision else (), results=tuple(results),
        plan_version=state.plan_version, completed=turn.completed, flags=tuple(turn.flags),
        error=turn.error, replayed=turn.replayed, started_at=turn.started_at, finished_at=time.time(),
    )


def harvest_now(state: RunState, scheduler: CheckpointScheduler) -> None:
    """Apply every finished checkpoint; never waits for a running one."""
    for harvest in scheduler.harvest():
        apply(state, harvest_effects(state, harvest))


async def drive(state: RunState, scheduler: CheckpointScheduler) -> None:
    """Operator turns until convergence (all subgoals done, a finish claim), a stop, or a budget.

    Always runs at least one turn when budget and time allow (a send-back must reach the operator).
    """
    first = True
    while True:
        harvest_now(state, scheduler)
        for harvest in await scheduler.spawn_ready():
            apply(state, harvest_effects(state, harvest))
        stop = before_turn(state, first=first)
        if stop is not None:
            if stop.blocks:
                apply(state, [stop])
            return
        first = False
        if await operator_turn(state, scheduler):
            state.finish_claimed = True
            return
