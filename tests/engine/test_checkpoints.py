"""The checkpoint scheduler on its own: pure asyncio with fake judge coroutines."""

from __future__ import annotations

import asyncio

import pytest

from pytest_artemis.checking.checkpoints import Attempt, Checkpoint, CheckpointScheduler
from pytest_artemis.checking.verdicts import current_verdicts, make_verdict
from pytest_artemis.contracts import CheckItem
from pytest_artemis.models import ModelUnavailable

ITEM = CheckItem(kind="verify", text="The thing is on")


def checkpoint(cid: str = "sg1") -> Checkpoint:
    return Checkpoint(cid, f"subgoal {cid}", (ITEM,), f"- [x] subgoal {cid}\n")


class Judge:
    """A fake judge: each attempt waits on its own gate, then returns ``status``."""

    def __init__(self, status: str = "passed") -> None:
        self.status = status
        self.gates: dict[str, asyncio.Event] = {}
        self.started: list[Attempt] = []

    def open(self, attempt_id: str) -> None:
        self.gates.setdefault(attempt_id, asyncio.Event()).set()

    async def __call__(self, attempt: Attempt):
        self.started.append(attempt)
        await self.gates.setdefault(attempt.attempt_id, asyncio.Event()).wait()
        return [make_verdict(ITEM, status=self.status, evidence="the switch reads ON in step 3",  # type: ignore[arg-type]
                             source="model", attempt_id=attempt.attempt_id,
                             checkpoint_id=attempt.checkpoint.checkpoint_id, anchor_step=attempt.anchor_step,
                             started_at=attempt.started_at)]


def scheduler(judge: Judge, *, concurrency: int = 3, timeout_s: float = 5.0) -> CheckpointScheduler:
    return CheckpointScheduler(judge, concurrency=concurrency, timeout_s=timeout_s)


async def settle_loop() -> None:
    for _ in range(3):
        await asyncio.sleep(0)


def test_queue_does_not_spawn_and_release_anchors_to_the_recorded_step():
    async def scenario():
        judge = Judge()
        sched = scheduler(judge)
        sched.queue(checkpoint())
        await settle_loop()
        assert judge.started == [] and sched.pending  # queued during the turn: nothing runs yet
        await sched.release(7)  # the turn's step 7 is now recorded
        await settle_loop()
        assert [a.anchor_step for a in judge.started] == [7]
        assert judge.started[0].attempt_id == "sg1#1"
        await sched.cancel_all()

    asyncio.run(scenario())


def test_only_finished_checks_are_harvested():
    async def scenario():
        judge = Judge()
        sched = scheduler(judge)
        sched.queue(checkpoint("a"))
        sched.queue(checkpoint("b"))
        await sched.release(1)
        await settle_loop()
        judge.open("a#1")
        await settle_loop()
        harvested = sched.harvest()
        assert [h.attempt.attempt_id for h in harvested] == ["a#1"]
        assert [a.attempt_id for a in sched.running] == ["b#1"]  # never waited for
        await sched.cancel_all()

    asyncio.run(scenario())


def test_concurrency_limit_keeps_the_rest_queued_with_their_own_anchor():
    async def scenario():
        judge = Judge()
        sched = scheduler(judge, concurrency=1)
        sched.queue(checkpoint("a"))
        sched.queue(checkpoint("b"))
        await sched.release(4)
        assert [a.attempt_id for a in sched.running] == ["a#1"]
        assert [c.checkpoint_id for c in sched.pending] == ["b"]
        judge.open("a#1")
        await settle_loop()
        assert len(sched.harvest()) == 1
        await sched.release(9)  # a later step: b keeps the anchor of its own completion
        assert [(a.attempt_id, a.anchor_step) for a in sched.running] == [("b#1", 4)]
        await sched.cancel_all()

    asyncio.run(scenario())


@pytest.mark.parametrize(("kind", "status", "recorded"), [
    ("assert", "failed", "failed"),  # an assertion's failure stands, however late it comes
    ("assert", "passed", "superseded"), ("verify", "failed", "superseded"),
    ("verify", "passed", "superseded"),
])
def test_supersede_lets_a_running_check_finish_and_keeps_a_failed_assertion(kind, status, recorded):
    item = CheckItem(kind=kind, text="The thing is on")

    async def judge(attempt: Attempt):
        await gates[attempt.attempt_id].wait()
        return [make_verdict(item, status=status, evidence="e", source="model",  # type: ignore[arg-type]
                             attempt_id=attempt.attempt_id, checkpoint_id="sg1",
                             anchor_step=attempt.anchor_step, started_at=0.0)]

    gates = {"sg1#1": asyncio.Event(), "sg1#2": asyncio.Event()}

    async def scenario():
        sched = CheckpointScheduler(judge, concurrency=1, timeout_s=5.0)
        cp = Checkpoint("sg1", "subgoal sg1", (item,), "- [x] subgoal sg1\n")
        sched.queue(cp)
        await sched.release(2)
        await settle_loop()
        sched.queue(cp)  # the subgoal is completed again while sg1#1 still judges
        assert await sched.release(5) == []  # nothing cancelled, nothing forced
        assert [(a.attempt_id, a.anchor_step) for a in sched.running] == [("sg1#2", 5)]  # not held up
        gates["sg1#2"].set()
        await settle_loop()
        newer = sched.harvest()
        assert [(h.attempt.attempt_id, h.current) for h in newer] == [("sg1#2", True)]
        assert not sched.idle  # the superseded attempt still judges: the barrier waits for it
        gates["sg1#1"].set()
        await settle_loop()
        (older,) = sched.harvest()
        assert (older.attempt.attempt_id, older.current,
                older.verdicts[0].status) == ("sg1#1", False, recorded)
        assert sched.idle

    asyncio.run(scenario())


def test_a_superseded_check_still_judging_at_the_barrier_is_waited_for():
    async def scenario():
        judge = Judge(status="failed")
        sched = scheduler(judge)
        sched.queue(checkpoint())
        await sched.release(2)
        await settle_loop()
        sched.queue(checkpoint())
        await sched.release(3)
        asyncio.get_running_loop().call_later(0.05, judge.open, "sg1#1")
        asyncio.get_running_loop().call_later(0.05, judge.open, "sg1#2")
        settled = await sched.settle(2.0)
        assert (sorted((h.attempt.attempt_id, h.current) for h in settled)
                == [("sg1#1", False), ("sg1#2", True)])

    asyncio.run(scenario())


@pytest.mark.parametrize(("kind", "recorded"), [("assert", "unchecked"), ("verify", "superseded")])
def test_a_superseded_check_still_judging_when_the_barrier_gives_up_leaves_its_assertion_undecided(
        kind, recorded):
    """Its assertion is recorded unchecked, after the newer attempt's pass: the test cannot read PASSED on
    the newer pass just because the older judgement was slower."""
    item = CheckItem(kind=kind, text="The thing is on")

    async def judge(attempt: Attempt):
        if attempt.attempt_id == "sg1#1":
            await asyncio.Event().wait()  # never answers
        return [make_verdict(item, status="passed", evidence="e", source="model",  # type: ignore[arg-type]
                             attempt_id=attempt.attempt_id, checkpoint_id="sg1",
                             anchor_step=attempt.anchor_step, started_at=0.0)]

    async def scenario():
        sched = CheckpointScheduler(judge, concurrency=2, timeout_s=5.0)
        cp = Checkpoint("sg1", "subgoal sg1", (item,), "- [x] subgoal sg1\n")
        sched.queue(cp)
        await sched.release(2)
        await settle_loop()
        sched.queue(cp)
        await sched.release(5)
        settled = await sched.settle(0.2)
        ledger = [v for h in settled for v in h.verdicts]
        assert [(v.attempt_id, v.status) for v in ledger] == [("sg1#2", "passed"), ("sg1#1", recorded)]
        assert current_verdicts(ledger)[item.key].status == ("unchecked" if kind == "assert" else "passed")

    asyncio.run(scenario())


def test_supersede_harvests_a_finished_unharvested_check_first():
    async def scenario():
        judge = Judge(status="failed")
        sched = scheduler(judge)
        sched.queue(checkpoint())
        await sched.release(2)
        judge.open("sg1#1")
        await settle_loop()
        sched.queue(checkpoint())
        forced = await sched.release(3)
        # the earlier failure is kept (harvested), not cancelled into "superseded"
        assert [(h.attempt.attempt_id, h.verdicts[0].status) for h in forced] == [("sg1#1", "failed")]
        assert not forced[0].current and sched.is_current("sg1#2")
        await sched.cancel_all()

    asyncio.run(scenario())


def test_per_check_timeout_is_inconclusive_not_passed():
    async def scenario():
        sched = scheduler(Judge(), timeout_s=0.05)
        sched.queue(checkpoint())
        await sched.release(1)
        await asyncio.sleep(0.2)
        (harvest,) = sched.harvest()
        verdict = harvest.verdicts[0]
        assert (verdict.status, verdict.reason) == ("inconclusive", "timeout after 0.05s")

    asyncio.run(scenario())


def test_a_provider_failure_in_the_checker_is_inconclusive():
    async def broken(attempt: Attempt):
        raise ModelUnavailable("checker exploded", http_status=503)

    async def scenario():
        sched = CheckpointScheduler(broken, concurrency=1, timeout_s=1)
        sched.queue(checkpoint())
        await sched.release(1)
        await settle_loop()
        (harvest,) = sched.harvest()
        assert harvest.verdicts[0].status == "inconclusive"
        assert "checker exploded" in harvest.verdicts[0].reason

    asyncio.run(scenario())


def test_a_bug_in_the_judge_propagates_from_the_harvest():
    async def broken(attempt: Attempt):
        raise ZeroDivisionError("a bug in our own code")

    async def scenario():
        sched = CheckpointScheduler(broken, concurrency=1, timeout_s=1)
        sched.queue(checkpoint())
        await sched.release(1)
        await settle_loop()
        with pytest.raises(ZeroDivisionError, match="a bug in our own code"):
            sched.harvest()

    asyncio.run(scenario())


def test_settlement_barrier_collects_finished_and_marks_the_rest_unchecked():
    async def scenario():
        judge = Judge()
        sched = scheduler(judge, concurrency=1)
        for cid in ("fast", "slow", "queued"):
            sched.queue(checkpoint(cid))
        await sched.release(3)
        judge.open("fast#1")
        harvests = await sched.settle(0.2)  # "slow" never finishes, so "queued" never starts
        got = {h.attempt.attempt_id: (h.verdicts[0].status, h.verdicts[0].reason) for h in harvests}
        assert got["fast#1"] == ("passed", "")
        assert got["slow#1"] == ("unchecked", "timeout: still running at the exit barrier")
        assert got["queued#1"] == ("unchecked", "timeout: never started before the exit barrier")
        assert sched.idle

    asyncio.run(scenario())
