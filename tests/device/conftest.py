"""Fixtures: a real simulated phone behind a loopback ADB server, driven through adbutils."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pytest_artemis.device import AdbDevice


@pytest.fixture
def server() -> Iterator[object]:
    """A fresh two-phone SimServer per test (tests change phone state)."""
    sim = pytest.importorskip("pytest_artemis.sim")
    with sim.SimServer(devices=2, seed=0) as running:
        yield running


@pytest.fixture
def device(server) -> AdbDevice:
    """The first simulated phone as an AdbDevice with a short timeout."""
    return AdbDevice(server.serials[0], host=server.host, port=server.port, timeout_s=5.0)


@pytest.fixture
def phone(server, device):
    """The SimPhone behind ``device`` (state views and fault injection)."""
    return server.phone(device.serial)
