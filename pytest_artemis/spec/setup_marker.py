"""The ``artemis_setup`` marker: common preconditions by name, checked at collection (plain Python) and
applied by the harness in one documented order before the test's fixtures."""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from .marker_rules import PACKAGE_PATTERN, MarkerProblem

if TYPE_CHECKING:
    from _pytest.mark.structures import Mark

SETUP_KEYS: tuple[str, ...] = ("clear_data", "install", "grant", "revoke", "settings", "files", "contacts",
                               "alarms", "launch", "open_url")
"""The marker's arguments, in the order their steps are applied."""
_TIME = re.compile(r"([01]?\d|2[0-3]):([0-5]\d)")
_NAMESPACES = ("system", "secure", "global")


def closest(name: str, known: Sequence[str]) -> str:
    """`` (did you mean 'settings'?)`` for a misspelt name, else nothing."""
    near = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    return f" (did you mean {near[0]!r}?)" if near else ""


def setup_arguments(marks: Sequence[Mark]) -> dict[str, object]:
    """The preconditions the ``artemis_setup`` marks declare, outer scopes first (the test's own win)."""
    merged: dict[str, object] = {}
    for mark in marks:
        if mark.args:
            raise MarkerProblem(f"artemis_setup: preconditions are keyword arguments "
                                f"({', '.join(SETUP_KEYS)}), got positional {mark.args!r}")
        for key, value in mark.kwargs.items():
            if key not in SETUP_KEYS:
                raise MarkerProblem(f"artemis_setup: unknown precondition {key!r}{closest(key, SETUP_KEYS)}; "
                                    f"known: {', '.join(SETUP_KEYS)}")
            _check(key, value)
            merged[key] = value
    return merged


def as_list(value: object) -> list[object]:
    """One value or a list of them."""
    return list(value) if isinstance(value, list | tuple) else [value]


def _package(value: object, what: str) -> None:
    if not isinstance(value, str) or not re.fullmatch(PACKAGE_PATTERN, value):
        raise MarkerProblem(f"artemis_setup({what}=…): {value!r} is not an Android package name")


def _mapping(value: object, what: str) -> Mapping[object, object]:
    if not isinstance(value, Mapping):
        raise MarkerProblem(f"artemis_setup({what}=…): a dict, got {type(value).__name__}")
    return value


def _check(key: str, value: object) -> None:
    if key in ("clear_data", "launch"):
        for package in as_list(value):
            _package(package, key)
    elif key == "install":
        if not all(isinstance(v, str) and v for v in as_list(value)):
            raise MarkerProblem(f"artemis_setup(install=…): APK paths as strings, got {value!r}")
    elif key in ("grant", "revoke"):
        for package, permissions in _mapping(value, key).items():
            _package(package, key)
            if not all(isinstance(p, str) and p for p in as_list(permissions)):
                raise MarkerProblem(f"artemis_setup({key}=…): permission names, got {permissions!r}")
    elif key == "settings":
        for ns, pairs in _mapping(value, key).items():
            if ns not in _NAMESPACES:
                raise MarkerProblem(f"artemis_setup(settings=…): namespace {ns!r} is not one of "
                                    f"{', '.join(_NAMESPACES)}{closest(str(ns), _NAMESPACES)}")
            _mapping(pairs, f"settings[{ns!r}]")
    elif key == "files":
        for remote, local in _mapping(value, key).items():
            if not (isinstance(remote, str) and remote.startswith("/") and isinstance(local, str | bytes)):
                raise MarkerProblem("artemis_setup(files=…): {device path: host path or bytes}, got "
                                    f"{remote!r}: {local!r}")
    elif key == "contacts":
        for contact in as_list(value):
            fields = _mapping(contact, "contacts")
            if not isinstance(fields.get("name"), str) or set(fields) - {"name", "phone", "email"}:
                raise MarkerProblem("artemis_setup(contacts=…): each contact a dict with a 'name' and "
                                    f"optionally 'phone' and 'email', got {contact!r}")
    elif key == "alarms":
        for alarm in as_list(value):
            if not isinstance(alarm, str) or not _TIME.fullmatch(alarm):
                raise MarkerProblem(f"artemis_setup(alarms=…): times as 'HH:MM' (24-hour), got {alarm!r}")
    elif key == "open_url" and not isinstance(value, str):
        raise MarkerProblem(f"artemis_setup(open_url=…): a URL string, got {value!r}")


def alarm_time(text: str) -> tuple[int, int]:
    """``"07:30"`` → ``(7, 30)``."""
    match = _TIME.fullmatch(text)
    if match is None:
        raise ValueError(f"not a time as HH:MM: {text!r}")
    return int(match.group(1)), int(match.group(2))
