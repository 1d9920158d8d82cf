"""``--artemis-device`` specs: simulated phones, adb devices (bare or ``HOST:PORT/SERIAL``), STF bookings."""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import parse_qsl

from pytest_artemis.contracts import UsageError

from .address import parse_server

_SIM = re.compile(r"sim(?::(\d+))?")
_STF = re.compile(r"stf:(\d+)(?:\?(.*))?")
_SERIAL = re.compile(r"[A-Za-z0-9._:-]{1,128}")
_SDK = re.compile(r"(\d{1,3})(?:-(\d{1,3}))?")
MAX_SIM = 16
FORMS = "SERIAL[,SERIAL…], HOST:PORT/SERIAL[,…], sim, sim:N or stf:N[?sdk=…&model=…]"


@dataclass(frozen=True)
class SimSpec:
    """``sim`` / ``sim:N``: N simulated phones behind one simulated adb server."""

    count: int


@dataclass(frozen=True)
class AdbEntry:
    """One device of a list: its serial on the adb server ``host:port`` (as written, not yet resolved)."""

    host: str
    port: int
    serial: str


@dataclass(frozen=True)
class AdbSpec:
    """A list of devices on one or more adb servers; the list is the pool."""

    entries: tuple[AdbEntry, ...]


@dataclass(frozen=True)
class StfFilter:
    """Which STF devices a ``stf:N?…`` spec accepts: an SDK level or range, a model glob."""

    sdk_min: int | None = None
    sdk_max: int | None = None
    model: str | None = None

    def accepts(self, device: Mapping[str, object]) -> bool:
        """Whether an STF device record (``GET /api/v1/devices``) passes the filter."""
        if self.sdk_min is not None:
            sdk = str(device.get("sdk") or "")
            if not sdk.isdigit() or not self.sdk_min <= int(sdk) <= (self.sdk_max or self.sdk_min):
                return False
        if self.model is not None:
            model = str(device.get("model") or "")
            if not fnmatch.fnmatchcase(model.casefold(), self.model.casefold()):
                return False
        return True

    def __str__(self) -> str:
        parts = []
        if self.sdk_min is not None:
            high = self.sdk_max if self.sdk_max is not None else self.sdk_min
            sdk = str(self.sdk_min) if high == self.sdk_min else f"{self.sdk_min}-{high}"
            parts.append(f"sdk={sdk}")
        if self.model is not None:
            parts.append(f"model={self.model}")
        return "&".join(parts)


@dataclass(frozen=True)
class StfSpec:
    """``stf:N[?filter]``: up to N devices booked from DeviceFarmer STF, one per process that runs tests."""

    count: int
    filter: StfFilter = StfFilter()


DeviceSpec = SimSpec | AdbSpec | StfSpec


def parse_device_spec(value: str | None, adb_server: str = "127.0.0.1:5037") -> DeviceSpec:
    """The spec ``--artemis-device`` gives; bare serials are on ``adb_server`` (``--artemis-adb-server``)."""
    if value is None or not value.strip():
        raise UsageError(f"no device configured: pass --artemis-device={FORMS} "
                         "(or ARTEMIS_DEVICE, or ini artemis_device)")
    text = value.strip()
    sim = _SIM.fullmatch(text)
    if sim:
        count = int(sim.group(1) or 1)
        if not 1 <= count <= MAX_SIM:
            raise UsageError(f"--artemis-device={text}: N must be between 1 and {MAX_SIM}")
        return SimSpec(count)
    if text.startswith("stf:"):
        return _parse_stf(text)
    return AdbSpec(tuple(_parse_entry(text, entry.strip(), adb_server) for entry in text.split(",")
                         if entry.strip()))


def _parse_entry(text: str, entry: str, adb_server: str) -> AdbEntry:
    server, slash, serial = entry.rpartition("/")
    if not _SERIAL.fullmatch(serial) or (slash and not server):
        raise UsageError(f"--artemis-device={text}: {entry!r} is not a device ({FORMS})")
    host, port = parse_server(server if slash else adb_server,
                              f"--artemis-device entry {entry!r}" if slash else "--artemis-adb-server")
    return AdbEntry(host, port, serial)


def _parse_stf(text: str) -> StfSpec:
    match = _STF.fullmatch(text)
    if match is None:
        raise UsageError(f"--artemis-device={text}: expected stf:N or stf:N?sdk=33&model=Pixel*")
    count = int(match.group(1))
    if count < 1:
        raise UsageError(f"--artemis-device={text}: N must be at least 1")
    fields: dict[str, object] = {}
    for key, raw in parse_qsl(match.group(2) or "", keep_blank_values=True, strict_parsing=False):
        if key == "sdk" and (sdk := _SDK.fullmatch(raw)):
            low, high = int(sdk.group(1)), int(sdk.group(2) or sdk.group(1))
            if high < low:
                raise UsageError(f"--artemis-device={text}: sdk range {raw} is empty")
            fields |= {"sdk_min": low, "sdk_max": high}
        elif key == "model" and raw:
            fields["model"] = raw
        else:
            raise UsageError(f"--artemis-device={text}: {key}={raw!r} is not a filter (sdk=33, "
                             "sdk=30-34, model=Pixel 7, model=Pixel*)")
    return StfSpec(count, StfFilter(**fields))  # type: ignore[arg-type]
