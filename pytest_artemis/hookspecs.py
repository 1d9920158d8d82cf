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
def pytest_artemis_lease_device(config: pytest.Config, worker_id: str) -> Device | None:
    """Lease a device for this session (process) from your own farm; return None to use the built-in
    pool (``--artemis-device``). Called once per process, the first time a test needs a device. Release
    it yourself, e.g. from ``pytest_unconfigure``.
    """


@hookspec
def pytest_artemis_probe_specs(config: pytest.Config) -> list[ProbeKind] | None:
    """Return extra probe kinds (``pytest_artemis.device.probe_table.ProbeKind``) for this session's table.

    They are checked like the built-ins (argv of plain words, validated parameters, nothing that
    changes device state); a refused kind is a usage error at startup. A kind's parser returns its
    ``output`` model (a ``ProbeOutput`` subclass) or ``Unreadable``; without one the output is the text.
    The device runs them and the checker model is told them, like the built-ins. None adds nothing.
    """
