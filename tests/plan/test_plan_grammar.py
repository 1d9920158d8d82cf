"""Plan grammar: parsing (lenient layout, strict meaning), rendering, keys, completions, check diffs."""

import re

import pytest

from pytest_artemis.plan import (
    Plan,
    PlanCheck,
    PlanSyntaxError,
    Subgoal,
    check_items_changed,
    new_completions,
    parse_plan,
    render_grammar_spec,
    render_plan,
    subgoal_key,
)

CANONICAL = """\
- [ ] Open the Clock app and create a 7:30 AM alarm
  - verify: The alarm list shows 7:30 AM and its switch is on
  - assert: A confirmation toast appears right after saving
- [x] Open the Settings app
- [/] Turn Wi-Fi on
  - verify@end: Wi-Fi stays on
- assert@end: No 'app has stopped' dialog appears at any time
"""


def test_design_example_parses_into_subgoals_and_checks():
    plan = parse_plan(CANONICAL)
    assert [s.text for s in plan.subgoals] == [
        "Open the Clock app and create a 7:30 AM alarm",
        "Open the Settings app",
        "Turn Wi-Fi on",
    ]
    assert [s.status for s in plan.subgoals] == ["todo", "done", "reopened"]
    assert plan.subgoals[0].checks == (
        PlanCheck(kind="verify", when="complete", text="The alarm list shows 7:30 AM and its switch is on"),
        PlanCheck(kind="assert", when="complete", text="A confirmation toast appears right after saving"),
    )
    assert plan.subgoals[2].checks == (PlanCheck(kind="verify", when="end", text="Wi-Fi stays on"),)
    assert plan.task_checks == (
        PlanCheck(kind="assert", when="end", text="No 'app has stopped' dialog appears at any time"),
    )
    assert render_plan(plan) == CANONICAL


def test_layout_is_lenient_stars_tabs_wide_indents_case_prose_and_fences():
    messy = (
        "# My plan\n\n```markdown\n"
        "*   [ ]   Open the Clock   app\n"
        "\t\t* VERIFY:   the clock is open\n"
        "Some commentary the model added.\n"
        "+ [X] Second step\r\n"
        "      - Assert@End: nothing crashed\n"
        "1. [/] Third step\n"
        "verify @ complete : task level line without bullet\n"
        "```\n"
    )
    plan = parse_plan(messy)
    assert render_plan(plan) == (
        "- [ ] Open the Clock app\n"
        "  - verify: the clock is open\n"
        "- [x] Second step\n"
        "  - assert@end: nothing crashed\n"
        "- [/] Third step\n"
        "- verify: task level line without bullet\n"
    )


def test_check_line_not_indented_deeper_than_its_subgoal_is_task_level():
    plan = parse_plan(
        "  - [ ] Indented subgoal\n  - verify: same indent as the subgoal\n    - assert: deeper\n"
    )
    assert plan.subgoals[0].checks == (PlanCheck(kind="assert", text="deeper"),)
    assert plan.task_checks == (PlanCheck(kind="verify", text="same indent as the subgoal"),)


def test_indented_check_before_any_subgoal_is_task_level():
    plan = parse_plan("  - verify: before any subgoal\n- [ ] First\n")
    assert plan.task_checks == (PlanCheck(kind="verify", text="before any subgoal"),)
    assert plan.subgoals[0].checks == ()


def test_nested_checkboxes_are_flattened_and_checks_go_to_the_nearest_shallower_subgoal():
    plan = parse_plan("- [ ] Parent\n  - [x] Child\n    - verify: child check\n  - verify: also child's\n")
    assert [(s.text, s.status) for s in plan.subgoals] == [("Parent", "todo"), ("Child", "done")]
    assert [c.text for c in plan.subgoals[1].checks] == ["child check"]
    assert [c.text for c in plan.subgoals[0].checks] == ["also child's"]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("- [~] Unknown mark\n", "unknown checkbox mark"),
        ("- [ ]   \n", "subgoal without text"),
        ("- [ ] A\n  - verify@later: when?\n", "unknown check timing"),
        ("- [ ] A\n  - verify@: no timing\n", "unknown check timing"),
        ("- [ ] A\n  - assert:   \n", "check line without text"),
        ("- [ ] Same\n- [x] same \n- [ ]  Same\n", "duplicate of the subgoal on line 1"),
    ],
)
def test_meaning_errors_raise_with_the_line_number(text, problem):
    with pytest.raises(PlanSyntaxError, match=problem) as info:
        parse_plan(text)
    assert info.value.line_no == text.count("\n")
    assert f"plan line {info.value.line_no}" in str(info.value)


def test_prose_and_links_are_not_mistaken_for_plan_lines():
    plan = parse_plan("- [link](http://x) is prose\n- verifying things is prose\n- [ ] Real\n")
    assert [s.text for s in plan.subgoals] == ["Real"]
    assert plan.task_checks == ()


def test_subgoal_key_is_hash_of_normalised_own_text_only():
    plain = parse_plan("- [ ] Open   the app\n").subgoals[0]
    decorated = parse_plan("- [x] Open the app\n  - verify: x\n  - assert@end: y\n").subgoals[0]
    assert plain.key == decorated.key == subgoal_key("Open the app")
    assert re.fullmatch(r"[0-9a-f]{12}", plain.key)
    assert plain.key != subgoal_key("Open the app.")


def test_new_completions_are_keys_done_after_but_not_before():
    before = parse_plan("- [x] A\n- [ ] B\n- [/] C\n")
    after = parse_plan("- [x] A\n- [x] B\n- [x] C\n- [x] D\n- [ ] E\n")
    keys = new_completions(before, after)
    assert keys == tuple(subgoal_key(t) for t in "BCD")
    assert new_completions(after, after) == ()
    assert new_completions(render_plan(before), render_plan(after)) == keys


def test_check_items_changed_compares_multisets_of_owned_lines():
    base = parse_plan("- [ ] A\n  - verify: v\n- [ ] B\n- assert@end: t\n")
    reordered = parse_plan("- [ ] B\n- [x] A\n  - verify: v\n- assert@end: t\n")
    moved = parse_plan("- [ ] A\n- [ ] B\n  - verify: v\n- assert@end: t\n")
    retimed = parse_plan("- [ ] A\n  - verify@end: v\n- [ ] B\n- assert@end: t\n")
    doubled = parse_plan("- [ ] A\n  - verify: v\n  - verify: v\n- [ ] B\n- assert@end: t\n")
    assert not check_items_changed(base, reordered)
    assert check_items_changed(base, moved)
    assert check_items_changed(base, retimed)
    assert check_items_changed(base, doubled)


def test_plan_helpers_subgoal_lookup_and_with_status():
    plan = parse_plan(CANONICAL)
    key = subgoal_key("Turn Wi-Fi on")
    assert plan.subgoal(key).status == "reopened"
    assert plan.subgoal("000000000000") is None
    done = plan.with_status(key, "done")
    assert done.subgoal(key).status == "done"
    assert done.subgoal(key).checks == plan.subgoal(key).checks
    assert plan.subgoal(key).status == "reopened"  # plans are immutable values
    with pytest.raises(KeyError):
        plan.with_status("000000000000", "done")
    assert not plan.all_done and Plan().all_done is False


def test_duplicate_subgoals_are_refused_by_the_model_too():
    with pytest.raises(ValueError, match="duplicate subgoal"):
        Plan(subgoals=(Subgoal(text="A"), Subgoal(text=" A ")))


def test_grammar_spec_without_checks_has_no_check_syntax():
    spec = render_grammar_spec(include_checks=False)
    for word in ("verify", "assert", "@end"):
        assert word not in spec.lower()
    assert "[x]" in spec and "[/]" in spec


def test_grammar_spec_with_checks_explains_the_check_lines_and_its_examples_parse():
    spec = render_grammar_spec(include_checks=True)
    assert spec.startswith(render_grammar_spec(include_checks=False))
    for word in ("verify:", "assert:", "@end"):
        assert word in spec
    example = parse_plan(spec)
    assert example.task_checks[0].text == "No 'app has stopped' dialog appears at any time"
