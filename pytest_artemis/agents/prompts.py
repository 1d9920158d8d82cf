"""Prompt components assembled per (configuration × scenario): no section for a mechanism that is off."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pytest_artemis.contracts import CheckItem
from pytest_artemis.plan import parse_plan, render_grammar_spec


@dataclass(frozen=True)
class Scenario:
    """What a prompt is assembled from: the switches that are on and what the request is about."""

    checks_enabled: bool
    """Some check mechanism is on (midway checkpoints or the final check)."""
    plan_has_checks: bool = False
    findings: bool = False


def join(*sections: str) -> str:
    """The non-empty sections, separated by blank lines."""
    return "\n\n".join(s.strip() for s in sections if s.strip())


def plan_has_checks(plan_text: str) -> bool:
    """Whether the plan text holds any check line (decides the operator's check explainer)."""
    try:
        return bool(parse_plan(plan_text).check_lines())
    except ValueError:
        return False


# -- planner -------------------------------------------------------------------------------------

_PLANNER_ROLE = """\
You are the planner of an automated test on an Android device. Break the user's goal into a short
ordered list of subgoals an operator can carry out on the device one by one. Keep it short (2 to 8
subgoals), each naming an observable result on the device."""

_PLANNER_CHECKS = """\
Checks: copy each declared check below into the plan verbatim, under the subgoal it belongs to
(task-level or `@end` when it is about the whole run or the final state). Add your own `verify:` lines
only for key milestones (an irreversible action completed, a result the goal directly depends on), not
for every subgoal. Prefer expectations that can be observed as persistent state over transient ones
(a toast disappears). Checks are verified after the fact: a requirement such as "confirm A before
doing B" is checked from the recorded history, it cannot block the operator in advance."""

_PLANNER_OUTPUT = 'Reply with JSON: {"plan": "<the plan markdown>"}.'


def planner_system(scenario: Scenario) -> str:
    """The planner's system prompt for this configuration."""
    return join(
        _PLANNER_ROLE,
        render_grammar_spec(include_checks=scenario.checks_enabled),
        _PLANNER_CHECKS if scenario.checks_enabled else "",
        _PLANNER_OUTPUT,
    )


def planner_user(goal: str, app: str | None, items: Sequence[CheckItem], *, checks_enabled: bool) -> str:
    """The planner's request: the goal, the app, and (when checks are on) the declared checks."""
    declared = ""
    if checks_enabled and items:
        declared = "Declared checks:\n" + "\n".join(_item_line(i) for i in items)
    return join(f"Goal: {goal}", f"App: {app}" if app else "", declared)


def _item_line(item: CheckItem) -> str:
    suffix = "@end" if item.when == "end" else ""
    hint = f"  (belongs to: {item.subgoal_hint})" if item.subgoal_hint else ""
    return f"- {item.kind}{suffix}: {item.text}{hint}"


# -- operator ------------------------------------------------------------------------------------

_OPERATOR_ROLE = """\
You operate an Android device to reach the user's goal, one turn at a time. Each turn you see the
goal, the plan, recent steps and the current screen (an element list and a screenshot). Decide the
next actions and, when a subgoal is visibly done on the screen, mark it `[x]` by returning the whole
plan in `plan` (otherwise leave `plan` null)."""

_OPERATOR_ACTIONS = """\
Actions (JSON objects with a "kind"):
- {"kind": "tap", "element": N} or {"kind": "tap", "x": X, "y": Y}; "long_press" likewise
- {"kind": "type", "text": "...", "element": N}  (element optional: tapped first to focus)
- {"kind": "swipe", "x1":..,"y1":..,"x2":..,"y2":..}; {"kind": "scroll", "direction": "up|down|left|right"}
- {"kind": "key", "key": "BACK|HOME|ENTER|DEL|APP_SWITCH|TAB|SPACE"}
- {"kind": "launch", "package": "com.example"}; {"kind": "wait", "ms": 1000}
- {"kind": "finish", "summary": "..."}: you believe the goal is reached. This is a claim: it ends your
  work and hands over to independent checks; it does not make the test pass.
Element numbers refer to the screen shown this turn. Prefer one or two actions per turn."""

_OPERATOR_CHECK_EXPLAINER = """\
About the check lines in the plan: a `verify:` line is the acceptance criterion of its subgoal; use it
to make sure the subgoal is really done, but an independent checker judges it: never declare it passed
yourself. An `assert:` line is a test assertion: do nothing special for it and never construct or fake
a state to satisfy it; a failed assertion is a legitimate test result. Keep every check line when you
rewrite the plan (deleted or edited ones are restored); you may add new ones. Just mark subgoals done
as usual: checks run in the background and do not block you."""

_OPERATOR_FINDINGS = """\
Findings from independent checks are listed in the request: a finding means a subgoal reopened as `[/]`
is not really done yet. Repair it, then mark it `[x]` again."""

_OPERATOR_OUTPUT = 'Reply with JSON: {"decision": "<one line: what you do and why>", "actions": [...], ' \
    '"plan": null or "<the whole plan>"}.'


def operator_system(scenario: Scenario) -> str:
    """The operator's system prompt: the check explainer only when the plan holds check lines."""
    return join(
        _OPERATOR_ROLE,
        _OPERATOR_ACTIONS,
        render_grammar_spec(include_checks=scenario.checks_enabled),
        _OPERATOR_CHECK_EXPLAINER if scenario.plan_has_checks else "",
        _OPERATOR_FINDINGS if scenario.findings else "",
        _OPERATOR_OUTPUT,
    )
