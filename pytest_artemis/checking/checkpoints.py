"""Optimistic asynchronous checkpoints: queue, anchor, spawn under a limit, harvest, supersede, settle."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

from pytest_artemis.contracts import ArtemisError, CheckItem, CheckVerdict, VerdictSource, VerdictStatus

from .verdicts import blanket

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Checkpoint:
    """A subgoal's completion, waiting to be checked; ``checkpoint_id`` is the subgoal key."""

    checkpoint_id: str
    subgoal_text: str
    items: tuple[CheckItem, ...]
    plan_text: str
    queued_at: float = field(default_factory=time.time)


@dataclass(frozen=True)
class Attempt:
    """One spawned check of a checkpoint, anchored to the step that recorded the completion."""

    checkpoint: Checkpoint
    attempt_id: str
    anchor_step: int
    started_at: float


@dataclass(frozen=True)
class Harvest:
    """The verdicts of one finished attempt; ``current`` says whether no newer attempt replaced it."""

    attempt: Attempt
    verdicts: tuple[CheckVerdict, ...]
    current: bool


AttemptRunner = Callable[[Attempt], Awaitable[Sequence[CheckVerdict]]]


@dataclass
class _Pending:
    checkpoint: Checkpoint
    anchor_step: int | None = None


class CheckpointScheduler:
    """Runs checkpoint judgements as asyncio tasks without ever making the operator wait for them.

    ``queue`` happens during a turn; ``release(step)`` after that turn's step is recorded anchors the
    queued checkpoints to it and spawns as many as the concurrency limit allows. ``harvest`` collects
    only finished attempts. A re-completed checkpoint supersedes the older attempt without cancelling it:
    a finished one is harvested first; a running one judges on, and when it ends its failed assertions are
    recorded as they are (an assertion's failure stands, whatever the checker's latency) and its other
    verdicts as ``superseded``. Its verdicts never reopen anything.
    """

    def __init__(self, run_attempt: AttemptRunner, *, concurrency: int, timeout_s: float) -> None:
        self._run_attempt = run_attempt
        self._concurrency = concurrency
        self._timeout_s = timeout_s
        self._pending: list[_Pending] = []
        self._running: dict[str, tuple[Attempt, asyncio.Task[tuple[CheckVerdict, ...]]]] = {}
        self._stale: list[tuple[Attempt, asyncio.Task[tuple[CheckVerdict, ...]]]] = []
        """Superseded attempts still judging: their failed assertions will count."""
        self._serial: dict[str, int] = {}
        self._current: dict[str, str] = {}

    @property
    def pending(self) -> tuple[Checkpoint, ...]:
        return tuple(p.checkpoint for p in self._pending)

    @property
    def running(self) -> tuple[Attempt, ...]:
        return tuple(attempt for attempt, _ in self._running.values())

    @property
    def idle(self) -> bool:
        return not self._pending and not self._running and not self._stale

    def is_current(self, attempt_id: str) -> bool:
        """Whether this attempt is the latest spawned for its checkpoint."""
        return attempt_id in self._current.values()

    def queue(self, checkpoint: Checkpoint) -> None:
        """Queue a completion; a still-queued entry of the same checkpoint is replaced (it never ran)."""
        self._pending = [p for p in self._pending if p.checkpoint.checkpoint_id != checkpoint.checkpoint_id]
        self._pending.append(_Pending(checkpoint))

    async def release(self, anchor_step: int) -> list[Harvest]:
        """Anchor every unanchored queued checkpoint to ``anchor_step`` and spawn what fits."""
        for pending in self._pending:
            if pending.anchor_step is None:
                pending.anchor_step = anchor_step
        return await self.spawn_ready()

    async def spawn_ready(self) -> list[Harvest]:
        """Spawn anchored checkpoints up to the limit; returns harvests forced by supersedes."""
        forced: list[Harvest] = []
        for pending in list(self._pending):
            if pending.anchor_step is None:
                continue
            old = self._running.get(pending.checkpoint.checkpoint_id)
            if old is not None and (harvest := await self._supersede(*old)) is not None:
                forced.append(harvest)
            if len(self._running) >= self._concurrency:
                break
            self._pending.remove(pending)
            self._spawn(pending.checkpoint, pending.anchor_step)
        return forced

    def harvest(self) -> list[Harvest]:
        """Collect finished attempts only; never waits for a running one."""
        done = [cid for cid, (_, task) in self._running.items() if task.done()]
        finished = [self._collect(cid) for cid in done]
        for attempt, task in [pair for pair in self._stale if pair[1].done()]:
            self._stale.remove((attempt, task))
            finished.append(Harvest(attempt, _superseded(task.result()), False))
        return finished

    async def settle(self, timeout_s: float) -> list[Harvest]:
        """The exit barrier: run everything queued or running to completion within ``timeout_s``.

        What does not finish in time is cancelled and recorded ``unchecked`` (reason ``timeout``).
        """
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout_s
        harvests: list[Harvest] = []
        for pending in self._pending:
            if pending.anchor_step is None:
                pending.anchor_step = 0
        while not self.idle:
            harvests.extend(await self.spawn_ready())
            harvests.extend(self.harvest())
            remaining = end - loop.time()
            tasks = [task for _, task in self._running.values()] + [task for _, task in self._stale]
            if remaining <= 0:
                break
            if tasks:
                await asyncio.wait(tasks, timeout=remaining, return_when=asyncio.FIRST_COMPLETED)
        harvests.extend(self.harvest())
        harvests.extend(await self._expire())
        return harvests

    async def cancel_all(self) -> None:
        """Cancel and await every running attempt (interrupt/crash paths); nothing is recorded."""
        tasks = [task for _, task in self._running.values()] + [task for _, task in self._stale]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._running.clear()
        self._stale.clear()
        self._pending.clear()

    def _spawn(self, checkpoint: Checkpoint, anchor_step: int) -> None:
        cid = checkpoint.checkpoint_id
        self._serial[cid] = self._serial.get(cid, 0) + 1
        attempt = Attempt(checkpoint, f"{cid}#{self._serial[cid]}", anchor_step, time.time())
        self._current[cid] = attempt.attempt_id
        task = asyncio.get_running_loop().create_task(self._guarded(attempt), name=attempt.attempt_id)
        self._running[cid] = (attempt, task)
        log.debug("checkpoint %s spawned, anchored to step %d", attempt.attempt_id, anchor_step)

    async def _guarded(self, attempt: Attempt) -> tuple[CheckVerdict, ...]:
        """The judgement under the per-check timeout. What the outside world throws (device, provider,
        model output: an ``ArtemisError``) makes it inconclusive (fail-open); a bug in our own code
        propagates to the harvest, which ends the run as a harness failure."""
        try:
            async with asyncio.timeout(self._timeout_s):
                return tuple(await self._run_attempt(attempt))
        except TimeoutError:
            return self._blanket(attempt, "inconclusive", f"timeout after {self._timeout_s:g}s")
        except asyncio.CancelledError:
            raise
        except ArtemisError as exc:  # the device or provider failing must not stop the run: fail-open
            return self._blanket(attempt, "inconclusive", f"checker error: {type(exc).__name__}: {exc}")

    def _collect(self, cid: str, *, superseded: bool = False) -> Harvest:
        attempt, task = self._running.pop(cid)
        current = not superseded and self._current.get(cid) == attempt.attempt_id
        verdicts = task.result()
        log.debug("checkpoint %s harvested: %s", attempt.attempt_id, ", ".join(v.status for v in verdicts))
        return Harvest(attempt, verdicts, current)

    async def _supersede(
        self, attempt: Attempt, task: asyncio.Task[tuple[CheckVerdict, ...]]
    ) -> Harvest | None:
        cid = attempt.checkpoint.checkpoint_id
        if task.done():  # finished but not harvested yet: its verdicts go on record, without effects
            return self._collect(cid, superseded=True)
        self._running.pop(cid)
        self._stale.append((attempt, task))  # it judges on: an assertion it fails must count
        log.debug("checkpoint %s superseded while judging; it goes on", attempt.attempt_id)
        return None

    async def _expire(self) -> list[Harvest]:
        """Cancel what is still running or queued after the barrier's timeout; all of it is unchecked (a
        superseded attempt's, superseded, but for the assertions it was judging)."""
        expired: list[Harvest] = []
        for attempt, task in self._stale:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            superseded = self._blanket(attempt, "superseded", "the subgoal was completed again, and this "
                                       "attempt had not ended by the exit barrier")
            # An assertion it was still judging is left undecided, never to a newer pass: how fast a
            # checker answers must not decide whether a failure is seen.
            undecided = self._blanket(attempt, "unchecked", "timeout: the subgoal was completed again while "
                                      "this attempt judged it, and it had not ended by the exit barrier")
            expired.append(Harvest(attempt,
                                   tuple(u if u.kind == "assert" else s
                                         for s, u in zip(superseded, undecided, strict=True)),
                                   False))
        self._stale.clear()
        for cid, (attempt, task) in list(self._running.items()):
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            self._running.pop(cid)
            verdicts = self._blanket(attempt, "unchecked", "timeout: still running at the exit barrier")
            expired.append(Harvest(attempt, verdicts, self._current.get(cid) == attempt.attempt_id))
        for pending in self._pending:
            cid = pending.checkpoint.checkpoint_id
            self._serial[cid] = self._serial.get(cid, 0) + 1
            attempt = Attempt(pending.checkpoint, f"{cid}#{self._serial[cid]}", pending.anchor_step or 0,
                              time.time())
            self._current[cid] = attempt.attempt_id
            verdicts = self._blanket(attempt, "unchecked", "timeout: never started before the exit barrier")
            expired.append(Harvest(attempt, verdicts, True))
        self._pending.clear()
        return expired

    @staticmethod
    def _blanket(attempt: Attempt, status: VerdictStatus, reason: str) -> tuple[CheckVerdict, ...]:
        probes_only = all(item.probe is not None for item in attempt.checkpoint.items)
        judged: VerdictSource = "probe" if probes_only else "model"
        source: VerdictSource = "settlement" if status in ("unchecked", "superseded") else judged
        return blanket(
            attempt.checkpoint.items,
            status=status,
            reason=reason,
            source=source,
            attempt_id=attempt.attempt_id,
            checkpoint_id=attempt.checkpoint.checkpoint_id,
            anchor_step=attempt.anchor_step,
            started_at=attempt.started_at,
        )


def _superseded(verdicts: tuple[CheckVerdict, ...]) -> tuple[CheckVerdict, ...]:
    """A superseded attempt's verdicts on record: a failed assertion as it is (it stands), the rest marked
    ``superseded`` with what they said (the newer attempt decides those)."""
    return tuple(v if v.kind == "assert" and v.status == "failed" else
                 v.model_copy(update={"status": "superseded",
                                      "reason": "the subgoal was completed again; this attempt said "
                                                f"{v.status}" + (f" ({v.reason})" if v.reason else "")})
                 for v in verdicts)
