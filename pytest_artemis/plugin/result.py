"""What the ``artemis`` fixture returns: the marker run's result, and ``run()`` for goals from the body."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from pytest_artemis.contracts import CheckItem, CheckVerdict, RunOutcome, StepRecord, UsageError
from pytest_artemis.predicates import validate_check
from pytest_artemis.spec.markers import build_spec

from .options import ArtemisOptions
from .rulings import rulings_key
from .runner import RunResult, run_for_item
from .settings import RunSettings
from .state import probe_table_of

if TYPE_CHECKING:
    from pytest_artemis.device.base import Device
    from pytest_artemis.device.setup import DeviceSetup
    from pytest_artemis.models import ModelSet


class Artemis:
    """The ``artemis`` fixture's value.

    With a ``goal`` marker, the run already happened in setup: ``outcome``, ``verdicts``, ``steps`` and
    ``artifacts`` describe it. ``run()`` starts another run from the test body; the attributes then
    describe the latest run. Without any run they are None / empty.
    """

    def __init__(
        self, item: pytest.Item, device: Device, models: ModelSet, options: ArtemisOptions,
        settings: RunSettings, *, setup: DeviceSetup | None = None, secrets: Mapping[str, str] = {},
    ) -> None:
        self._item = item
        self._models = models
        self._options = options
        self._secrets = dict(secrets)
        self.settings: RunSettings = settings
        """The settings this test's runs use (session options, ``artemis_settings``, ``artemis`` marker)."""
        self.device: Device = device
        """The leased device (``.serial``, ``.probe(kind, **params)``, ``.screenshot()`` …)."""
        self.setup: DeviceSetup | None = setup
        """The test's recorded setup steps (``artemis_setup``): steps taken from the body are journaled by
        the next ``run()``."""
        self.runs: list[RunResult] = []
        """Every run of this test, in order."""

    @property
    def last(self) -> RunResult | None:
        return self.runs[-1] if self.runs else None

    @property
    def outcome(self) -> RunOutcome | None:
        """The latest run's outcome (execution, task, tests, usage, steps)."""
        return self.last.outcome if self.last else None

    @property
    def verdicts(self) -> tuple[CheckVerdict, ...]:
        """Every verdict of the latest run, in ledger order (superseded attempts included)."""
        return self.last.verdicts if self.last else ()

    @property
    def steps(self) -> tuple[StepRecord, ...]:
        """The latest run's recorded steps."""
        return self.last.steps if self.last else ()

    @property
    def artifacts(self) -> Path | None:
        """The latest run's journal directory."""
        return self.last.artifacts if self.last else None

    def run(
        self, goal: str, checks: Sequence[CheckItem] = (), *, app: str | None = None,
        max_steps: int | None = None,
    ) -> RunResult:
        """Run a goal from the test body; build checks with ``pytest_artemis.spec.verify`` / ``assert_``.

        The result is returned for inspection; its outcome is applied when the body returns (FAILED,
        UNCHECKED, or BLOCKED/ERROR as a call-phase failure), unless the body fails first.
        """
        try:
            spec = build_spec(goal, checks, app=app, max_steps=max_steps, test_id=self._item.nodeid)
            table = probe_table_of(self._item.config)
            for item in spec.checks:
                if item.probe is not None:
                    validate_check(item.probe, table)
        except UsageError as exc:
            pytest.fail(f"artemis.run(): {exc}", pytrace=False)
        return self.add_run(run_for_item(self._item, spec, self.device, self._models, self._options,
                                         self.settings, when="call", setup=self.setup, secrets=self._secrets))

    def add_run(self, result: RunResult) -> RunResult:
        """Record a finished run (the fixture's setup run, or one from ``run()``); its verdict counts."""
        self.runs.append(result)
        self._item.stash.setdefault(rulings_key, []).append(result.ruling)
        return result

    def __repr__(self) -> str:
        word = self.last.word if self.last else "no run"
        return f"<artemis {self._item.nodeid} on {self.device.name}: {word}>"
