"""The simulated phone the kit runs on, and one run on it: a fresh phone, the engine, the journal."""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from pytest_artemis.contracts import RunOutcome, TaskSpec
from pytest_artemis.device import AdbDevice
from pytest_artemis.engine import RunConfig, run_task
from pytest_artemis.models import ModelSet
from pytest_artemis.report import render_run_report
from pytest_artemis.sim import PhoneState, SimServer
from pytest_artemis.store import Redactor, RunHeader, RunJournal, RunRecord, read_run

SIM_SEED = 0
"""The seed of the phone: the recorded real-model session ran on this one, so its screens are the same."""


@dataclass(frozen=True)
class Phone:
    """One simulated phone behind its loopback adb server, driven through the real adb path."""

    server: SimServer
    device: AdbDevice

    def fresh(self, setup: Sequence[Sequence[str]] = ()) -> None:
        """Back to the state after boot, then ``setup`` (shell commands): where a run starts."""
        self.device.reset("full")
        for argv in setup:
            self.device.check(list(argv))

    def state(self) -> PhoneState:
        """What the phone holds now (read in-process: the kit started it)."""
        return self.server.phone(self.device.serial).state


@contextmanager
def simulated_phone() -> Iterator[Phone]:
    """A simulated phone for the duration of the block."""
    with SimServer(devices=1, seed=SIM_SEED) as server:
        serial = server.serials[0]
        yield Phone(server, AdbDevice(serial, host=server.host, port=server.port, name=f"sim/{serial}"))


@dataclass(frozen=True)
class Ran:
    """One finished run: its outcome, its journal as read back, and its wall time."""

    outcome: RunOutcome
    record: RunRecord
    seconds: float


def run_on(
    phone: Phone, spec: TaskSpec, models: ModelSet, config: RunConfig, *, root: Path, run_id: str,
    redactor: Redactor,
) -> Ran:
    """Run ``spec`` on ``phone`` (already prepared) with a journal under ``root/run_id``, and write its
    ``report.html`` (the page a wrong verdict links to)."""
    names = {role: models.for_role(role).name for role in ("planner", "operator", "checker")}
    header = RunHeader(run_id=run_id, goal=spec.goal, test_id=run_id, app=spec.app, device=phone.device.name,
                       checks=spec.checks, models=names)
    journal = RunJournal.create(root, header, redactor=redactor)
    started = time.perf_counter()
    outcome = run_task(spec, phone.device, models, config, journal)
    seconds = time.perf_counter() - started
    render_run_report(journal.dir)
    return Ran(outcome, read_run(journal.dir), seconds)
