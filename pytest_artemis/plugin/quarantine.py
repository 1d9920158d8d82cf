"""A device that dies mid-session is quarantined after the test it failed; the session goes on without it.

Without xdist the process takes another free device, or stops (one line) when none is left. Under xdist
the worker stops taking tests and the controller hands its remaining tests to the other workers
(``xdist.py``), so one dead phone never drains the queue with a fast ERROR per test.
"""

from __future__ import annotations

import pytest

from .state import farm_key

WORKEROUTPUT_STOPPED = "artemis_stopped"
"""``workeroutput`` key: why the worker stopped taking tests (its device died, or it had none)."""
WORKEROUTPUT_DEAD = "artemis_dead_device"
"""``workeroutput`` key: ``[name, problem]`` of the worker's device that died, for the controller to
quarantine."""


def stop_taking_tests(session: pytest.Session, reason: str) -> None:
    """This process has no usable device: it runs no further test (the current one ends first)."""
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput[WORKEROUTPUT_STOPPED] = reason
        farm = session.config.stash.get(farm_key, None)
        if farm is not None and farm.quarantined:
            workeroutput[WORKEROUTPUT_DEAD] = list(next(reversed(farm.quarantined.items())))
    if not session.shouldstop:
        session.shouldstop = f"artemis: no usable device left: {reason}"


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item: pytest.Item) -> None:
    """After a test whose run ended with a device error, check the device on its own (a few seconds at
    most, so a hung server costs one test its timeout, not every test); a lease that could not be renewed
    counts as a dead device."""
    farm = item.config.stash.get(farm_key, None)
    if farm is None or farm.lease is None:
        return
    lost = farm.lost()
    infra = next((str(v) for k, v in item.user_properties if k == "artemis.infra"), "")
    if lost is None and not infra.startswith("device/"):
        return
    reason = farm.after_device_error(lost)
    if reason is not None:
        stop_taking_tests(item.session, reason)
