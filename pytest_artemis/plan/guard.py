"""The deterministic check-line guard: plan writes may add checks but never lose them.

* ``guard_operator_write``: every check line of the current plan that the operator's write dropped or
  edited is merged back — under the same subgoal if that subgoal still exists, else as a task-level
  ``@end`` line (a line that moved along with a reworded subgoal counts as kept). Additions are kept.
* ``guard_planner_write``: the planner may revise or remove lines it generated itself; every other line
  is restored as above, and the user's marker checks are placed again (``place_checks``).
* ``place_checks``: put every given (user) item in the plan at the place the documented rule gives it.

Every function is idempotent: guarding the guarded plan again restores nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence

from pytest_artemis.contracts import CheckItem, CheckOrigin
from pytest_artemis.contracts._base import Contract

from .grammar import CheckLine, Plan, PlanCheck, Subgoal, normalize_text

_Sig = tuple[str, str, str]
"""(kind, when, normalised text): what a check says, regardless of where it sits."""


class GuardResult(Contract):
    """The guarded plan and the check lines the guard had to add (as placed in ``plan``)."""

    plan: Plan
    restored: tuple[CheckLine, ...] = ()

    @property
    def changed(self) -> bool:
        return bool(self.restored)


def _sig(line: CheckLine | CheckItem | PlanCheck) -> _Sig:
    return (line.kind, line.when, normalize_text(line.text))


def _with_lines(plan: Plan, lines: Iterable[CheckLine]) -> Plan:
    """``plan`` with ``lines`` appended under their subgoal (or task-level when ``subgoal`` is None)."""
    extra: dict[str | None, list[PlanCheck]] = {}
    for line in lines:
        extra.setdefault(line.subgoal, []).append(line.check)
    if not extra:
        return plan
    subgoals = tuple(
        Subgoal(text=s.text, status=s.status, checks=s.checks + tuple(extra.get(s.key, ())))
        for s in plan.subgoals
    )
    return Plan(subgoals=subgoals, task_checks=plan.task_checks + tuple(extra.get(None, ())))


def _restore(current: Plan, proposed: Plan, protect: Callable[[CheckLine], bool]) -> GuardResult:
    """Merge back every protected line of ``current`` that ``proposed`` lacks (multiset semantics)."""
    kept = Counter(proposed.check_lines())
    proposed_keys = set(proposed.keys)
    orphans: list[tuple[int, CheckLine]] = []
    missing: list[tuple[int, CheckLine]] = []
    for index, line in enumerate(current.check_lines()):
        if not protect(line):
            continue
        if line.subgoal is not None and line.subgoal not in proposed_keys:
            orphans.append((index, line))
        elif kept[line] > 0:
            kept[line] -= 1
        else:
            missing.append((index, line))
    # A line whose subgoal is gone is kept if it reappears under a subgoal the current plan did not have
    # (a reworded subgoal took its checks along), else as the task-level @end line it turns into.
    current_keys = set(current.keys)
    moved = Counter(
        _sig(c) for c in kept.elements() if c.subgoal is not None and c.subgoal not in current_keys
    )
    for index, line in orphans:
        ending = CheckLine(subgoal=None, kind=line.kind, when="end", text=line.text)
        if not protect(ending):
            continue  # it would become a line the caller places itself (a user check)
        if moved[_sig(line)] > 0:
            moved[_sig(line)] -= 1
        elif kept[ending] > 0:
            kept[ending] -= 1
        else:
            missing.append((index, ending))
    restored = tuple(line for _, line in sorted(missing, key=lambda pair: pair[0]))
    return GuardResult(plan=_with_lines(proposed, restored), restored=restored)


def guard_operator_write(
    current: Plan, proposed: Plan, *, protected: Sequence[CheckItem] = ()
) -> GuardResult:
    """Guard an operator's plan write: restore every dropped or edited check line; keep additions.

    ``protected`` are user marker items that must appear in the result whatever the plans say
    (placed with ``place_checks``); lines placed for them are reported in ``restored`` too.
    """
    user_sigs = {_sig(i) for i in protected}
    result = _restore(current, proposed, lambda line: _sig(line) not in user_sigs)
    return _place_into(result, protected)


def guard_planner_write(
    current: Plan,
    proposed: Plan,
    *,
    user_checks: Sequence[CheckItem],
    planner_checks: Sequence[CheckItem],
) -> GuardResult:
    """Guard a planner's plan write: it may revise or drop its own checks, nothing else.

    A current line is the planner's to change when a ``planner_checks`` item says the same thing
    (kind, timing, text — and subgoal key, when the item has one) and no user item does. Every other
    current line is restored like an operator write; then every user item is placed (``place_checks``).
    """
    user_sigs = {_sig(i) for i in user_checks}
    planner_any = {_sig(i) for i in planner_checks if i.subgoal is None}
    planner_at = {(i.subgoal, *_sig(i)) for i in planner_checks if i.subgoal is not None}

    def protect(line: CheckLine) -> bool:
        sig = _sig(line)
        if sig in user_sigs:
            return False  # placed below from the user item itself (its hint decides where it goes)
        return sig not in planner_any and (line.subgoal, *sig) not in planner_at

    result = _restore(current, proposed, protect)
    return _place_into(result, user_checks)


def _place_into(result: GuardResult, items: Sequence[CheckItem]) -> GuardResult:
    placed = place_checks(result.plan, items)
    if placed == result.plan:
        return result
    added = Counter(placed.check_lines()) - Counter(result.plan.check_lines())
    return GuardResult(plan=placed, restored=result.restored + tuple(added.elements()))


def _hinted(plan: Plan, hint: str | None) -> Subgoal | None:
    if not hint or not normalize_text(hint):
        return None
    wanted = normalize_text(hint).casefold()
    exact = next((s for s in plan.subgoals if s.text.casefold() == wanted), None)
    return exact or next((s for s in plan.subgoals if wanted in s.text.casefold()), None)


def _owner(plan: Plan, item: CheckItem) -> Subgoal | None:
    """Where a user's item belongs by the documented rule (None = task level)."""
    owner = plan.subgoal(item.subgoal) if item.subgoal else None
    owner = owner or _hinted(plan, item.subgoal_hint)
    if owner is None and item.when == "complete" and plan.subgoals:
        owner = plan.subgoals[-1]
    return owner


def _moved(plan: Plan, sig: _Sig, owner: str | None) -> Plan:
    """``plan`` with every line saying ``sig`` (at least one) under ``owner`` (None = task level)."""
    copies = max(1, sum(1 for line in plan.check_lines() if _sig(line) == sig))
    line = PlanCheck(kind=sig[0], when=sig[1], text=sig[2])  # type: ignore[arg-type]

    def keep(checks: tuple[PlanCheck, ...], here: bool) -> tuple[PlanCheck, ...]:
        others = tuple(c for c in checks if _sig(c) != sig)
        if not here:
            return others
        first = next((i for i, c in enumerate(checks) if _sig(c) == sig), len(others))
        return others[:first] + (line,) * copies + others[first:]

    subgoals = tuple(Subgoal(text=s.text, status=s.status, checks=keep(s.checks, s.key == owner))
                     for s in plan.subgoals)
    return Plan(subgoals=subgoals, task_checks=keep(plan.task_checks, owner is None))


def place_checks(plan: Plan, items: Sequence[CheckItem]) -> Plan:
    """``plan`` with every item placed by the documented rule, whatever the plan's author wrote.

    Placement: under the subgoal with the item's ``subgoal`` key, else under the subgoal whose text
    equals (case-insensitively), else contains, the item's ``subgoal_hint``; else a ``complete`` item goes
    under the last subgoal, and an ``end`` item (or any item of a plan without subgoals) is task-level.
    Copies of the line anywhere else are moved there. Idempotent.
    """
    seen: set[_Sig] = set()
    for item in items:
        if _sig(item) in seen:  # the same check declared twice: the first declaration places it
            continue
        seen.add(_sig(item))
        owner = _owner(plan, item)
        plan = _moved(plan, _sig(item), owner.key if owner else None)
    return plan


def plan_check_items(
    plan: Plan, *, known: Sequence[CheckItem] = (), origin: CheckOrigin = "planner"
) -> tuple[CheckItem, ...]:
    """Every check line of ``plan`` as a ``CheckItem`` owned by its subgoal key (None = task-level).

    A line saying the same as a ``known`` item (kind, timing, text) inherits that item's origin, hint
    and probe (so user marker items keep their identity); other lines get ``origin``.
    """
    by_sig: dict[_Sig, CheckItem] = {}
    for item in known:
        by_sig.setdefault(_sig(item), item)
    items = []
    for line in plan.check_lines():
        base = by_sig.get(_sig(line))
        items.append(
            CheckItem(
                kind=line.kind,
                when=line.when,
                text=base.text if base else line.text,
                origin=base.origin if base else origin,
                subgoal=line.subgoal,
                subgoal_hint=base.subgoal_hint if base else None,
                probe=base.probe if base else None,
                visual=base.visual if base else False,
            )
        )
    return tuple(items)
