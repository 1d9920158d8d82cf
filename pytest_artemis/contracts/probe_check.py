"""Probe checks: a probe invocation and the named predicate applied to its output.

Their own module because test modules build them at import (``pytest_artemis.probes``): loading them
loads no other contract.
"""

from __future__ import annotations

from pydantic import Field

from ._base import Contract

ProbeParam = str | int | bool | None


class ProbeSpec(Contract):
    """One invocation of an enumerated device probe: a kind from the probe table and its parameters."""

    kind: str = Field(min_length=1)
    params: dict[str, str] = Field(default_factory=dict)


class ProbeCheck(Contract):
    """A deterministic check: run ``probe`` and apply the registered predicate ``name`` with ``args``.

    Predicates are small pure functions of the probe's parsed output (``pytest_artemis.probes``);
    naming them keeps a check plain data, so it can be journaled and sent across processes.
    """

    probe: ProbeSpec
    name: str = Field(min_length=1)
    args: dict[str, ProbeParam] = Field(default_factory=dict)
    description: str = ""
