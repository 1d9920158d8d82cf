"""The state each test finds on its device (settings, installed packages, contacts) compared with what the
session's first test found: a change an earlier test left behind is named, with the test that made it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pytest_artemis.device.base import Device

_CONTACTS = {"uri": "content://com.android.contacts/data/phones", "projection": "display_name:data1"}
ABSENT = "absent"


def read_state(device: Device) -> dict[str, str]:
    """``settings NS KEY`` → value, ``packages NAME`` / ``contacts NAME NUMBER`` → ``present``; a listing
    the device cannot give is left out."""
    from pytest_artemis.contracts.probe_outputs import ContentOutput, PackagesOutput

    state: dict[str, str] = {}
    for ns in ("global", "secure", "system"):
        result = device.probe("settings", ns=ns)
        if result.exit_code == 0:
            for line in result.raw.splitlines():
                key, eq, value = line.partition("=")
                if eq and key.strip():
                    state[f"settings {ns} {key.strip()}"] = value.strip()
    packages = device.probe("packages").parsed
    if isinstance(packages, PackagesOutput):
        state.update({f"packages {name}": "present" for name in packages.packages})
    contacts = device.probe("content", **_CONTACTS).parsed
    if isinstance(contacts, ContentOutput):
        state.update({f"contacts {r.get('display_name')} {r.get('data1')}": "present" for r in contacts.rows})
    return state


@dataclass
class FoundState:
    """What the session's tests found, test after test: the first reading, the latest, and for each
    key the test whose run or setup last changed it."""

    first: dict[str, str] = field(default_factory=dict)
    latest: dict[str, str] = field(default_factory=dict)
    changed_by: dict[str, str] = field(default_factory=dict)
    started: bool = False

    def read(self, device: Device, *, changed_by: str) -> list[str]:
        """Read the device now; the keys whose value differs from the first test's reading, each with the
        test that changed it (``changed_by``: the test that ran since the last reading)."""
        now = read_state(device)
        if not self.started:
            self.first, self.latest, self.started = now, now, True
            return []
        for key in set(now) | set(self.latest):
            if now.get(key, ABSENT) != self.latest.get(key, ABSENT) and changed_by:
                self.changed_by[key] = changed_by
        self.latest = now
        keys = sorted(k for k in set(now) | set(self.first)
                      if now.get(k, ABSENT) != self.first.get(k, ABSENT))
        return [describe(k, self.first.get(k, ABSENT), now.get(k, ABSENT), self.changed_by.get(k, ""))
                for k in keys]


def describe(key: str, was: str, now: str, by: str) -> str:
    """``settings global bluetooth_on: 0 -> 1 (changed by tests/test_a.py::test_on)``."""
    who = f" (changed by {by})" if by else ""
    if was == ABSENT or now == ABSENT:
        return f"{key}: {'added' if was == ABSENT else 'gone'}{who}"
    return f"{key}: {was} -> {now}{who}"


def not_touched(changes: list[str], touched: set[str]) -> list[str]:
    """The changes whose key no setup step of this test writes (a precondition the test sets itself is no
    leftover)."""
    return [c for c in changes if not any(c.startswith(t + ":") or c.startswith(t + " ") for t in touched)]
