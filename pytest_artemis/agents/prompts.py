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
    secrets: tuple[str, ...] = ()
    """The names of the secrets the test gives (the operator may have one typed; no value is ever shown)."""


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
Declared checks: the harness places the checks the test declares, by rule, whatever the plan says
(you need not copy them; a copy is moved to its place). A check that belongs to a subgoal ("belongs
to: …") goes under the first subgoal whose text contains those words: name that subgoal with them.
Any other check goes under the last subgoal and is judged when it is marked done, so what it states
must still hold then; an `@end` check is task-level, judged on the final state when the run ends.
Add your own `verify:` lines only for key milestones (an irreversible action completed, a result the
goal directly depends on), not for every subgoal. Prefer expectations that can be observed as
persistent state over transient ones (a toast disappears). Checks are verified after the fact: a
requirement such as "confirm A before doing B" is checked from the recorded history, it cannot block
the operator in advance."""

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


def check_label(item: CheckItem) -> str:
    """How a check is named wherever it is shown, as the plan writes it: ``verify``, ``assert@end``."""
    return f"{item.kind}@end" if item.when == "end" else item.kind


def _item_line(item: CheckItem) -> str:
    if item.subgoal_hint:
        where = f"belongs to: {item.subgoal_hint}"
    elif item.when == "end":
        where = "task level, judged when the run ends"
    else:
        where = "placed under the last subgoal"
    how = "; read from the device by a probe" if item.probe is not None else ""
    return f"- {check_label(item)}: {item.text}  ({where}{how})"


# -- operator ------------------------------------------------------------------------------------

_OPERATOR_ROLE = """\
You operate an Android device to reach the user's goal, one turn at a time. Each turn you see the
goal, the plan, recent steps and the current screen (an element list and a screenshot). Decide the
next actions and, when a subgoal is visibly done on the screen, mark it `[x]` by returning the whole
plan in `plan` (otherwise leave `plan` null)."""

_OPERATOR_ACTIONS = """\
Actions (JSON objects with a "kind"):
- {"kind": "tap", "element": N} or {"kind": "tap", "x": X, "y": Y}; "long_press" likewise
- {"kind": "type", "text": "...", "element": N, "clear": false}: types at the cursor of the focused
  field, as Android's `input text` does. After a tap the cursor is at the end of the field's text, so
  the text is added to what the field already holds. "element" (optional) is tapped first to focus it;
  "clear": true first empties the field (the cursor to its end, then one DEL per character it shows).
  Some fields replace a prefilled value with the first key typed (a time picker's hour): to replace a
  field's content, say "clear": true, and check the result on the next screen.
- {"kind": "swipe", "x1":..,"y1":..,"x2":..,"y2":..}; {"kind": "scroll", "direction": "up|down|left|right"}
- {"kind": "key", "key": "BACK|HOME|ENTER|DEL|APP_SWITCH|TAB|SPACE"}  (DEL deletes the character before
  the cursor)
- {"kind": "launch", "package": "com.example"}; {"kind": "wait", "ms": 1000}
- {"kind": "finish", "summary": "..."}: you believe the goal is reached. This is a claim: it ends your
  work and hands over to independent checks; it does not make the test pass.
- {"kind": "give_up", "reason": "..."}: the goal cannot be reached on this device (the app or setting it
  needs is not there, the device refuses it), and why. The run ends BLOCKED with your reason, with no
  repair rounds. Not for a screen you have not looked for yet (scroll, go back, open the app again).
Element numbers refer to the screen shown this turn. Element bounds and the x/y of actions are device
pixels. Prefer one or two actions per turn."""

_OPERATOR_CHECK_EXPLAINER = """\
About the check lines in the plan: a `verify:` line is the acceptance criterion of its subgoal; use it
to make sure the subgoal is really done, but an independent checker judges it: never declare it passed
yourself. An `assert:` line is a test assertion: do nothing special for it and never construct or fake
a state to satisfy it; a failed assertion is a legitimate test result. Keep every check line when you
rewrite the plan (deleted or edited ones are restored); you may add new ones. Just mark subgoals done
as usual: checks run in the background and do not block you."""

OPERATOR_FINDINGS = """\
A finding means a subgoal reopened as `[/]` is not really done yet. Repair it, then mark it `[x]` again."""
"""What a finding asks of the operator, said with the findings in the request (never in the system
prompt: the system prompt stays the same turn after turn, so providers can cache it)."""

_OPERATOR_OUTPUT = 'Reply with JSON: {"decision": "<one line: what you do and why>", "actions": [...], ' \
    '"plan": null or "<the whole plan>"}.'


_OPERATOR_SECRETS = """\
Secrets: the test gives values you never see, by name: {names}. To enter one (a password, a login), use
{{"kind": "type_secret", "name": "NAME", "element": N, "clear": false}}: the harness types the value into
element N (tapped first to focus it), like "type". Never type a secret's value yourself: you do not know
it. A field holding one reads [secret:NAME] and is blacked out in the screenshot."""


def operator_system(scenario: Scenario) -> str:
    """The operator's system prompt: the check explainer only when the plan holds check lines, the secrets
    section only when the test gives secrets."""
    secrets = _OPERATOR_SECRETS.format(names=", ".join(scenario.secrets)) if scenario.secrets else ""
    return join(
        _OPERATOR_ROLE,
        _OPERATOR_ACTIONS,
        secrets,
        render_grammar_spec(include_checks=scenario.checks_enabled),
        _OPERATOR_CHECK_EXPLAINER if scenario.plan_has_checks else "",
        _OPERATOR_OUTPUT,
    )
