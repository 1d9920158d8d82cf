"""The device pool: option parsing, file-locked leases, exhaustion, and leases freed by a dead process."""

from __future__ import annotations

import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator

import pytest

from pytest_artemis.contracts import UsageError
from pytest_artemis.plugin.lease import (
    LeaseError,
    Pool,
    holder_of,
    lease,
    parse_adb_server,
    parse_device_option,
)


@pytest.fixture
def pool() -> Iterator[Pool]:
    # A unique fake server address: lock files never collide with another test run's.
    made = Pool("127.0.0.1", 40000 + uuid.uuid4().int % 20000, ("emulator-5554", "emulator-5556"))
    yield made
    shutil.rmtree(made.lock_dir, ignore_errors=True)


@pytest.mark.parametrize(("text", "parsed"), [
    ("sim", (1, ())), ("sim:3", (3, ())), ("emulator-5554", (0, ("emulator-5554",))),
    ("a1, b2 ,c3", (0, ("a1", "b2", "c3"))), ("10.0.0.5:5555", (0, ("10.0.0.5:5555",))),
])
def test_parse_device_option(text, parsed):
    assert parse_device_option(text) == parsed


@pytest.mark.parametrize(("text", "message"), [
    (None, "--artemis-device"), ("sim:0", "between 1 and 16"), ("a;rm -rf", "not a serial list"),
])
def test_bad_device_options(text, message):
    with pytest.raises(UsageError, match=message):
        parse_device_option(text)


def test_parse_adb_server():
    assert parse_adb_server("farm.local:5037") == ("farm.local", 5037)
    with pytest.raises(UsageError):
        parse_adb_server("farm.local")


def test_each_holder_gets_a_different_device_until_the_pool_is_exhausted(pool):
    first = lease(pool, "gw0", "run-gw0")
    second = lease(pool, "gw1", "run-gw1")
    try:
        assert {first.serial, second.serial} == set(pool.serials)
        assert holder_of(pool, "run-gw1") == second.serial
        with pytest.raises(LeaseError, match="worker 'gw2': no free device in the pool emulator-5554, "
                                             "emulator-5556"):
            lease(pool, "gw2", "run-gw2")
    finally:
        second.release()
    third = lease(pool, "gw2", "run-gw2")
    assert third.serial == second.serial and holder_of(pool, "run-gw1") is None
    third.release()
    first.release()


def test_a_dead_process_frees_its_lease(pool):
    code = (
        "import os, sys\n"
        "from pytest_artemis.plugin.lease import Pool, lease\n"
        f"pool = Pool('127.0.0.1', {pool.port}, ('emulator-5554',))\n"
        "held = lease(pool, 'gw9', 'run-gw9')\n"
        "print(held.serial, flush=True)\n"
        "os._exit(9)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 9 and out.stdout.strip() == "emulator-5554"
    one = Pool(pool.host, pool.port, ("emulator-5554",))
    # The holder note survives (so the controller can name the device), the lock does not.
    assert holder_of(one, "run-gw9") == "emulator-5554"
    held = lease(one, "gw10", "run-gw10")
    assert held.serial == "emulator-5554"
    held.release()


def test_pool_crosses_workerinput_as_plain_strings(pool):
    data = pool.to_workerinput()
    assert all(isinstance(v, str) for v in data.values())
    assert Pool.from_workerinput(data) == pool
