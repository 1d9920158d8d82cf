"""The rules of the ``goal`` / ``verify`` / ``assert_`` markers in plain Python (no pydantic, no contracts).

Collection checks every marked test with these rules, so a bad marker is a collection error naming the
test, without loading the typed layer; the typed ``TaskSpec`` is built from the same rules when the test
runs (``markers.spec_from_marks``). A probe argument is checked by the caller's ``check_probe``, normally
``probe_checker``'s, which loads the probe-check contract and the predicates only when a test passes a probe
(its module has loaded them already).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from _pytest.mark.structures import Mark

    from pytest_artemis.device.probe_table import ProbeTable

MARKER_NAMES = ("goal", "verify", "assert_")
WHENS = ("complete", "end")
PACKAGE_PATTERN = r"[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)+"
"""An Android package name (``com.example.app``); the probe outputs' pattern is this one."""


ProbeCheckFn = Callable[[str, str, object], None]
"""``(marker label, item text, probe)``: raises MarkerProblem when the probe argument is not acceptable."""


class MarkerProblem(ValueError):
    """What is wrong with a test's artemis markers (the message names no test; callers add its id)."""


def probe_checker(table: ProbeTable | None) -> ProbeCheckFn:
    """The probe rule: a ProbeCheck from ``pytest_artemis.probes``, accepted by ``table`` (when given).

    Callers make it once a test passes a probe (whose module has loaded these imports already), and
    keep it for the session's other probes.
    """
    from pytest_artemis.contracts.errors import UsageError
    from pytest_artemis.contracts.probe_check import ProbeCheck
    from pytest_artemis.predicates import validate_check

    def check(label: str, text: str, probe: object) -> None:
        if not isinstance(probe, ProbeCheck):
            raise MarkerProblem(f"{label}({text!r}): probe= must be a probe check from "
                                f"pytest_artemis.probes, got {type(probe).__name__}")
        if table is not None:
            try:
                validate_check(probe, table)
            except UsageError as exc:
                raise MarkerProblem(str(exc)) from None

    return check


def _goal_args(
    text: str, *, app: str | None = None, max_steps: int | None = None
) -> tuple[str, str | None, int | None]:
    return text, app, max_steps


def _check_args(
    text: str, *, when: str = "complete", subgoal: str | None = None, probe: object = None,
    visual: bool = False,
) -> tuple[str, str, str | None, object, bool]:
    return text, when, subgoal, probe, visual


def text_of(value: object, what: str) -> str:
    """``value`` stripped; a problem unless it is a non-empty string."""
    if not isinstance(value, str) or not value.strip():
        raise MarkerProblem(f"{what} needs a non-empty text, got {value!r}")
    return value.strip()


def check_item_args(
    label: str, text: object, when: object, subgoal: object, probe: object, visual: object,
    check_probe: ProbeCheckFn | None,
) -> str:
    """The stripped text of a ``verify``/``assert_`` item whose arguments follow the rules."""
    text = text_of(text, label)
    if when not in WHENS:
        raise MarkerProblem(f"{label}({text!r}): when={when!r} is not one of {', '.join(WHENS)}")
    if subgoal is not None and (not isinstance(subgoal, str) or not subgoal.strip()):
        raise MarkerProblem(f"{label}({text!r}): subgoal= must be a non-empty string, got {subgoal!r}")
    if probe is not None and check_probe is not None:
        check_probe(label, text, probe)
    if not isinstance(visual, bool):
        raise MarkerProblem(f"{label}({text!r}): visual= must be True or False, got {visual!r}")
    if visual and probe is not None:
        raise MarkerProblem(f"{label}({text!r}): visual=True is for checks the checker judges; a probe check "
                            "is read from the device")
    return text


def check_goal_args(goal: object, app: object, max_steps: object) -> str:
    """The stripped goal text when the goal's arguments follow the rules."""
    goal = text_of(goal, "goal")
    if app is not None and (not isinstance(app, str) or not re.fullmatch(PACKAGE_PATTERN, app)):
        raise MarkerProblem(f"goal: app= must be an Android package name like com.example.app, got {app!r}")
    if max_steps is not None and (isinstance(max_steps, bool) or not isinstance(max_steps, int)
                                  or max_steps < 1):
        raise MarkerProblem(f"goal: max_steps= must be a positive int, got {max_steps!r}")
    return goal


def duplicate_problem(items: Sequence[tuple[str, str, str]]) -> str | None:
    """The problem with ``(kind, when, text)`` items declared twice, or None."""
    seen: set[tuple[str, str, str]] = set()
    for kind, when, text in items:
        if (kind, when, text) in seen:
            return f"the check {text!r} ({kind}, when={when}) is declared twice"
        seen.add((kind, when, text))
    return None


def goal_args(mark: Mark) -> tuple[str, str | None, int | None]:
    """``(text, app, max_steps)`` of a goal mark, as given (unchecked); a problem when they do not bind."""
    try:
        return _goal_args(*mark.args, **mark.kwargs)
    except TypeError as exc:
        raise MarkerProblem(f"goal marker: {str(exc).replace('_goal_args()', 'goal()')}") from None


def check_args(mark: Mark) -> tuple[str, str, str | None, object, bool]:
    """``(text, when, subgoal, probe, visual)`` of a verify/assert_ mark, as given (unchecked); a problem
    when they do not bind."""
    try:
        return _check_args(*mark.args, **mark.kwargs)
    except TypeError as exc:
        message = str(exc).replace("_check_args()", mark.name + "()")
        raise MarkerProblem(f"{mark.name} marker: {message}") from None


def check_marks(marks: Sequence[Mark], check_probe: ProbeCheckFn | None) -> bool:
    """Whether the marks declare a goal; a MarkerProblem when they break a rule: checks without a goal,
    two goals, empty texts, an unknown ``when``, a non-string ``subgoal``, a probe ``check_probe``
    refuses, unknown marker arguments, an item declared twice."""
    goals = [m for m in marks if m.name == "goal"]
    items = []
    for mark in marks:
        if mark.name not in ("verify", "assert_"):
            continue
        text, when, subgoal, probe, visual = check_args(mark)
        text = check_item_args(mark.name, text, when, subgoal, probe, visual, check_probe)
        kind = "assert" if mark.name == "assert_" else "verify"
        items.append((kind, "end" if when == "end" else "complete", text))
    if not goals:
        if items:
            raise MarkerProblem("verify/assert_ markers without a goal marker (add @pytest.mark.goal(...))")
        return False
    if len(goals) > 1:
        texts = ", ".join(repr(g.args[0]) if g.args else "?" for g in goals)
        raise MarkerProblem(f"{len(goals)} goal markers ({texts}); a test has exactly one goal")
    check_goal_args(*goal_args(goals[0]))
    problem = duplicate_problem(items)
    if problem:
        raise MarkerProblem(problem)
    return True
