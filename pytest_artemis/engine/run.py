"""run_task: one call runs a task on a device and returns its RunOutcome; infrastructure failures are
outcomes (``execution="crashed"``), never exceptions."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import logging
import time
import traceback
from collections.abc import Awaitable, Coroutine, Mapping
from typing import TYPE_CHECKING

from pytest_artemis.agents.planner import ask_plan
from pytest_artemis.checking.checkpoints import CheckpointScheduler
from pytest_artemis.checking.history import ProbeOutput, take_baseline
from pytest_artemis.checking.judging import attempt_limit_s, checkpoint_runner
from pytest_artemis.checking.settlement import settle
from pytest_artemis.checking.tally import goal_unchecked, tally, task_result
from pytest_artemis.checking.verdicts import current_verdicts
from pytest_artemis.contracts import (
    CheckItem,
    Execution,
    InfraFailure,
    InfrastructureError,
    RunOutcome,
    TaskSpec,
    UsageError,
)
from pytest_artemis.contracts.outcome import InfraKind
from pytest_artemis.device import Device
from pytest_artemis.models import CallLog, ModelContextExceeded, ModelOutputInvalid, ModelSet, call_timeouts
from pytest_artemis.plan import Plan, PlanSyntaxError, Subgoal, parse_plan, place_checks, plan_check_items
from pytest_artemis.probes import is_invariant, run_probe_check
from pytest_artemis.store.journal import RunJournal

from .config import RunConfig
from .loop import drive
from .observer import GuardedObserver, NullObserver, ObserverFailed, RunObserver
from .replay import Replay, ReplayMismatch
from .secrets import SecretBook
from .state import RunProgress, RunServices
from .stopping import blocked_reason, run_stop

if TYPE_CHECKING:
    from pytest_artemis.device.ocr import OcrEngine

log = logging.getLogger(__name__)
TRACEBACK_LIMIT = 20_000
"""Characters of a harness failure's traceback kept (its innermost frames, where the bug is)."""


def run_task(
    spec: TaskSpec,
    device: Device,
    models: ModelSet,
    config: RunConfig,
    journal: RunJournal,
    *,
    observer: RunObserver | None = None,
    ocr: OcrEngine | None = None,
    replay: Replay | None = None,
    secrets: Mapping[str, str] | None = None,
) -> RunOutcome:
    """Run ``spec`` to its outcome (blocking). See ``run_task_async``.

    Called from inside a running event loop, the run gets its own loop in a worker thread.
    """
    coro = run_task_async(spec, device, models, config, journal, observer=observer, ocr=ocr, replay=replay,
                          secrets=secrets)
    try:
        asyncio.get_running_loop()
        in_loop = True
    except RuntimeError:
        in_loop = False
    if not in_loop:  # outside the except block: a harness traceback is not chained to this RuntimeError
        return _run_loop(coro)
    with concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="artemis-run") as pool:
        # In the caller's context: its call deadline and timeouts (context variables) bound the calls.
        return pool.submit(contextvars.copy_context().run, _run_loop, coro).result()


def _run_loop(coro: Coroutine[object, object, RunOutcome]) -> RunOutcome:
    """``asyncio.run(coro)``, but an exception raised into the loop itself (a signal handler's while the
    loop waits for I/O: pytest-timeout's hard timer during a model call) cancels the run with its text,
    so the journal is closed as interrupted with that reason."""
    with asyncio.Runner() as runner:
        try:
            return runner.run(coro)
        except BaseException as exc:
            loop = runner.get_loop()
            pending = asyncio.all_tasks(loop)
            for task in pending:
                task.cancel(_reason(exc))
            if pending:
                loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
            raise


async def run_task_async(
    spec: TaskSpec,
    device: Device,
    models: ModelSet,
    config: RunConfig,
    journal: RunJournal,
    *,
    observer: RunObserver | None = None,
    ocr: OcrEngine | None = None,
    replay: Replay | None = None,
    secrets: Mapping[str, str] | None = None,
) -> RunOutcome:
    """Plan, operate, check and settle; close ``journal`` with the outcome and return it.

    Device and model-provider failures end the run as ``crashed`` with ``infra`` set; so does a bug in
    our own code (kind ``harness``, with its redacted traceback). An exception raised by ``observer``
    closes the run the same way, then propagates as ``ObserverFailed`` (its cause is the observer's own
    exception). A cancellation (KeyboardInterrupt), or any other exception raised into the run from
    outside (pytest-timeout's hard timer), closes the journal as ``interrupted`` with the reason when
    known, and propagates.
    With ``replay`` the first plan and operator decisions come from its recording while the screen
    matches it (verdicts never).
    With ``secrets`` (name → value) the operator may have the harness type one by name; no model request
    and no artifact holds a value (``secrets.SecretBook``).
    """
    header = journal.header
    run = RunProgress.start(config)
    book = SecretBook(secrets) if secrets else None
    svc = RunServices.start(spec, config, device, models, journal, ocr=ocr, replay=replay,
                            observer=GuardedObserver(observer or NullObserver()), secrets=book,
                            calls=CallLog(header.run_id, lambda record: run.count_call(record, journal)))
    scheduler = CheckpointScheduler(checkpoint_runner(svc, run), concurrency=config.check_concurrency,
                                    timeout_s=attempt_limit_s(config))
    execution: Execution = "finished"
    infra: InfraFailure | None = None
    observer_failed: ObserverFailed | None = None
    try:
        with call_timeouts(config.model_timeouts):
            svc.observer.on_start(header)
            await _prepare(svc, run)
            while True:
                await drive(svc, run, scheduler)
                if not await settle(svc, run, scheduler):
                    break
            await asyncio.to_thread(journal.flush_screens)  # a screenshot that was not written fails the run
    except InfrastructureError as exc:
        execution, infra = "crashed", _infra(exc, exc.infra_kind)
    except (ReplayMismatch, UsageError) as exc:  # e.g. the kill switch refused a real model request
        execution, infra = "crashed", _infra(exc, "usage")
    except ModelContextExceeded as exc:
        execution, infra = "crashed", _infra(exc, "model")
    except (asyncio.CancelledError, KeyboardInterrupt) as exc:
        await _cancel(scheduler)
        _close(svc, run, "interrupted", None, _reason(exc))
        raise
    except ObserverFailed as exc:
        observer_failed = exc
        execution, infra = "crashed", _harness(svc, exc.error, "raised by the run's observer: ")
    except Exception as exc:  # a bug in our own code: a closed run (ERROR) that keeps its traceback
        execution, infra = "crashed", _harness(svc, exc)
    except BaseException as exc:  # raised into the run from outside: pytest-timeout's hard timer, an exit
        await _cancel(scheduler)
        _close(svc, run, "interrupted", None, _reason(exc))
        raise
    if execution == "crashed":
        await _cancel(scheduler)
    outcome = _close(svc, run, execution, infra)
    if observer_failed is not None:
        observer_failed.outcome = outcome
        raise observer_failed
    return outcome


_KINDS: dict[str, InfraKind] = {"device": "device", "model": "model", "usage": "usage"}


def _infra(exc: BaseException, kind: str) -> InfraFailure:
    return InfraFailure(kind=_KINDS.get(kind, "harness"), error_class=type(exc).__name__,
                        message=str(exc)[:2000])


def _harness(svc: RunServices, exc: Exception, prefix: str = "") -> InfraFailure:
    """A bug in our own code (or an observer's), with its traceback redacted as the journal redacts."""
    log.debug("run %s: harness failure", svc.run_id, exc_info=exc)
    text = "".join(traceback.format_exception(exc))[-TRACEBACK_LIMIT:]
    return InfraFailure(kind="harness", error_class=type(exc).__name__, message=f"{prefix}{exc}"[:2000],
                        traceback=svc.journal.redactor.redact(text))


async def _cancel(scheduler: CheckpointScheduler) -> None:
    await asyncio.shield(scheduler.cancel_all())


def _reason(exc: BaseException) -> str:
    """Why a run was interrupted, when known: a cancellation's message, or the exception's class and text
    (a bare Ctrl-C or cancellation: empty)."""
    if isinstance(exc, asyncio.CancelledError):
        return str(exc.args[0]) if exc.args else ""
    if isinstance(exc, KeyboardInterrupt):
        return ""
    return f"{type(exc).__name__}: {exc}"


def _close(
    svc: RunServices, run: RunProgress, execution: Execution, infra: InfraFailure | None, reason: str = ""
) -> RunOutcome:
    """Compute the outcome, write it (closing the journal) and tell the observer (``reason``: why an
    interrupted run was)."""
    checks_on = svc.config.checks_enabled
    items = run.all_items(svc.user_items)
    if svc.config.final_check:
        # The goal's own verdict decides completion: the agent's own check lines steered it (a failing one
        # sent it back to repair) and stay in the ledger, but the outcome rests on the test's items.
        items = tuple(i for i in items if i.origin == "user")
    goal = (svc.goal_item,) if svc.config.final_check else ()
    default = "never judged" if checks_on else "checks disabled"
    tests = tally(items + goal, run.ledger, default_reason=default)
    blocked = blocked_reason(run, execution, infra, reason)
    task = task_result(items, run.ledger, run.plan, blocked_reason=blocked,
                       unmet_subgoals=run.unmet_subgoals, last_finding=run.last_finding,
                       goal=svc.goal_item if svc.config.final_check else None)
    if not svc.config.final_check and not _rests_on_verify(run, items):
        tests, task = goal_unchecked(svc.spec.goal, tests, task)
    outcome = RunOutcome(
        run_id=svc.run_id, execution=execution, task=task, tests=tests, usage=run.usage,
        steps=len(run.steps), stop_reason=run_stop(run, execution, infra, reason).text,
        device=svc.device.name,
        started_at=run.started_at, finished_at=time.time(), infra=infra,
    )
    if not svc.journal.closed:
        svc.journal.close(outcome)
    svc.observer.on_finish(outcome)
    return outcome


def _rests_on_verify(run: RunProgress, items: tuple[CheckItem, ...]) -> bool:
    """With the final check off, completion rests on the verify items only when at least one of them that
    is not an invariant passed, and not vacuously."""
    current = current_verdicts(run.ledger)
    for item in items:
        verdict = current.get(item.key)
        invariant = item.probe is not None and is_invariant(item.probe)
        if item.kind == "verify" and not invariant and verdict is not None and verdict.status == "passed" \
                and not verdict.vacuous:
            return True
    return False


async def _prepare(svc: RunServices, run: RunProgress) -> None:
    """Launch the app, take the baselines (what held before the agent acts) while the planner writes the
    first plan."""
    if svc.spec.app:
        await asyncio.to_thread(svc.device.launch, svc.spec.app)
    baseline = asyncio.create_task(_baseline(svc)) if svc.config.checks_enabled else None
    try:
        plan = await _first_plan(svc)
    finally:
        if baseline is not None:
            run.baseline = await baseline  # before the first turn acts, whatever the planner did
    run.set_plan(plan, svc.journal)
    if svc.config.checks_enabled:
        user_keys = {i.key for i in svc.user_items}
        run.planner_items = tuple(i for i in plan_check_items(run.plan, known=svc.user_items)
                                  if i.key not in user_keys)


async def _baseline(svc: RunServices) -> tuple[ProbeOutput, ...]:
    """The vacuity baselines of the declared probe checks, and what the probe table's state listings read,
    before the first action: together, what held before the run."""
    read: list[ProbeOutput] = []
    for item in svc.user_items:
        if item.probe is not None and not is_invariant(item.probe):
            result, judgement = await asyncio.to_thread(run_probe_check, svc.device, item.probe)
            svc.vacuity.baseline(item, judgement)
            svc.journal.append_event("vacuity_baseline", item=item.text,
                                     held=svc.vacuity.held_before(item), facts=list(judgement.facts),
                                     evidence=judgement.evidence)
            if judgement.conclusive:
                read.append(ProbeOutput(result.spec.kind, result.raw, params=dict(result.spec.params)))
    listings = await take_baseline(svc.device)
    svc.journal.append_event("baseline", read=[f"{b.kind}({', '.join(b.params.values())})" for b in listings])
    return (*read, *listings)


async def _plan_text(svc: RunServices, note: str) -> str:
    """The planner's plan text, or the recorded one when replay has it for this goal and these checks."""
    def ask() -> Awaitable[str]:
        return ask_plan(svc.models.planner, svc.calls, goal=svc.spec.goal, app=svc.spec.app,
                        items=svc.user_items, checks_enabled=svc.config.checks_enabled, note=note)

    return await (svc.replay.plan(svc, ask) if svc.replay is not None else ask())


async def _first_plan(svc: RunServices) -> Plan:
    """The planner's plan, parsed (one re-ask on a syntax error; else the goal as the only subgoal),
    with the user's checks placed (or every check line removed when checks are off)."""
    checks_on = svc.config.checks_enabled
    note = ""
    plan: Plan | None = None
    for _ in range(2):
        try:
            text = await _plan_text(svc, note)
            plan = parse_plan(text)
            break
        except (PlanSyntaxError, ModelOutputInvalid) as exc:
            note = str(exc)
    if plan is None or not plan.subgoals:
        svc.journal.append_event("planner_fallback", reason=note or "empty plan")
        plan = Plan(subgoals=(Subgoal(text=svc.spec.goal),), task_checks=plan.task_checks if plan else ())
    return place_checks(plan, svc.user_items) if checks_on else plan.without_checks()

