"""``goal`` / ``verify`` / ``assert_`` markers → a validated TaskSpec, or a MarkerError naming the test."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from pydantic import ValidationError

from pytest_artemis.contracts import CheckItem, CheckKind, ProbeCheck, TaskSpec, UsageError
from pytest_artemis.contracts.probe_outputs import PACKAGE_PATTERN

if TYPE_CHECKING:
    from _pytest.mark.structures import Mark

    from pytest_artemis.device.probe_table import ProbeTable

MARKER_NAMES = ("goal", "verify", "assert_")
_WHENS = ("complete", "end")


class MarkerError(UsageError):
    """A test's artemis markers are wrong; the message starts with the test's node id."""


def _goal_args(
    text: str, *, app: str | None = None, max_steps: int | None = None
) -> tuple[str, str | None, int | None]:
    return text, app, max_steps


def _check_args(
    text: str, *, when: str = "complete", subgoal: str | None = None, probe: ProbeCheck | None = None,
    visual: bool = False,
) -> tuple[str, str, str | None, ProbeCheck | None, bool]:
    return text, when, subgoal, probe, visual


def _text(value: object, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise UsageError(f"{what} needs a non-empty text, got {value!r}")
    return value.strip()


def check_item(
    kind: CheckKind,
    text: str,
    *,
    when: str = "complete",
    subgoal: str | None = None,
    probe: ProbeCheck | None = None,
    table: ProbeTable | None = None,
    visual: bool = False,
) -> CheckItem:
    """One validated user check item (what a ``verify``/``assert_`` marker declares).

    The probe is validated against ``table`` (the session's probe table); with no table, against the
    session's table when the run starts (``artemis.run``), since plugin kinds are only known there.
    """
    label = "assert_" if kind == "assert" else kind
    text = _text(text, label)
    if when not in _WHENS:
        raise UsageError(f"{label}({text!r}): when={when!r} is not one of {', '.join(_WHENS)}")
    if subgoal is not None and (not isinstance(subgoal, str) or not subgoal.strip()):
        raise UsageError(f"{label}({text!r}): subgoal= must be a non-empty string, got {subgoal!r}")
    if probe is not None:
        if not isinstance(probe, ProbeCheck):
            raise UsageError(f"{label}({text!r}): probe= must be a probe check from pytest_artemis.probes, "
                             f"got {type(probe).__name__}")
        if table is not None:
            from pytest_artemis.probes import validate_check

            validate_check(probe, table)
    if not isinstance(visual, bool):
        raise UsageError(f"{label}({text!r}): visual= must be True or False, got {visual!r}")
    if visual and probe is not None:
        raise UsageError(f"{label}({text!r}): visual=True is for checks the checker judges; a probe check "
                         "is read from the device")
    return CheckItem(kind=kind, text=text, when="end" if when == "end" else "complete", subgoal_hint=subgoal,
                     probe=probe, visual=visual)


def verify(text: str, *, when: str = "complete", subgoal: str | None = None,
           probe: ProbeCheck | None = None, visual: bool = False) -> CheckItem:
    """A completion criterion for ``artemis.run(goal, checks=[...])`` (same rules as the marker)."""
    return check_item("verify", text, when=when, subgoal=subgoal, probe=probe, visual=visual)


def assert_(text: str, *, when: str = "complete", subgoal: str | None = None,
            probe: ProbeCheck | None = None, visual: bool = False) -> CheckItem:
    """A test assertion for ``artemis.run(goal, checks=[...])`` (same rules as the marker)."""
    return check_item("assert", text, when=when, subgoal=subgoal, probe=probe, visual=visual)


def build_spec(
    goal: str, checks: Sequence[CheckItem], *, app: str | None = None, max_steps: int | None = None,
    test_id: str = "",
) -> TaskSpec:
    """A TaskSpec from a goal and check items; duplicate items are a usage error."""
    goal = _text(goal, "goal")
    if app is not None and (not isinstance(app, str) or not re.fullmatch(PACKAGE_PATTERN, app)):
        raise UsageError(f"goal: app= must be an Android package name like com.example.app, got {app!r}")
    if max_steps is not None and (isinstance(max_steps, bool) or not isinstance(max_steps, int)
                                  or max_steps < 1):
        raise UsageError(f"goal: max_steps= must be a positive int, got {max_steps!r}")
    seen: set[str] = set()
    for item in checks:
        if not isinstance(item, CheckItem):
            raise UsageError(f"checks must be verify(...)/assert_(...) items, got {type(item).__name__}")
        if item.key in seen:
            raise UsageError(f"the check {item.text!r} ({item.kind}, when={item.when}) is declared twice")
        seen.add(item.key)
    try:
        return TaskSpec(goal=goal, app=app, max_steps=max_steps, checks=tuple(checks), test_id=test_id)
    except ValidationError as exc:
        raise UsageError(f"invalid task: {exc}") from None


def spec_from_marks(test_id: str, marks: Sequence[Mark], table: ProbeTable | None = None) -> TaskSpec | None:
    """The test's TaskSpec from its artemis marks (in declaration order); None when it has none.

    Raises MarkerError, whose message starts with ``test_id``, for: checks without a goal, two goals,
    empty texts, an unknown ``when``, a non-string ``subgoal``, a probe the probe table refuses,
    unknown marker arguments.
    """
    try:
        return _spec(test_id, marks, table)
    except MarkerError:
        raise
    except UsageError as exc:
        raise MarkerError(f"{test_id}: {exc}") from None


def _spec(test_id: str, marks: Sequence[Mark], table: ProbeTable | None) -> TaskSpec | None:
    if table is None:
        from pytest_artemis.device.probe_table import builtin_probes

        table = builtin_probes()
    goals = [m for m in marks if m.name == "goal"]
    checks = [_item(m, table) for m in marks if m.name in ("verify", "assert_")]
    if not goals:
        if checks:
            raise UsageError("verify/assert_ markers without a goal marker (add @pytest.mark.goal(...))")
        return None
    if len(goals) > 1:
        texts = ", ".join(repr(g.args[0]) if g.args else "?" for g in goals)
        raise UsageError(f"{len(goals)} goal markers ({texts}); a test has exactly one goal")
    try:
        goal, app, max_steps = _goal_args(*goals[0].args, **goals[0].kwargs)
    except TypeError as exc:
        raise UsageError(f"goal marker: {str(exc).replace('_goal_args()', 'goal()')}") from None
    return build_spec(goal, checks, app=app, max_steps=max_steps, test_id=test_id)


def _item(mark: Mark, table: ProbeTable | None) -> CheckItem:
    kind: CheckKind = "assert" if mark.name == "assert_" else "verify"
    try:
        text, when, subgoal, probe, visual = _check_args(*mark.args, **mark.kwargs)
    except TypeError as exc:
        message = str(exc).replace("_check_args()", mark.name + "()")
        raise UsageError(f"{mark.name} marker: {message}") from None
    return check_item(kind, text, when=when, subgoal=subgoal, probe=probe, table=table, visual=visual)
