"""Task specs from pytest markers: parsing and validation (a usage error names the test's node id).

Light to import: the typed layer (pydantic, the contracts) loads when ``markers``' names are first used;
``marker_rules`` checks markers without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .markers import MarkerError, assert_, check_item, spec_from_marks, verify

_FROM_MARKERS = ("MarkerError", "assert_", "check_item", "spec_from_marks", "verify")


def __getattr__(name: str) -> object:
    if name not in _FROM_MARKERS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from . import markers

    return getattr(markers, name)


__all__ = ["MarkerError", "assert_", "check_item", "spec_from_marks", "verify"]
