"""Shared by the run benchmarks: a scripted run of N steps on the simulated phone, with timed parts.

The operator opens Settings' Display page, then sets the brightness slider to a new level every turn: as on
a real phone, every step shows a screen never seen before, so no per-screen cache (PNG render, model JPEG)
flatters the figures. It marks one plan subgoal done every ``steps // subgoals`` turns and claims ``finish``
on the last turn. Every model reply sleeps a fixed latency (``asyncio.sleep``: known time, not harness
time); every device call is timed, and logged with its arguments, by a proxy around the real ``AdbDevice``.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

os.environ.setdefault("ADBUTILS_ADB_PATH", "/bin/true")
os.environ.setdefault("LITELLM_OFFLINE_MODE", "true")

from pytest_artemis.agents.schemas import OperatorDecision, PlanReply  # noqa: E402
from pytest_artemis.contracts import CheckItem, Finish, Key, RunOutcome, Tap, TaskSpec  # noqa: E402
from pytest_artemis.device import AdbDevice  # noqa: E402
from pytest_artemis.engine import RunConfig, run_task  # noqa: E402
from pytest_artemis.models import ModelSet  # noqa: E402
from pytest_artemis.sim import SimServer  # noqa: E402
from pytest_artemis.store.journal import RunHeader, RunJournal  # noqa: E402
from pytest_artemis.testing import HonestChecker, ScriptedModel, ScriptedRequest, on_screen  # noqa: E402

SETTINGS = "com.android.settings"
CHECKER = HonestChecker(goal=on_screen("Brightness level"))


class TimedDevice:
    """A proxy over a Device that measures the wall time during which at least one of its calls was running
    (calls made concurrently, such as perceive's screenshot and dump, count once) and logs every call."""

    def __init__(self, device: AdbDevice) -> None:
        self._device = device
        self._lock = threading.Lock()
        self._running = 0
        self._busy_since = 0.0
        self.seconds = 0.0
        self.calls: dict[str, int] = {}
        self.log: list[tuple[str, tuple[object, ...]]] = []

    @property
    def serial(self) -> str:
        return self._device.serial

    def _enter(self, name: str, args: tuple[object, ...]) -> None:
        with self._lock:
            self.log.append((name, args))
            self.calls[name] = self.calls.get(name, 0) + 1
            if self._running == 0:
                self._busy_since = time.perf_counter()
            self._running += 1

    def _leave(self) -> None:
        with self._lock:
            self._running -= 1
            if self._running == 0:
                self.seconds += time.perf_counter() - self._busy_since

    def __getattr__(self, name: str) -> object:
        target = getattr(self._device, name)
        if not callable(target):
            return target

        def timed(*args: object, **kwargs: object) -> object:
            self._enter(name, (*args, *kwargs.values()))
            try:
                return target(*args, **kwargs)
            finally:
                self._leave()

        return timed


def subgoal_names(count: int) -> list[str]:
    return [f"Review settings page {i + 1}" for i in range(count)]


def _mark_next(plan: str) -> str:
    return plan.replace("- [ ]", "- [x]", 1)


@dataclass
class Script:
    """The reply function of the scripted model, with per-role latency and the time spent sleeping."""

    steps: int
    subgoals: int
    latency_s: float
    checker_latency_s: float
    model_seconds: float = 0.0
    calls: dict[str, int] = field(default_factory=dict)

    def plan(self) -> str:
        return "".join(f"- [ ] {name}\n" for name in subgoal_names(self.subgoals))

    def reply(self, request: ScriptedRequest) -> object:
        if request.role == "planner":
            return PlanReply(plan=self.plan())
        if request.role == "checker":
            return CHECKER(request)  # every verdict cites a recorded screen, as a real checker's must
        turn = request.turn
        if turn >= self.steps:
            plan = request.plan.replace("- [ ]", "- [x]").replace("- [/]", "- [x]")
            return OperatorDecision(decision="all pages reviewed", actions=[Finish(summary="done")],
                                    plan=plan)
        # Subgoal k is marked done at turn k * every; the last one only with the finish claim (an
        # all-done plan would end the run early).
        every = max(1, self.steps // self.subgoals)
        open_left = request.plan.count("- [ ]") + request.plan.count("- [/]")
        plan = _mark_next(request.plan) if turn % every == 0 and open_left > 1 else None
        screen = request.screen
        slider = screen.find(resource_id="seekbar") if screen is not None else None
        if slider is None:  # not on the Display page yet
            display = screen.find("Display") if screen is not None else None
            target = Tap(element=display.index) if display is not None else Key(key="BACK")
            return OperatorDecision(decision=f"open Display (turn {turn})", actions=[target], plan=plan)
        # A new brightness level every turn (golden-ratio steps never land on the previous level).
        b = slider.bounds
        x = b.left + round((b.right - b.left) * (0.1 + 0.8 * ((turn * 0.6180339887) % 1)))
        return OperatorDecision(decision=f"brightness to a new level (turn {turn})",
                                actions=[Tap(x=x, y=(b.top + b.bottom) // 2)], plan=plan)

    async def respond(self, request: ScriptedRequest) -> object:
        latency = self.checker_latency_s if request.role == "checker" else self.latency_s
        started = time.perf_counter()
        await asyncio.sleep(latency)
        self.model_seconds += time.perf_counter() - started
        self.calls[request.role] = self.calls.get(request.role, 0) + 1
        return self.reply(request)


def checks_for(subgoals: int) -> tuple[CheckItem, ...]:
    """One model-judged verify item per subgoal (placed on it by its hint)."""
    return tuple(CheckItem(kind="verify", text=f"'Brightness level' is shown while reviewing page {i + 1}",
                           subgoal_hint=name) for i, name in enumerate(subgoal_names(subgoals)))


@dataclass
class Measured:
    """One run: its outcome, wall time, device time, model (sleep) time and the model's requests."""

    outcome: RunOutcome
    wall_s: float
    device_s: float
    model_s: float
    device_calls: dict[str, int]
    device_log: list[tuple[str, tuple[object, ...]]]
    model_calls: dict[str, int]
    requests: list[ScriptedRequest]
    run_dir: Path

    @property
    def overhead_s(self) -> float:
        return self.wall_s - self.device_s - self.model_s


def run_once(
    server: SimServer,
    *,
    steps: int,
    latency_s: float,
    checker_latency_s: float | None = None,
    subgoals: int = 4,
    checks: bool = False,
    root: Path | None = None,
    wrap: Callable[[Callable[[], RunOutcome]], RunOutcome] | None = None,
    **config: object,
) -> Measured:
    """Run the scripted task once on ``server``'s first phone; ``wrap`` may run the call (a profiler)."""
    script = Script(steps=steps, subgoals=subgoals, latency_s=latency_s,
                    checker_latency_s=latency_s if checker_latency_s is None else checker_latency_s)
    model = ScriptedModel(script.respond)
    device = TimedDevice(AdbDevice(server.serials[0], host=server.host, port=server.port, timeout_s=20.0))
    spec = TaskSpec(goal="Open the Display page and try brightness level after level", app=SETTINGS,
                    max_steps=steps, checks=checks_for(subgoals) if checks else ())
    root = root or Path(tempfile.mkdtemp(prefix="artemis-bench-"))
    run_id = f"bench-{time.time_ns()}"
    journal = RunJournal.create(root, RunHeader(run_id=run_id, goal=spec.goal, device=device.serial,
                                                checks=spec.checks))
    run_config = RunConfig(max_steps=steps, **config)

    def call() -> RunOutcome:
        return run_task(spec, device, ModelSet.uniform(model), run_config, journal)  # type: ignore[arg-type]

    started = time.perf_counter()
    outcome = wrap(call) if wrap else call()
    wall = time.perf_counter() - started
    return Measured(outcome=outcome, wall_s=wall, device_s=device.seconds, model_s=script.model_seconds,
                    device_calls=dict(device.calls), device_log=list(device.log),
                    model_calls=dict(script.calls),
                    requests=list(model.requests), run_dir=journal.dir)
