"""Agents: the planner's and operator's prompts carry no dead instructions (the checker's contract is tested
in tests/checking)."""

from __future__ import annotations

from pytest_artemis.agents.prompts import Scenario, operator_system, planner_system

CHECK_SYNTAX = ("verify:", "assert:", "@end", "verify", "assert")


def test_prompts_without_checks_mention_no_check_syntax():
    off = Scenario(checks_enabled=False)
    for prompt in (planner_system(off), operator_system(off)):
        assert not any(word in prompt for word in CHECK_SYNTAX), prompt
    on = Scenario(checks_enabled=True, plan_has_checks=True)
    assert "verify:" in planner_system(on) and "independent checker" in operator_system(on)
    # the explainer follows the plan's content, not the switches
    assert "independent checker" not in operator_system(Scenario(checks_enabled=True))
