"""Probe checks: a probe invocation and the named predicate applied to its output.

Their own module because test modules build them at import (``pytest_artemis.probes``): loading them
loads no other contract, nor pydantic. They are frozen stdlib dataclasses (collecting a test module
that uses them must not pay for importing pydantic) that enforce the same rules as the pydantic
contracts: pydantic models holding them (``CheckItem.probe``, ``ProbeResult.spec``, the checker's
probe requests) validate them from JSON, refuse unknown keys and empty names, and dump them as objects
with these fields.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any

ProbeParam = str | int | bool | None


class _NonEmpty:
    """``min_length=1`` for pydantic (validation and JSON schema), read only when pydantic builds a
    schema of a model holding a probe check: this module never imports pydantic."""

    @staticmethod
    def __get_pydantic_core_schema__(source: object, handler: Callable[[object], Any]) -> Any:
        return {**handler(source), "min_length": 1}


_Name = Annotated[str, _NonEmpty()]


def _text(owner: str, name: str, value: object) -> None:
    if not isinstance(value, str) or not value:
        raise ValueError(f"{owner}.{name} must be a non-empty string, got {value!r}")


def _mapping(owner: str, name: str, value: object, valid: Callable[[object], bool]) -> dict[str, Any]:
    # A plain loop, not all() over a generator: test modules build two of these per probe check at import.
    if isinstance(value, dict):
        for key, item in value.items():
            if not (isinstance(key, str) and valid(item)):
                break
        else:
            return dict(value)  # a copy: the caller's dict changing later does not change the check
    raise ValueError(f"{owner}.{name} must map names to allowed values, got {value!r}")


def _is_str(value: object) -> bool:
    return isinstance(value, str)


def _is_param(value: object) -> bool:
    return value is None or isinstance(value, str | int | bool)


@dataclass(frozen=True)
class ProbeSpec:
    """One invocation of an enumerated device probe: a kind from the probe table and its parameters."""

    __pydantic_config__ = {"extra": "forbid"}

    kind: _Name
    params: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        _text("ProbeSpec", "kind", self.kind)
        object.__setattr__(self, "params", _mapping("ProbeSpec", "params", self.params, _is_str))


@dataclass(frozen=True)
class ProbeCheck:
    """A deterministic check: run ``probe`` and apply the registered predicate ``name`` with ``args``.

    Predicates are small pure functions of the probe's parsed output (``pytest_artemis.probes``);
    naming them keeps a check plain data, so it can be journaled and sent across processes.
    """

    __pydantic_config__ = {"extra": "forbid"}

    probe: ProbeSpec
    name: _Name
    args: dict[str, ProbeParam] = field(default_factory=dict)
    description: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.probe, ProbeSpec):
            raise ValueError(f"ProbeCheck.probe must be a ProbeSpec, got {self.probe!r}")
        _text("ProbeCheck", "name", self.name)
        object.__setattr__(self, "args", _mapping("ProbeCheck", "args", self.args, _is_param))
        if not isinstance(self.description, str):
            raise ValueError(f"ProbeCheck.description must be a string, got {self.description!r}")
