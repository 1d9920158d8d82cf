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


def operator_context(state: RunState, screen: Screen, turn: int) -> tuple[str, RequestContext]:
    """The request text and the typed context of one operator turn."""
    history = recent_history(state)
    findings = "\n".join(f"- {f}" for f in state.findings.values())
    repair = "The final check found the goal not yet reached; repair what the findings name." \
        if state.turn_kind == "final_repair" else ""
    text = join(
        f"Goal: {state.spec.goal}",
        f"Turn {turn} of at most {state.max_steps}.",
        f"Plan:\n{state.plan_text}",
        repair,
        f"Findings from checks:\n{findings}" if findings else "",
        "Recent steps:\n" + "\n".join(history) if history else "",
        f"Current screen:\n{screen.prompt_listing()}",
    )
    context = RequestContext(goal=state.spec.goal, plan=state.plan_text, screen=screen.view,
                             checks=state.plan_items(), history=history, turn=turn)
    return text, context
