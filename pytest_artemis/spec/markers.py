"""``goal`` / ``verify`` / ``assert_`` markers → a validated TaskSpec, or a MarkerError naming the test."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from pydantic import ValidationError

from pytest_artemis.contracts import CheckItem, CheckKind, ProbeCheck, TaskSpec, UsageError

from .marker_rules import (
    MarkerProblem,
    check_args,
    check_goal_args,
    check_item_args,
    check_marks,
    duplicate_problem,
    goal_args,
    probe_checker,
)

if TYPE_CHECKING:
    from _pytest.mark.structures import Mark

    from pytest_artemis.device.probe_table import ProbeTable


class MarkerError(UsageError):
    """A test's artemis markers are wrong; the message starts with the test's node id."""


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
    try:
        text = check_item_args(label, text, when, subgoal, probe, visual, probe_checker(table))
    except MarkerProblem as exc:
        raise UsageError(str(exc)) from None
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
    try:
        goal = check_goal_args(goal, app, max_steps)
    except MarkerProblem as exc:
        raise UsageError(str(exc)) from None
    for item in checks:
        if not isinstance(item, CheckItem):
            raise UsageError(f"checks must be verify(...)/assert_(...) items, got {type(item).__name__}")
    problem = duplicate_problem([(item.kind, item.when, item.text) for item in checks])
    if problem:
        raise UsageError(problem)
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
    try:
        if not check_marks(marks, probe_checker(table)):
            return None
    except MarkerProblem as exc:
        raise UsageError(str(exc)) from None
    goal, app, max_steps = goal_args(next(m for m in marks if m.name == "goal"))
    checks = [_item(m, table) for m in marks if m.name in ("verify", "assert_")]
    return build_spec(goal, checks, app=app, max_steps=max_steps, test_id=test_id)


def _item(mark: Mark, table: ProbeTable | None) -> CheckItem:
    kind: CheckKind = "assert" if mark.name == "assert_" else "verify"
    text, when, subgoal, probe, visual = check_args(mark)
    # check_marks has accepted the marks: the probe is a ProbeCheck or None
    return check_item(kind, text, when=when, subgoal=subgoal, probe=cast("ProbeCheck | None", probe),
                      table=table, visual=visual)
