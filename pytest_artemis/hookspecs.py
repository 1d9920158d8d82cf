"""pytest-artemis's own hooks, added with ``pytest_addhooks``; implement them in a conftest or plugin.

The run hooks fire in the process that runs the test (an xdist worker under ``-n``), synchronously, in
the order start → step/verdict … → finish. An exception raised in a hook propagates: a plugin bug is
loud, never swallowed (from ``start``/``step``/``verdict`` the run's journal is first closed as crashed,
with the traceback; ``finish`` is not called for that run).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from pytest_artemis.contracts import CheckVerdict, RunOutcome, StepRecord, TaskSpec
    from pytest_artemis.device.base import Device
    from pytest_artemis.device.probe_table import ProbeKind
    from pytest_artemis.farm.backend import LeaseBackend

hookspec = pytest.hookspec


@hookspec
def pytest_artemis_run_start(item: pytest.Item, spec: TaskSpec, device: Device, artifacts: Path) -> None:
    """A run is about to start for ``item`` on ``device``; its journal lives in ``artifacts``."""


@hookspec
def pytest_artemis_step(item: pytest.Item, step: StepRecord) -> None:
    """A step (one operator turn) was recorded."""


@hookspec
def pytest_artemis_verdict(item: pytest.Item, verdict: CheckVerdict) -> None:
    """A verdict was appended to the run's ledger (superseded and failed attempts included)."""


@hookspec
def pytest_artemis_run_finish(item: pytest.Item, outcome: RunOutcome, artifacts: Path, word: str) -> None:
    """A run ended; ``word`` is the outcome word it maps to (PASSED/FAILED/BLOCKED/ERROR/UNCHECKED)."""


@hookspec(firstresult=True)
def pytest_artemis_lease_backend(config: pytest.Config) -> LeaseBackend | None:
    """Plug in your own farm: return a ``pytest_artemis.LeaseBackend`` (or None for the built-in one that
    ``--artemis-device`` names: file locks, or STF).

    Called once, by the process that leases: the xdist controller (for every worker) or the single
    process. The plugin acquires (waiting up to ``--artemis-lease-timeout`` while none is free), renews,
    and releases through it, including a dead worker's lease; ``LeaseError`` is an infrastructure ERROR.
    """


@hookspec
def pytest_artemis_probe_specs(config: pytest.Config) -> list[ProbeKind] | None:
    """Return extra probe kinds (``pytest_artemis.device.probe_table.ProbeKind``) for this session's table.

    They are checked like the built-ins (argv of plain words, validated parameters, nothing that
    changes device state); a refused kind is a usage error at startup. A kind's parser returns its
    ``output`` model (a ``ProbeOutput`` subclass) or ``Unreadable``; without one the output is the text.
    The device runs them and the checker model is told them, like the built-ins. None adds nothing.
    """
