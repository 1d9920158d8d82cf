"""The predicate registry and the judge: probe checks applied to typed probe outputs.

A predicate is a small pure function of one probe kind's typed output (``reads=``); the judge gives
``inconclusive`` for an unreadable output and never lets a predicate see another kind's output.
Importing this module is cheap (no adbutils, no Pillow): the plugin uses it at collection.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, TypeVar, overload

from pytest_artemis.contracts import ProbeParam, UsageError
from pytest_artemis.contracts.output_refs import (
    OutputRef,
    gives_what_it_reads,
    is_output_ref,
    output_model,
    output_name,
)

if TYPE_CHECKING:
    from pytest_artemis.contracts import ProbeCheck, ProbeResult
    from pytest_artemis.contracts.judgement import ProbeJudgement
    from pytest_artemis.contracts.probe_outputs import ProbeOutput
    from pytest_artemis.device.base import Device
    from pytest_artemis.device.probe_table import ProbeTable

O_contra = TypeVar("O_contra", bound="ProbeOutput", contravariant=True)


class Predicate(Protocol[O_contra]):
    """``fn(output, **args) -> ProbeJudgement``: pure, no I/O; ``output`` is the model it reads."""

    __qualname__: str

    def __call__(self, output: O_contra, /, **args: ProbeParam) -> ProbeJudgement: ...


ArgCheck = Callable[[Mapping[str, ProbeParam]], None]
"""Validates a check's arguments at collection (raises UsageError naming the bad one)."""


class _Registered(NamedTuple):  # not a dataclass: defining one costs test modules' import ~0.4 ms
    fn: Predicate[Any]
    reads: OutputRef
    invariant: bool
    check_args: ArgCheck | None


_PREDICATES: dict[str, _Registered] = {}
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.:-]{0,63}")


OutputT = TypeVar("OutputT", bound="ProbeOutput")
PredicateT = TypeVar("PredicateT", bound="Predicate[Any]")


@overload
def predicate(name: str, *, reads: type[OutputT], invariant: bool = False,
              check_args: ArgCheck | None = None) -> Callable[[Predicate[OutputT]], Predicate[OutputT]]: ...
@overload
def predicate(name: str, *, reads: str, invariant: bool = False,
              check_args: ArgCheck | None = None) -> Callable[[PredicateT], PredicateT]: ...
def predicate(name: str, *, reads: OutputRef, invariant: bool = False,
              check_args: ArgCheck | None = None) -> Callable[[Any], Any]:
    """Register a predicate under ``name`` over the output model ``reads`` (e.g. ``BatteryOutput``, or a
    built-in model's name, ``"BatteryOutput"``, as the built-in predicates give it: then checks of it are
    validated at collection without loading the output models).

    A name taken by another function is a UsageError. ``invariant=True`` marks a check of something
    that must hold throughout (no crash dialog, an app still installed) rather than a change the
    goal brings about: holding before the run is then expected, and the vacuity rule does not apply.
    ``check_args`` validates a check's arguments when the test is collected.
    """
    if not _NAME.fullmatch(name):
        raise UsageError(f"predicate name {name!r} must match {_NAME.pattern}")
    if not is_output_ref(reads):
        raise UsageError(f"predicate {name!r}: reads= must be a probe output model or a built-in one's "
                         f"name, got {reads!r}")

    def register(fn: Predicate[Any]) -> Predicate[Any]:
        existing = _PREDICATES.get(name)
        if existing is not None and existing.fn.__qualname__ != fn.__qualname__:
            raise UsageError(f"predicate {name!r} is already registered ({existing.fn!r})")
        _PREDICATES[name] = _Registered(fn, reads, invariant, check_args)
        return fn

    return register


def _registered(name: str) -> _Registered:
    try:
        return _PREDICATES[name]
    except KeyError:
        known = ", ".join(sorted(_PREDICATES))
        raise UsageError(f"unknown probe predicate {name!r} (known: {known})") from None


def get_predicate(name: str) -> Predicate[Any]:
    """The registered predicate, or a UsageError naming the known ones."""
    return _registered(name).fn


def is_invariant(check: ProbeCheck) -> bool:
    """Whether ``check``'s predicate states an invariant (exempt from the vacuity rule)."""
    entry = _PREDICATES.get(check.name)
    return entry is not None and entry.invariant


def validate_check(check: ProbeCheck, table: ProbeTable | None = None) -> None:
    """Raise ProbeRefused/UsageError unless the probe is in the table (the session's; the built-ins
    when None), the predicate is registered, reads that kind's output and accepts the arguments."""
    if table is None:
        from pytest_artemis.device.probe_table import builtin_probes

        table = builtin_probes()
    table.validate(check.probe)
    entry = _registered(check.name)
    gives = table.kind(check.probe.kind).output
    if not gives_what_it_reads(gives, entry.reads):
        raise UsageError(f"predicate {check.name!r} reads {output_name(entry.reads)}, but probe kind "
                         f"{check.probe.kind!r} gives {output_name(gives)}")
    if entry.check_args is not None:
        entry.check_args(check.args)


def _excerpt(raw: str, args: Mapping[str, ProbeParam], limit: int = 400) -> str:
    """The raw output lines that mention an argument value (the whole output when it is short)."""
    if len(raw) <= limit:
        return raw.strip()
    needles = [str(v) for v in args.values() if isinstance(v, str) and v]
    lines = [ln.strip() for ln in raw.splitlines() if any(n in ln for n in needles)]
    return " | ".join(lines[:5])[:limit] if lines else raw[:limit].strip() + " …"


def _inconclusive(command: str, why: str, raw: str) -> ProbeJudgement:
    from pytest_artemis.contracts.judgement import ProbeJudgement

    return ProbeJudgement(passed=False, conclusive=False,
                          evidence=f"probe `{command}` unreadable: {why}; output: {raw.strip()[:400]}")


def judge(check: ProbeCheck, result: ProbeResult) -> ProbeJudgement:
    """Apply the check's predicate to a probe result; the evidence ends with the raw output quoted.

    A failed command or an unreadable output is inconclusive, never passed or failed.
    """
    from pytest_artemis.contracts.probe_outputs import Unreadable

    entry = _registered(check.name)
    reads = output_model(entry.reads)
    command, parsed = " ".join(result.argv), result.parsed
    if result.exit_code != 0:
        return _inconclusive(command, f"exit {result.exit_code}", result.raw)
    if parsed is None or isinstance(parsed, Unreadable):
        return _inconclusive(command, parsed.reason if parsed is not None else "not parsed", result.raw)
    if not isinstance(parsed, reads):
        return _inconclusive(command, f"{check.name} reads {reads.__name__}, the probe gave "
                                      f"{type(parsed).__name__}", result.raw)
    try:
        if entry.check_args is not None:
            entry.check_args(check.args)
    except UsageError as exc:
        return _inconclusive(command, f"bad check arguments: {exc}", result.raw)
    verdict = entry.fn(parsed, **check.args)
    quoted = _excerpt(result.raw, check.args)
    evidence = f"{verdict.evidence}; `{command}`: {quoted}" if quoted else f"{verdict.evidence}; `{command}`"
    return verdict.model_copy(update={"evidence": evidence})


def run_probe_check(device: Device, check: ProbeCheck) -> tuple[ProbeResult, ProbeJudgement]:
    """Run the check's probe on ``device`` and judge it (device errors propagate)."""
    result = device.probe_spec(check.probe)
    return result, judge(check, result)


def __getattr__(name: str) -> object:
    # ProbeJudgement is a pydantic model: loaded when first named, not when test modules import this one.
    if name != "ProbeJudgement":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from pytest_artemis.contracts.judgement import ProbeJudgement

    globals()[name] = ProbeJudgement
    return ProbeJudgement
