"""The operator's context, compiled afresh each turn from the run's records: its size stays bounded."""

from __future__ import annotations

from collections.abc import Sequence

from pytest_artemis.agents.prompts import Scenario, join, plan_has_checks
from pytest_artemis.contracts import ActionResult, StepRecord
from pytest_artemis.device.perception import Screen
from pytest_artemis.models import RequestContext

from .state import RunState


def describe_results(results: Sequence[ActionResult]) -> str:
    """``tap … ok; type … refused: …`` — what the harness did, as evidence of the turn."""
    parts = []
    for result in results:
        word = "ok" if result.ok else ("refused" if result.refused else "failed")
        parts.append(f"{result.action.kind} {word}{': ' + result.detail if result.detail else ''}")
    return "; ".join(parts) or "no actions"


def step_summary(step: StepRecord) -> str:
    """One line per step: number, decision (a claim), results, completions and flags."""
    text = f"step {step.step}: {step.decision or '(no decision)'} -> {describe_results(step.results)}"
    if step.completed:
        text += f" [marked done: {len(step.completed)} subgoal(s)]"
    if step.flags:
        text += f" [{', '.join(step.flags)}]"
    if step.error:
        text += f" [error: {step.error}]"
    return text


def recent_history(state: RunState) -> tuple[str, ...]:
    """The last ``history_window`` step summaries, oldest first."""
    window = state.config.history_window
    return tuple(step_summary(s) for s in state.steps[-window:]) if window else ()


def operator_scenario(state: RunState) -> Scenario:
    return Scenario(
        checks_enabled=state.config.checks_enabled,
        plan_has_checks=plan_has_checks(state.plan_text),
        findings=bool(state.findings),
    )


def user_check_placement(state: RunState) -> str:
    """Where the test's own checks sit, by the documented rule (never the planner's choice)."""
    if not state.config.checks_enabled or not state.user_items:
        return ""
    lines = []
    for item in state.plan_items():
        if item.origin != "user":
            continue
        subgoal = state.plan.subgoal(item.subgoal) if item.subgoal else None
        where = f"under '{subgoal.text}'" if subgoal else "task level"
        timing = "judged when that subgoal is marked done" if item.when == "complete" and subgoal else \
            "judged at the end of the run"
        lines.append(f"- {item.kind}: {item.text} — {where}, {timing}")
    rule = ("Checks declared by the test are placed by rule, not by the plan's author: under the subgoal the "
            "test names, else under the last subgoal (judged when it is done), or at task level for @end.")
    return rule + "\n" + "\n".join(lines) if lines else ""


def operator_context(state: RunState, screen: Screen, turn: int) -> tuple[str, RequestContext]:
    """The request text and the typed context of one operator turn."""
    history = recent_history(state)
    findings = "\n".join(f"- {f}" for f in state.findings.values())
    repair = "The final check found the goal not yet reached; repair what the findings name." \
        if state.turn_kind == "final_repair" else ""
    refused = [r for r in state.steps[-1].results if r.refused] if state.steps else []
    refusals = "Refused last turn (not run; choose something else):\n" + "\n".join(
        f"- {r.action.kind}: {r.detail}" for r in refused) if refused else ""
    text = join(
        f"Goal: {state.spec.goal}",
        f"Turn {turn} of at most {state.max_steps}.",
        f"Plan:\n{state.plan_text}",
        repair,
        refusals,
        user_check_placement(state),
        f"Findings from checks:\n{findings}" if findings else "",
        "Recent steps:\n" + "\n".join(history) if history else "",
        f"Current screen:\n{screen.prompt_listing()}",
    )
    context = RequestContext(goal=state.spec.goal, plan=state.plan_text, screen=screen.view,
                             checks=state.plan_items(), history=history, turn=turn)
    return text, context
