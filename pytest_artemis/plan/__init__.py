"""The task plan: markdown grammar (``grammar``) and the deterministic check-line guard (``guard``)."""

from .grammar import (
    CheckLine,
    Plan,
    PlanCheck,
    PlanSyntaxError,
    Subgoal,
    SubgoalStatus,
    check_items_changed,
    new_completions,
    normalize_text,
    parse_plan,
    render_grammar_spec,
    render_plan,
    subgoal_key,
)
from .guard import GuardResult, guard_operator_write, guard_planner_write, place_checks, plan_check_items

__all__ = [
    "CheckLine",
    "GuardResult",
    "Plan",
    "PlanCheck",
    "PlanSyntaxError",
    "Subgoal",
    "SubgoalStatus",
    "check_items_changed",
    "guard_operator_write",
    "guard_planner_write",
    "new_completions",
    "normalize_text",
    "parse_plan",
    "place_checks",
    "plan_check_items",
    "render_grammar_spec",
    "render_plan",
    "subgoal_key",
]
