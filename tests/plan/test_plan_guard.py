"""The deterministic check-line guard and check placement."""

from pytest_artemis.contracts import CheckItem
from pytest_artemis.plan import (
    CheckLine,
    check_items_changed,
    guard_operator_write,
    guard_planner_write,
    new_completions,
    parse_plan,
    place_checks,
    plan_check_items,
    render_plan,
    subgoal_key,
)

CURRENT = parse_plan(
    "- [ ] Open Clock\n"
    "  - verify: Clock is in the foreground\n"
    "- [ ] Create a 7:30 AM alarm\n"
    "  - verify: The list shows 7:30 AM\n"
    "  - assert: A toast confirms the alarm\n"
    "- assert@end: No crash dialog\n"
)


def test_operator_write_that_drops_and_edits_checks_gets_them_merged_back():
    proposed = parse_plan(
        "- [x] Open Clock\n"
        "- [ ] Create a 7:30 AM alarm\n"
        "  - verify@end: The list shows 7:30 AM\n"  # weakened timing: an edit
        "  - assert: A toast shows\n"  # reworded: an edit
        "  - verify: The switch is on\n"  # an addition
    )
    result = guard_operator_write(CURRENT, proposed)
    assert render_plan(result.plan) == (
        "- [x] Open Clock\n"
        "  - verify: Clock is in the foreground\n"
        "- [ ] Create a 7:30 AM alarm\n"
        "  - verify@end: The list shows 7:30 AM\n"
        "  - assert: A toast shows\n"
        "  - verify: The switch is on\n"
        "  - verify: The list shows 7:30 AM\n"
        "  - assert: A toast confirms the alarm\n"
        "- assert@end: No crash dialog\n"
    )
    assert len(result.restored) == 4 and result.changed
    assert new_completions(CURRENT, result.plan) == (subgoal_key("Open Clock"),)


def test_operator_write_without_check_changes_restores_nothing():
    proposed = CURRENT.with_status(subgoal_key("Open Clock"), "done")
    result = guard_operator_write(CURRENT, proposed)
    assert result.plan == proposed and result.restored == () and not result.changed


def test_checks_of_a_deleted_subgoal_become_task_level_end_items():
    proposed = parse_plan(
        "- [ ] Create a 7:30 AM alarm\n"
        "  - verify: The list shows 7:30 AM\n"
        "  - assert: A toast confirms the alarm\n"
    )
    result = guard_operator_write(CURRENT, proposed)
    assert result.restored == (
        CheckLine(subgoal=None, kind="verify", when="end", text="Clock is in the foreground"),
        CheckLine(subgoal=None, kind="assert", when="end", text="No crash dialog"),
    )
    again = guard_operator_write(CURRENT, result.plan)
    assert again.plan == result.plan and again.restored == ()


def test_checks_that_moved_along_with_a_reworded_subgoal_are_kept_in_place():
    proposed = parse_plan(
        "- [ ] Open the Clock app\n"
        "  - verify: Clock is in the foreground\n"
        "- [ ] Create a 7:30 AM alarm\n"
        "  - verify: The list shows 7:30 AM\n"
        "  - assert: A toast confirms the alarm\n"
        "- assert@end: No crash dialog\n"
    )
    result = guard_operator_write(CURRENT, proposed)
    assert result.plan == proposed and result.restored == ()


def test_operator_guard_also_places_protected_user_items():
    user = CheckItem(kind="assert", text="Alarm survives a reboot", when="end")
    result = guard_operator_write(CURRENT, CURRENT, protected=[user])
    assert result.restored == (
        CheckLine(subgoal=None, kind="assert", when="end", text="Alarm survives a reboot"),
    )
    assert guard_operator_write(CURRENT, result.plan, protected=[user]).restored == ()


def test_planner_may_revise_its_own_checks_but_not_user_or_operator_ones():
    current = parse_plan(
        "- [ ] Open Clock\n"
        "  - verify: Clock is in the foreground\n"  # planner's
        "  - assert: Operator noticed a banner\n"  # operator-added
        "- [ ] Create a 7:30 AM alarm\n"
        "  - verify: The list shows 7:30 AM\n"  # user's (hint: alarm)
    )
    user = [CheckItem(kind="verify", text="The list shows 7:30 AM", subgoal_hint="alarm")]
    planner = [CheckItem(kind="verify", text="Clock is in the foreground", origin="planner")]
    proposed = parse_plan(
        "- [ ] Launch Clock\n  - verify: Clock shows its alarm tab\n- [ ] Add the 7:30 AM alarm\n"
    )
    result = guard_planner_write(current, proposed, user_checks=user, planner_checks=planner)
    assert render_plan(result.plan) == (
        "- [ ] Launch Clock\n"
        "  - verify: Clock shows its alarm tab\n"
        "- [ ] Add the 7:30 AM alarm\n"
        "  - verify: The list shows 7:30 AM\n"
        "- assert@end: Operator noticed a banner\n"
    )
    again = guard_planner_write(current, result.plan, user_checks=user, planner_checks=planner)
    assert again.plan == result.plan and again.restored == ()


def test_planner_cannot_weaken_a_user_check():
    current = parse_plan("- [ ] Save alarm\n  - assert: Toast says Alarm set\n")
    user = [CheckItem(kind="assert", text="Toast says Alarm set")]
    proposed = parse_plan("- [ ] Save alarm\n  - verify@end: Toast says Alarm set\n")
    result = guard_planner_write(current, proposed, user_checks=user, planner_checks=[])
    assert parse_plan(render_plan(result.plan)).subgoals[0].checks[-1].kind == "assert"
    assert check_items_changed(proposed, result.plan)


def test_place_checks_by_the_documented_rule_whatever_the_planner_wrote():
    plan = parse_plan(
        "- [ ] Open Settings\n- [ ] Turn Wi-Fi on\n  - verify: planner put this here\n- [ ] Go home\n"
    )
    items = [
        CheckItem(kind="verify", text="Wi-Fi toggle is on", subgoal_hint="turn wi-fi ON"),  # equality
        CheckItem(kind="assert", text="Settings opened", subgoal_hint="settings"),  # substring
        CheckItem(kind="verify", text="planner put this here"),  # the planner's place does not count
        CheckItem(kind="verify", text="Home screen visible"),  # complete -> last subgoal
        CheckItem(kind="assert", text="No crash", when="end"),  # end -> task level
        CheckItem(kind="verify", text="No match hint", subgoal_hint="bluetooth"),  # bad hint -> default
    ]
    placed = place_checks(plan, items)
    assert render_plan(placed) == (
        "- [ ] Open Settings\n"
        "  - assert: Settings opened\n"
        "- [ ] Turn Wi-Fi on\n"
        "  - verify: Wi-Fi toggle is on\n"
        "- [ ] Go home\n"
        "  - verify: planner put this here\n"
        "  - verify: Home screen visible\n"
        "  - verify: No match hint\n"
        "- assert@end: No crash\n"
    )
    assert place_checks(placed, items) == placed
    assert [s.key for s in placed.subgoals] == [s.key for s in plan.subgoals]


def test_place_checks_prefers_exact_hint_and_handles_a_plan_without_subgoals():
    plan = parse_plan("- [ ] Open the alarm list and check it\n- [ ] Alarm list\n")
    item = CheckItem(kind="verify", text="7:30 listed", subgoal_hint="alarm list")
    assert place_checks(plan, [item]).subgoals[1].checks[0].text == "7:30 listed"
    empty = place_checks(parse_plan(""), [item])
    assert empty.task_checks[0].text == "7:30 listed" and empty.task_checks[0].when == "complete"


def test_place_checks_moves_an_end_item_the_planner_nested():
    plan = parse_plan("- [ ] Save\n  - assert@end: No crash\n- [ ] Done\n")
    item = CheckItem(kind="assert", text="No crash", when="end")
    placed = place_checks(plan, [item])
    assert render_plan(placed) == "- [ ] Save\n- [ ] Done\n- assert@end: No crash\n"


def test_plan_check_items_keep_user_identity_and_owner_keys():
    user = CheckItem(kind="verify", text="The  list shows 7:30 AM", subgoal_hint="alarm")
    items = plan_check_items(CURRENT, known=[user])
    by_text = {i.text: i for i in items}
    assert by_text["The  list shows 7:30 AM"].key == user.key  # verbatim user text, same identity
    assert by_text["The  list shows 7:30 AM"].origin == "user"
    assert by_text["The  list shows 7:30 AM"].subgoal == subgoal_key("Create a 7:30 AM alarm")
    assert by_text["Clock is in the foreground"].origin == "planner"
    assert by_text["No crash dialog"].subgoal is None
