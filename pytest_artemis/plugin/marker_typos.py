"""Misspelt artemis markers: an unregistered marker name close to one of ours is a collection error.

pytest only warns about an unknown marker (without ``--strict-markers``), so ``@pytest.mark.verfy("…")``
would make a check vanish and its test pass. On a test that uses the ``artemis`` fixture, a marker name
that no plugin or ini file registered and that is close to ``goal``, ``verify``, ``assert_`` or
``artemis`` (difflib's similarity ratio of the case-folded names at least :data:`CLOSE`) is refused
with the name it is probably meant to be. A marker of the user's own that happens to look like ours is
left alone once it is registered (the ``markers`` ini option), as ``--strict-markers`` wants anyway.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

import pytest

from .state import MARKER_NAMES

CLOSE = 0.75
"""The least ``difflib.SequenceMatcher`` ratio at which a name counts as a misspelling of ours: it takes
``verfy``, ``asert``, ``goals``, ``gaol``, ``artemis_`` and ``Verify``, and none of pytest's or the
common plugins' markers (``skip``, ``xfail``, ``slow``, ``timeout``, ``flaky``, ``order``, …)."""

_registered_key = pytest.StashKey[frozenset[str]]()
"""The marker names the session's plugins and ini files registered (read once, on the first question)."""


def closest_marker(name: str) -> str | None:
    """The artemis marker ``name`` is probably a misspelling of, or None (ours are never misspellings)."""
    if name in MARKER_NAMES:
        return None
    folded = name.casefold()
    ratio, best = max((difflib.SequenceMatcher(None, folded, ours).ratio(), ours) for ours in MARKER_NAMES)
    return best if ratio >= CLOSE else None


def registered_markers(config: pytest.Config) -> frozenset[str]:
    """The names in the ``markers`` ini option (pytest's own, every plugin's and the user's)."""
    if _registered_key not in config.stash:
        lines: Iterable[str] = config.getini("markers")
        config.stash[_registered_key] = frozenset(line.split(":", 1)[0].split("(", 1)[0].strip()
                                                  for line in lines)
    return config.stash[_registered_key]


def misspelt(config: pytest.Config, names: Iterable[str]) -> str | None:
    """The problem with the first unregistered marker name close to one of ours, or None."""
    unknown = sorted(set(names) - registered_markers(config))
    for name in unknown:
        meant = closest_marker(name)
        if meant is not None:
            return (f"unknown marker {name!r}: did you mean {meant!r}? pytest ignores an unknown marker, so "
                    f"the {meant} it was meant to be would silently not apply; fix its name (or, if "
                    f"{name!r} is a marker of your own, register it in the `markers` ini option)")
    return None
