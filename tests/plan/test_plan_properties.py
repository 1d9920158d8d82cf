"""Property-based tests of the plan grammar and the guard (hypothesis)."""

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_artemis.contracts import CheckItem
from pytest_artemis.plan import (
    Plan,
    PlanCheck,
    Subgoal,
    guard_operator_write,
    guard_planner_write,
    new_completions,
    normalize_text,
    parse_plan,
    place_checks,
    render_plan,
)

PROPERTY = settings(max_examples=150, deadline=None)

_chars = st.characters(blacklist_categories=("Cs",))
free_text = st.text(_chars, min_size=1, max_size=30).map(normalize_text).filter(bool)
# Small pools make subgoals and checks collide across the plans a property compares.
pool_text = st.sampled_from(
    ["Open Clock", "Add alarm", "Save", "Go home", "Wi-Fi on", "Toast shown", "No crash"]
)


def checks_from(texts: st.SearchStrategy[str]) -> st.SearchStrategy[PlanCheck]:
    return st.builds(
        PlanCheck,
        kind=st.sampled_from(["verify", "assert"]),
        when=st.sampled_from(["complete", "end"]),
        text=texts,
    )


def plans_from(texts: st.SearchStrategy[str], max_subgoals: int = 5) -> st.SearchStrategy[Plan]:
    subgoal = st.builds(
        Subgoal,
        text=texts,
        status=st.sampled_from(["todo", "reopened", "done"]),
        checks=st.lists(checks_from(texts), max_size=3).map(tuple),
    )
    return st.builds(
        Plan,
        subgoals=st.lists(subgoal, max_size=max_subgoals, unique_by=lambda s: s.key).map(tuple),
        task_checks=st.lists(checks_from(texts), max_size=3).map(tuple),
    )


any_plan = plans_from(free_text)
pool_plan = plans_from(pool_text)


def items_from(texts: st.SearchStrategy[str]) -> st.SearchStrategy[list[CheckItem]]:
    item = st.builds(
        CheckItem,
        kind=st.sampled_from(["verify", "assert"]),
        when=st.sampled_from(["complete", "end"]),
        text=texts,
        subgoal_hint=st.none() | pool_text | st.sampled_from(["alarm", "clock", "nothing like it"]),
    )
    return st.lists(item, max_size=4)


def with_checks_of(plan: Plan, donor: Plan) -> Plan:
    """``plan``'s subgoals and statuses decorated with ``donor``'s check lines (cycled over subgoals)."""
    donated = [c for s in donor.subgoals for c in s.checks] + list(donor.task_checks)
    subgoals = tuple(
        Subgoal(text=s.text, status=s.status, checks=tuple(donated[i::2]))
        for i, s in enumerate(plan.subgoals)
    )
    return Plan(subgoals=subgoals, task_checks=tuple(donated[1::3]))


@PROPERTY
@given(any_plan)
def test_parse_of_render_is_the_plan(plan):
    assert parse_plan(render_plan(plan)) == plan


@PROPERTY
@given(any_plan)
def test_render_of_parse_is_identity_on_canonical_text(plan):
    canonical = render_plan(plan)
    assert render_plan(parse_plan(canonical)) == canonical


@PROPERTY
@given(any_plan, any_plan, any_plan)
def test_check_lines_never_change_keys_or_completion_detection(before, after, donor):
    bare_before, bare_after = before.without_checks(), after.without_checks()
    decorated_before, decorated_after = with_checks_of(before, donor), with_checks_of(after, donor)
    assert parse_plan(render_plan(decorated_after)).keys == bare_after.keys
    expected = new_completions(bare_before, bare_after)
    assert new_completions(decorated_before, decorated_after) == expected
    assert new_completions(render_plan(decorated_before), render_plan(bare_after)) == expected


def _lines(plan: Plan) -> Counter:
    return Counter(plan.check_lines())


def _said(plan: Plan) -> Counter:
    """What the plan's check lines say, wherever they sit (user checks are moved to their rule place)."""
    return Counter((c.kind, c.when, c.text) for c in plan.check_lines())


@PROPERTY
@given(pool_plan, pool_plan, items_from(pool_text))
def test_operator_guard_is_idempotent_keeps_additions_and_loses_no_line(current, proposed, protected):
    result = guard_operator_write(current, proposed, protected=protected)
    again = guard_operator_write(current, result.plan, protected=protected)
    assert again.plan == result.plan and again.restored == ()
    assert result.plan.without_checks() == proposed.without_checks()  # subgoals and statuses as proposed
    assert not _said(proposed) - _said(result.plan)  # every addition kept (user checks maybe moved)
    result_keys = set(result.plan.keys)
    sigs = Counter((c.kind, c.text) for c in result.plan.check_lines())
    user = {(i.kind, i.when, " ".join(i.text.split())) for i in protected}
    for line in current.check_lines():
        placed_by_rule = (line.kind, line.when, line.text) in user
        if (line.subgoal is None or line.subgoal in result_keys) and not placed_by_rule:
            assert line in _lines(result.plan)
        assert sigs[(line.kind, line.text)] > 0


@PROPERTY
@given(pool_plan, pool_plan, items_from(pool_text), items_from(pool_text))
def test_planner_guard_is_idempotent_and_keeps_every_user_item(current, proposed, user, planner):
    planner = [i.model_copy(update={"origin": "planner"}) for i in planner]
    result = guard_planner_write(current, proposed, user_checks=user, planner_checks=planner)
    again = guard_planner_write(current, result.plan, user_checks=user, planner_checks=planner)
    assert again.plan == result.plan and again.restored == ()
    present = {(c.kind, c.when, c.text) for c in result.plan.check_lines()}
    assert all((i.kind, i.when, i.text) in present for i in user)


@PROPERTY
@given(pool_plan, items_from(pool_text))
def test_place_checks_is_idempotent_and_never_touches_subgoals(plan, items):
    placed = place_checks(plan, items)
    assert place_checks(placed, items) == placed
    assert placed.without_checks() == plan.without_checks()
    assert not _said(plan) - _said(placed)


def _messy(plan: Plan, data: st.DataObject) -> str:
    """``plan`` written with arbitrary bullets, indent widths, tabs, keyword case and stray prose."""
    lines = []
    for subgoal in plan.subgoals:
        bullet = data.draw(st.sampled_from(["-", "*", "+", "1."]))
        mark = {"todo": data.draw(st.sampled_from([" ", ""])), "reopened": "/", "done": "x"}[subgoal.status]
        lines.append(f"{bullet} [{mark}]  {subgoal.text}")
        for check in subgoal.checks:
            indent = data.draw(st.sampled_from(["  ", "    ", "\t", "      "]))
            kind = data.draw(st.sampled_from([check.kind, check.kind.upper(), check.kind.title()]))
            suffix = "@END" if check.when == "end" else data.draw(st.sampled_from(["", "@complete"]))
            lines.append(f"{indent}{data.draw(st.sampled_from(['-', '*']))} {kind}{suffix} :  {check.text}")
        if data.draw(st.booleans()):
            lines.append("Some prose the model wrote in between.")
    for check in plan.task_checks:
        lines.append(f"* {check.kind}{'@end' if check.when == 'end' else ''}: {check.text}")
    return "\r\n".join(lines)


@PROPERTY
@given(any_plan, st.data())
def test_layout_variations_parse_to_the_same_plan(plan, data):
    assert parse_plan(_messy(plan, data)) == plan
