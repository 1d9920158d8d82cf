"""Device specs, lock keys by resolved address, the file-lock backend and the bounded wait for a device."""

from __future__ import annotations

import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from pytest_artemis.contracts import UsageError
from pytest_artemis.farm.address import parse_server, server_key
from pytest_artemis.farm.backend import DeviceLease, LeaseError, acquire
from pytest_artemis.farm.filelock import AdbSlot, FileLockBackend
from pytest_artemis.farm.spec import AdbEntry, AdbSpec, SimSpec, StfFilter, StfSpec, parse_device_spec


@pytest.mark.parametrize(("text", "parsed"), [
    ("sim", SimSpec(1)), ("sim:3", SimSpec(3)),
    ("emulator-5554", AdbSpec((AdbEntry("127.0.0.1", 5037, "emulator-5554"),))),
    ("a1, b2", AdbSpec((AdbEntry("127.0.0.1", 5037, "a1"), AdbEntry("127.0.0.1", 5037, "b2")))),
    ("10.0.0.5:5555", AdbSpec((AdbEntry("127.0.0.1", 5037, "10.0.0.5:5555"),))),
    ("127.0.0.2:5037/emulator-5554,farm.local:5038/R58M", AdbSpec((
        AdbEntry("127.0.0.2", 5037, "emulator-5554"), AdbEntry("farm.local", 5038, "R58M")))),
    ("[::1]:5037/emulator-5554", AdbSpec((AdbEntry("::1", 5037, "emulator-5554"),))),
    ("host:5037/10.0.0.5:5555", AdbSpec((AdbEntry("host", 5037, "10.0.0.5:5555"),))),
    ("stf:2", StfSpec(2)),
    ("stf:1?sdk=33", StfSpec(1, StfFilter(sdk_min=33, sdk_max=33))),
    ("stf:3?sdk=30-34&model=Pixel*", StfSpec(3, StfFilter(sdk_min=30, sdk_max=34, model="Pixel*"))),
    ("stf:1?model=Pixel%207", StfSpec(1, StfFilter(model="Pixel 7"))),
])
def test_device_specs(text, parsed):
    assert parse_device_spec(text) == parsed


def test_bare_serials_are_on_the_adb_server_option():
    assert parse_device_spec("a1", "farm:6000") == AdbSpec((AdbEntry("farm", 6000, "a1"),))


@pytest.mark.parametrize(("text", "message"), [
    (None, "--artemis-device"), ("sim:0", "between 1 and 16"), ("a;rm -rf", "is not a device"),
    ("host/emu", "expected HOST:PORT"), ("host:99999/emu", "expected HOST:PORT"), ("/emu", "is not a device"),
    ("stf:0", "at least 1"), ("stf:x", "expected stf:N"), ("stf:1?os=13", "'13' is not a filter"),
    ("stf:1?sdk=34-30", "range 34-30 is empty"), ("stf:1?sdk=abc", "is not a filter"),
])
def test_bad_device_specs_name_the_entry(text, message):
    with pytest.raises(UsageError, match=message):
        parse_device_spec(text)


def test_stf_filters_read_sdk_and_model_as_stf_lists_them():
    wanted = StfFilter(sdk_min=30, sdk_max=34, model="pixel*")
    assert wanted.accepts({"sdk": "33", "model": "Pixel 7"})
    assert not wanted.accepts({"sdk": "29", "model": "Pixel 7"})
    assert not wanted.accepts({"sdk": "33", "model": "SM-G991B"})
    assert not wanted.accepts({"model": "Pixel 7"})  # no SDK known: not a match
    assert str(wanted) == "sdk=30-34&model=pixel*"


def test_parse_server():
    assert parse_server("farm.local:5037") == ("farm.local", 5037)
    with pytest.raises(UsageError, match="--artemis-adb-server=farm.local: expected HOST:PORT"):
        parse_server("farm.local")


def test_one_server_has_one_key_however_it_is_spelled():
    assert server_key("localhost", 5037) == server_key("127.0.0.1", 5037) == "127.0.0.1:5037"
    assert server_key("127.0.0.2", 5037) != server_key("127.0.0.1", 5037)
    assert AdbSlot.on("localhost", 5037, "emulator-5554").name == "127.0.0.1:5037/emulator-5554"
    with pytest.raises(UsageError, match="does not resolve"):
        server_key("no-such-host.invalid", 5037)


@pytest.fixture
def port() -> int:
    return 40000 + uuid.uuid4().int % 20000  # a fake server: lock files never collide with another run's


def _backend(tmp_path: Path, host: str, port: int, *serials: str) -> FileLockBackend:
    return FileLockBackend([AdbSlot.on(host, port, s) for s in serials], root=tmp_path)


def test_two_spellings_of_a_server_share_the_locks(tmp_path, port):
    first = _backend(tmp_path, "localhost", port, "emulator-5554")
    second = _backend(tmp_path, "127.0.0.1", port, "emulator-5554")
    held = first.try_acquire("run-a", frozenset())
    assert held is not None and held.name == f"127.0.0.1:{port}/emulator-5554"
    assert second.try_acquire("run-b", frozenset()) is None
    first.release(held)
    assert second.try_acquire("run-b", frozenset()) is not None


def test_each_holder_gets_a_different_device_and_quarantined_ones_are_skipped(tmp_path, port):
    backend = _backend(tmp_path, "127.0.0.1", port, "emulator-5554", "emulator-5556", "emulator-5558")
    bad = f"127.0.0.1:{port}/emulator-5554"
    one = backend.try_acquire("gw0", frozenset({bad}))
    two = backend.try_acquire("gw1", frozenset({bad}))
    assert one is not None and two is not None
    assert [one.serial, two.serial] == ["emulator-5556", "emulator-5558"]
    assert backend.try_acquire("gw2", frozenset({bad})) is None
    backend.release(two)
    backend.release(two)  # idempotent
    with pytest.raises(LeaseError, match="not held"):
        backend.renew(two)


def test_a_dead_process_frees_its_lease(tmp_path, port):
    code = (
        "import os\n"
        "from pathlib import Path\n"
        "from pytest_artemis.farm.filelock import AdbSlot, FileLockBackend\n"
        f"slot = AdbSlot.on('127.0.0.1', {port}, 'emulator-5554')\n"
        f"b = FileLockBackend([slot], root=Path({str(tmp_path)!r}))\n"
        "print(b.try_acquire('gw9', frozenset()).serial, flush=True)\n"
        "os._exit(9)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 9 and out.stdout.strip() == "emulator-5554"
    assert _backend(tmp_path, "127.0.0.1", port, "emulator-5554").try_acquire("gw10", frozenset()) is not None


class _Clock:
    """A fake clock: ``sleep`` moves it, so the wait is measured without waiting."""

    def __init__(self) -> None:
        self.now = 0.0
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


class _FreedAfter:
    """A backend whose one device frees after ``free_at`` seconds of the fake clock."""

    renew_interval = None

    def __init__(self, clock: _Clock, free_at: float) -> None:
        self.clock, self.free_at, self.tries = clock, free_at, 0

    def describe(self) -> str:
        return "the pool x:1/a"

    def try_acquire(self, holder, exclude):
        self.tries += 1
        if self.clock() < self.free_at:
            return None
        return DeviceLease("x:1/a", "x", 1, "a", holder, "test")


def test_the_wait_for_a_free_device_is_bounded(tmp_path):
    clock = _Clock()
    with pytest.raises(LeaseError, match=r"gw1: no free device in the pool x:1/a within 5s "
                                         r"\(--artemis-lease-timeout\)"):
        acquire(_FreedAfter(clock, free_at=60), "gw1", wait=5, clock=clock, sleep=clock.sleep)
    assert clock.now == pytest.approx(5) and max(clock.sleeps) <= 2.0
    clock = _Clock()
    backend = _FreedAfter(clock, free_at=3)
    assert acquire(backend, "gw1", wait=5, clock=clock, sleep=clock.sleep).name == "x:1/a"
    assert 3 <= clock.now < 5
    clock = _Clock()
    backend = _FreedAfter(clock, free_at=1)
    with pytest.raises(LeaseError):
        acquire(backend, "gw1", wait=0, clock=clock, sleep=clock.sleep)
    assert backend.tries == 1 and clock.sleeps == []  # a zero wait tries once


def test_a_lease_crosses_workerinput_as_plain_values():
    lease = DeviceLease("stf://stf.local/R58M", "127.0.0.1", 5037, "10.0.0.9:7401", "run-gw0", "stf",
                        {"stf_serial": "R58M", "connect": "10.0.0.9:7401"})
    plain = lease.to_plain()
    assert all(isinstance(v, (str, int, dict)) for v in plain.values())
    assert DeviceLease.from_plain(plain) == lease
