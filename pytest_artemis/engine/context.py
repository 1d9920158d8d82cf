"""The operator's context, compiled afresh each turn from the run's records: its size stays bounded."""

from __future__ import annotations

from collections.abc import Sequence

from pytest_artemis.agents.prompts import OPERATOR_FINDINGS, Scenario, check_label, join, plan_has_checks
from pytest_artemis.agents.screen_facts import screenshot_scale
from pytest_artemis.contracts import ActionResult, StepRecord
from pytest_artemis.device.perception import Screen
from pytest_artemis.models import RequestContext

from .state import RunProgress, RunServices


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


def recent_history(svc: RunServices, run: RunProgress) -> tuple[str, ...]:
    """The last ``history_window`` step summaries, oldest first."""
    window = svc.config.history_window
    return tuple(step_summary(s) for s in run.steps[-window:]) if window else ()


def operator_scenario(svc: RunServices, run: RunProgress) -> Scenario:
    return Scenario(checks_enabled=svc.config.checks_enabled, plan_has_checks=plan_has_checks(run.plan_text),
                    secrets=svc.secrets.names if svc.secrets is not None else ())


def user_check_placement(svc: RunServices, run: RunProgress) -> str:
    """Where the test's own checks sit, by the documented rule (never the planner's choice)."""
    if not svc.config.checks_enabled or not svc.user_items:
        return ""
    lines = []
    for item in run.plan_items(svc.user_items):
        if item.origin != "user":
            continue
        subgoal = run.plan.subgoal(item.subgoal) if item.subgoal else None
        where = f"under '{subgoal.text}'" if subgoal else "task level"
        timing = "judged when that subgoal is marked done" if item.when == "complete" and subgoal else \
            "judged at the end of the run"
        lines.append(f"- {check_label(item)}: {item.text} — {where}, {timing}")
    rule = ("Checks declared by the test are placed by rule, not by the plan's author: under the subgoal the "
            "test names, else under the last subgoal (judged when it is done), or at task level for @end.")
    return rule + "\n" + "\n".join(lines) if lines else ""


def operator_context(
    svc: RunServices, run: RunProgress, screen: Screen, turn: int
) -> tuple[str, RequestContext]:
    """The request text and the typed context of one operator turn: what changes least comes first (the
    goal, the declared checks, the plan), the turn's own content last, so a provider's prompt cache
    reuses the longest prefix."""
    history = recent_history(svc, run)
    findings = "\n".join(f"- {f}" for f in run.findings.values())
    repair = "The final check found the goal not yet reached; repair what the findings name." \
        if run.turn_kind == "final_repair" else ""
    refused = [r for r in run.steps[-1].results if r.refused] if run.steps else []
    refusals = "Refused last turn (not run; choose something else):\n" + "\n".join(
        f"- {r.action.kind}: {r.detail}" for r in refused) if refused else ""
    view = screen.view
    text = join(
        f"Goal: {svc.spec.goal}",
        user_check_placement(svc, run),
        f"Plan:\n{run.plan_text}",
        f"Turn {turn} of at most {svc.max_steps}.",
        repair,
        refusals,
        f"Findings from checks:\n{findings}\n{OPERATOR_FINDINGS}" if findings else "",
        "Recent steps:\n" + "\n".join(history) if history else "",
        f"{screen.prompt_listing()}\n{screenshot_scale(view.width, view.height, svc.config.image_max_side)}",
    )
    context = RequestContext(goal=svc.spec.goal, plan=run.plan_text, screen=screen.view,
                             checks=run.plan_items(svc.user_items), history=history, turn=turn)
    return text, context
