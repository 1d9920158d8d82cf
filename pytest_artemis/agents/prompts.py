"""Prompt components assembled per (configuration × scenario): no section for a mechanism that is off."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pytest_artemis.contracts import CheckItem
from pytest_artemis.device.probe_table import ProbeTable
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


# -- checker -------------------------------------------------------------------------------------

_CHECKER_BASE = """\
You are an independent checker of an automated Android test. Judge each listed item from evidence
only: the operator's own words ("done", summaries) are claims, never evidence. For each item return
its text verbatim, a status, a short `evidence` sentence and a `citation` of what you relied on. Use
"inconclusive" when the evidence was never collected or does not decide the item; say so in the
evidence. "failed" needs a concrete observation that contradicts the item. A "passed" or "failed" whose
evidence hedges ("probably", "appears to", "should be", "cannot confirm"), or a "passed" whose evidence
says the item does not hold, is recorded as inconclusive: when you are not sure, say "inconclusive"."""

_CHECKER_CITATIONS = """\
Citations are checked by code against what the harness recorded; a "passed" or "failed" verdict whose
citation is missing or not found there is recorded as inconclusive. Cite a recorded screen by `step`
and `screen` ("pre" = before that step's actions, "post" = after them, "final" = the final screen,
no step needed) and then one of:
- `quote`: text shown on that screen (as listed under "Recorded screens"), e.g. "Alarm set for 7:30 AM";
- `element`: its [index] in that screen's listing, with the `attribute` you rely on ("checked=true",
  "text=7:30 AM") or a `quote` of its text;
- `probe`: the kind of a probe you ran in this judgement, with a `quote` of its output;
- `visual`: true, only for items marked "visual judgement accepted" (a colour, an image).
Text the operator typed into an input field is its own input: it cannot show a pass. Nor can words
taken from a text that says the opposite ("Alarm set" from "No alarm set", "Wi-Fi" from "Wi-Fi off").
A "passed" for an item that quotes text ("The list shows 'Display'") cites that text: the element or
quote you cite, or its row, shows one of the item's quotes (a probe: the output you quote, or its line).
An item about an absence ("No 'keeps stopping' dialog appears") passes only on a screen without it."""

_CHECKER_VERIFY = """\
`verify` items are completion criteria: "failed" reopens the subgoal for repair, so add a short
`suggestion` saying what is missing."""

_CHECKER_ASSERT = """\
`assert` items are test assertions: a failure is a test result and is never repaired. Missing
evidence is "inconclusive", not "failed"."""

_CHECKER_ANCHOR = """\
You judge at a checkpoint: the items belong to a subgoal that was marked done at the anchor step.
Judge from the recorded history up to that step (its screens before and after, the step before, the
decisions and action results); steps after the anchor are not served and cannot be cited. Transient
and ordering expectations must be judged from those steps. The device has moved on since: its current
screen is not evidence here. A "passed" cites the anchor step or the step before it; an older screen
counts only when what it cites still shows at the anchor step, and an element's state (a switch, a
checkbox) only when the same element does not show otherwise after the anchor step's actions."""

_CHECKER_ANCHOR_PROBES = """\
A probe reads the device as it is when the probe runs: at a checkpoint it counts only when no step
after the anchor had begun to act by then (the harness checks)."""

_CHECKER_FINAL = """\
You judge at the end of the run, against the user's original goal (not the plan's wording). `@end`
items and the goal are judged on the final state (the current screen is attached): a "passed" cites
the final screen, a probe run now, or an earlier screen whose cited text still shows at the end. Also
list in `unmet_subgoals`, verbatim, every plan subgoal that the final state shows is not actually
achieved for the goal."""

_CHECKER_HELD = """\
Items marked "judged at step N" belong to a subgoal marked done at step N: judge them as at a checkpoint,
from the recorded history up to that step (its screens before and after, the step before), not from the
final state. A "passed" for one cites step N or the step before it (an older screen only when what it
cites still shows at step N, an element's state only when the same element does not show otherwise
after step N's actions). The final screen and later steps are not evidence for it; a probe run now counts
only if no step after step N had begun to act (the harness checks)."""

_CHECKER_GOAL = """\
The `goal` item is the user's original goal itself: "passed" only when the recorded evidence shows it
reached (cite it), "failed" when the evidence shows it is not. The operator's ticks and its "finish"
claim are not evidence, nor is a state the same element already showed before the agent first acted."""

_CHECKER_PROBES = """\
Probes read persistent device state and are the strongest evidence for it; a probe whose output could
not be read (an error message) shows nothing. Request one with
{"tool": "probe_device", "probe": {"kind": KIND, "params": {...}}}. Kinds: """

_CHECKER_OUTPUT = """\
Reply with JSON: {"verdicts": [{"item": "<verbatim>", "status": "passed|failed|inconclusive",
"evidence": "...", "suggestion": "", "citation": {"step": 4, "screen": "post", "quote": "...",
"element": null, "attribute": "", "probe": "", "visual": false}}], "requests": [], "unmet_subgoals": []}.
Give one verdict per item. To look at more evidence first, reply with only "requests" (see the tools)
and no verdicts."""


def _probe_kinds(table: ProbeTable) -> str:
    return "; ".join(f"{k.name}({', '.join(sorted(k.params))}): {k.description}" for k in table)


def checker_system(
    items: Sequence[CheckItem], *, entry: str, tool_docs: Sequence[str], probes: ProbeTable | None,
    held: bool = False,
) -> str:
    """The checker's system prompt for one entry, assembled from the items it judges and its tools;
    ``probes`` is the session's probe table (listed kind by kind), None when probing is off; ``held``:
    some items are judged at their checkpoint's anchor step (a final entry judging a held checkpoint)."""
    kinds = {item.kind for item in items}
    tools = "Tools (read-only):\n" + "\n".join(f"- {doc}" for doc in tool_docs) if tool_docs else ""
    return join(
        _CHECKER_BASE,
        _CHECKER_CITATIONS,
        _CHECKER_VERIFY if "verify" in kinds else "",
        _CHECKER_ASSERT if "assert" in kinds else "",
        _CHECKER_ANCHOR if entry == "checkpoint" else _CHECKER_FINAL,
        _CHECKER_HELD if held else "",
        _CHECKER_GOAL if "goal" in kinds else "",
        _CHECKER_PROBES + _probe_kinds(probes) if probes is not None else "",
        _CHECKER_ANCHOR_PROBES if probes is not None and entry == "checkpoint" else "",
        tools,
        _CHECKER_OUTPUT,
    )
