"""The STF backend against the REST double: list, book (a refusal moves on), remote-connect, adb connect,
renew, release; the token in no message."""

from __future__ import annotations

import time

import pytest
from stf_double import StfDouble

from pytest_artemis.contracts import UsageError
from pytest_artemis.farm.backend import LeaseError
from pytest_artemis.farm.spec import StfFilter, StfSpec
from pytest_artemis.farm.stf import StfBackend, StfClient
from pytest_artemis.sim import SimServer

TOKEN = "stf-token-3c9f1e77aa"


@pytest.fixture
def stf():
    with StfDouble(tokens={TOKEN: "ci@example.com", "other-token-55": "dev@example.com"}, devices=3,
                   sdks=("33", "34", "34")) as double:
        yield double


@pytest.fixture
def local():
    with SimServer(devices=0) as server:  # the runner's own adb server, which `adb connect` attaches to
        yield server


TWO = StfSpec(2)


def _backend(stf, local, spec=TWO, token=TOKEN) -> StfBackend:
    return StfBackend(spec, StfClient(stf.url, token), local.host, local.port, renew_interval=0.2)


def test_book_connect_and_release(stf, local):
    backend = _backend(stf, local)
    survey = backend.survey()
    assert len(survey.usable) == 3 and not survey.unusable
    lease = backend.try_acquire("run-gw0", frozenset())
    assert lease is not None and lease.name == f"stf://{stf.url.removeprefix('http://')}/R5CT0000"
    assert lease.serial == stf.phones["R5CT0000"].endpoint.address  # the remote-connect address
    assert stf.booked() == {"R5CT0000": "ci@example.com"}
    assert lease.serial in local.remote.listing(False)  # adb connect
    second = backend.try_acquire("run-gw1", frozenset())
    assert second is not None and second.details["stf_serial"] == "R5CT0001"
    assert backend.try_acquire("run-gw2", frozenset()) is None  # stf:2 holds two at most
    backend.release(lease)
    backend.release(lease)  # idempotent: a controller may release a lease its dead worker held
    assert stf.booked() == {"R5CT0001": "ci@example.com"}
    assert lease.serial not in local.remote.listing(False)  # adb disconnect
    assert [e[1] for e in stf.log if e[2] == "R5CT0000"] == ["book", "connect", "disconnect", "release"]


def test_a_refusal_moves_on_to_the_next_device(stf, local):
    stf.phones["R5CT0000"].refuse = True
    other = _backend(stf, local, token="other-token-55")
    taken = other.try_acquire("someone-else", frozenset())
    assert taken is not None and taken.details["stf_serial"] == "R5CT0001"  # R5CT0000 refused it too
    lease = _backend(stf, local).try_acquire("run-gw0", frozenset())
    assert lease is not None and lease.details["stf_serial"] == "R5CT0002"
    assert "504" in _backend(stf, local).refusals.get("R5CT0000", "504")


def test_filters_and_quarantine_choose_the_device(stf, local):
    only_33 = _backend(stf, local, StfSpec(1, StfFilter(sdk_min=33, sdk_max=33)))
    assert [n.rpartition("/")[2] for n in only_33.survey().usable] == ["R5CT0000"]
    skipped = {only_33.device_name("R5CT0000")}
    assert only_33.try_acquire("gw0", frozenset(skipped)) is None
    stf.phones["R5CT0001"].ready = False
    survey = _backend(stf, local).survey()
    assert survey.unusable == {_backend(stf, local).device_name("R5CT0001"): "not ready"}


def test_renew_keeps_an_idle_booking_and_notices_a_lost_one(stf, local):
    backend = StfBackend(StfSpec(1), StfClient(stf.url, TOKEN), local.host, local.port,
                         booking_timeout_ms=600)
    lease = backend.try_acquire("gw0", frozenset())
    assert lease is not None
    for _ in range(4):  # 1.2 s, twice the idle timeout: renew's adb traffic keeps it booked
        time.sleep(0.3)
        backend.renew(lease)
    assert stf.booked() == {"R5CT0000": "ci@example.com"}
    time.sleep(1.0)
    with pytest.raises(LeaseError, match="the STF booking was lost"):
        backend.renew(lease)
    backend.release(lease)


def test_a_bad_token_or_url_is_a_usage_error_without_the_token(stf, local):
    with pytest.raises(UsageError, match=r"refused to list its devices \(HTTP 401: Unauthorized\) "
                                         r"\(check ARTEMIS_STF_TOKEN\)") as bad:
        _backend(stf, local, token="wrong-token-123").survey()
    assert "wrong-token-123" not in str(bad.value)
    gone = StfBackend(StfSpec(1), StfClient("http://127.0.0.1:9", TOKEN), local.host, local.port)
    with pytest.raises(UsageError, match="STF at http://127.0.0.1:9 is unreachable") as down:
        gone.survey()
    assert TOKEN not in str(down.value) and TOKEN not in repr(gone.client)
