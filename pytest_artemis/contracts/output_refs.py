"""Probe output models named, not imported: the built-in probe kinds and predicates refer to their output
model by its name in ``probe_outputs``, resolved when an output is parsed or judged.

Collection checks that a probe check's predicate reads the output its probe kind gives; with names on
both sides that needs no model, so collecting probe checks loads neither the output models nor pydantic.
Every built-in output model subclasses ``ProbeOutput`` directly and none subclasses another, so two
built-in names give an output a predicate reads exactly when they are equal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

from .errors import UsageError

if TYPE_CHECKING:
    from .probe_outputs import ProbeOutput

BUILTIN_OUTPUTS = frozenset({
    "AlarmsOutput", "BatteryOutput", "ContentOutput", "ForegroundOutput", "NotificationsOutput",
    "PackagesOutput", "PropOutput", "SettingOutput", "TextOutput", "WindowFocusOutput",
})
"""The names of the built-in probe output models (``pytest_artemis.contracts.probe_outputs``)."""

OutputRef: TypeAlias = "type[ProbeOutput] | str"
"""A probe output model, or the name of a built-in one (in ``BUILTIN_OUTPUTS``)."""


def is_output_ref(ref: object) -> bool:
    """Whether ``ref`` is a probe output model or the name of a built-in one."""
    if isinstance(ref, str):
        return ref in BUILTIN_OUTPUTS
    if not isinstance(ref, type):
        return False
    from .probe_outputs import ProbeOutput

    return issubclass(ref, ProbeOutput)


def output_model(ref: OutputRef) -> type[ProbeOutput]:
    """The model ``ref`` names (importing the built-in output models on first use)."""
    if isinstance(ref, str):
        if ref not in BUILTIN_OUTPUTS:
            raise UsageError(f"{ref!r} is not a built-in probe output model")
        from . import probe_outputs

        model: type[ProbeOutput] = getattr(probe_outputs, ref)
        return model
    return ref


def output_name(ref: OutputRef) -> str:
    """The model's class name."""
    return ref if isinstance(ref, str) else ref.__name__


def gives_what_it_reads(gives: OutputRef, reads: OutputRef) -> bool:
    """Whether a probe kind giving ``gives`` gives what a predicate reading ``reads`` reads."""
    if isinstance(gives, str) and isinstance(reads, str):
        return gives == reads
    return issubclass(output_model(gives), output_model(reads))
