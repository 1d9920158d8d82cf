"""The markdown plan grammar: parse, render, subgoal keys, completion and check-line diffs.

Grammar (lenient on layout, strict on meaning)::

    - [ ] Open the Clock app and create a 7:30 AM alarm      <- subgoal: [ ] todo, [/] reopened, [x] done
      - verify: The alarm list shows 7:30 AM                  <- check of the subgoal above (indented deeper)
      - assert@end: No error dialog is shown                  <- `@end` = judged at exit, else on completion
    - assert@end: No 'app has stopped' dialog appears         <- task-level check (not indented deeper)

* Bullets may be ``-``, ``*``, ``+`` or ``1.``; indentation may be any width (tabs count as 4 spaces).
  A check line belongs to the nearest subgoal above it whose bullet is indented less; otherwise it is
  task-level. Keywords are case-insensitive; ``@complete`` may be written out.
* Checkbox lines at any depth are subgoals (nested ones are flattened, in document order).
* Every other line (headings, prose, code fences, blank lines) is **dropped**: a ``Plan`` holds no
  notes, so ``render_plan(parse_plan(x))`` is the canonical form of ``x``.
* Meaning errors raise ``PlanSyntaxError`` naming the line: an unknown checkbox mark (``[~]``), an
  unknown timing (``verify@later:``), an empty subgoal or check text, a duplicated subgoal.
* Text is normalised (whitespace runs collapse to one space). A subgoal's key is the sha256 of its own
  normalised text (12 hex): check lines, statuses and position never change it.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from typing import Literal

from pydantic import field_validator, model_validator

from pytest_artemis.contracts import CheckKind, CheckWhen
from pytest_artemis.contracts._base import Contract
from pytest_artemis.contracts.errors import ArtemisError

SubgoalStatus = Literal["todo", "reopened", "done"]

_MARKS: dict[str, SubgoalStatus] = {"": "todo", " ": "todo", "/": "reopened", "x": "done", "X": "done"}
_BOX: dict[SubgoalStatus, str] = {"todo": " ", "reopened": "/", "done": "x"}
_BULLET = r"(?:[-*+]|\d+[.)])"
_SUBGOAL_RE = re.compile(rf"^(?P<indent>\s*){_BULLET}\s+\[(?P<mark>[^\]]?)\]\s*(?P<text>.*)$")
_CHECK_RE = re.compile(
    rf"^(?P<indent>\s*)(?:{_BULLET}\s+)?(?P<kind>verify|assert)(?:\s*@\s*(?P<when>[A-Za-z_]*))?\s*:\s*(?P<text>.*)$",
    re.IGNORECASE,
)
_WHENS: dict[str, CheckWhen] = {"end": "end", "complete": "complete"}


class PlanSyntaxError(ArtemisError, ValueError):
    """A plan line whose meaning is wrong (not merely its layout); names the 1-based line."""

    def __init__(self, line_no: int, line: str, problem: str) -> None:
        super().__init__(f"plan line {line_no}: {problem}: {line.strip()!r}")
        self.line_no = line_no
        self.line = line
        self.problem = problem


def normalize_text(text: str) -> str:
    """Collapse every whitespace run (newlines included) to one space and strip the ends."""
    return " ".join(text.split())


def subgoal_key(text: str) -> str:
    """The stable identity of a subgoal: sha256 of its normalised text, 12 hex digits."""
    return hashlib.sha256(normalize_text(text).encode()).hexdigest()[:12]


class PlanCheck(Contract):
    """One check line of a plan (its owner is implied by where it sits)."""

    kind: CheckKind
    when: CheckWhen = "complete"
    text: str

    @field_validator("text")
    @classmethod
    def _normalised(cls, value: str) -> str:
        value = normalize_text(value)
        if not value:
            raise ValueError("check text is empty")
        return value


class CheckLine(Contract):
    """A check line with its owner: the unit of the multiset that check-line diffs compare."""

    subgoal: str | None
    """Key of the owning subgoal, or None for a task-level line."""
    kind: CheckKind
    when: CheckWhen
    text: str

    @property
    def check(self) -> PlanCheck:
        return PlanCheck(kind=self.kind, when=self.when, text=self.text)


class Subgoal(Contract):
    """A checkbox line and the check lines indented under it."""

    text: str
    status: SubgoalStatus = "todo"
    checks: tuple[PlanCheck, ...] = ()

    @field_validator("text")
    @classmethod
    def _normalised(cls, value: str) -> str:
        value = normalize_text(value)
        if not value:
            raise ValueError("subgoal text is empty")
        return value

    @property
    def key(self) -> str:
        return subgoal_key(self.text)

    @property
    def done(self) -> bool:
        return self.status == "done"


class Plan(Contract):
    """A parsed plan: subgoals in order, then task-level check lines. Subgoal texts are unique."""

    subgoals: tuple[Subgoal, ...] = ()
    task_checks: tuple[PlanCheck, ...] = ()

    @model_validator(mode="after")
    def _unique_keys(self) -> Plan:
        seen: set[str] = set()
        for subgoal in self.subgoals:
            if subgoal.key in seen:
                raise ValueError(f"duplicate subgoal {subgoal.text!r}")
            seen.add(subgoal.key)
        return self

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(s.key for s in self.subgoals)

    def subgoal(self, key: str) -> Subgoal | None:
        """The subgoal with this key, or None."""
        return next((s for s in self.subgoals if s.key == key), None)

    def with_status(self, key: str, status: SubgoalStatus) -> Plan:
        """This plan with one subgoal's status changed; raises KeyError for an unknown key."""
        if self.subgoal(key) is None:
            raise KeyError(f"no subgoal with key {key!r}")
        subgoals = tuple(
            Subgoal(text=s.text, status=status, checks=s.checks) if s.key == key else s for s in self.subgoals
        )
        return Plan(subgoals=subgoals, task_checks=self.task_checks)

    def check_lines(self) -> tuple[CheckLine, ...]:
        """Every check line with its owner key (None = task-level), in document order."""
        lines = [
            CheckLine(subgoal=s.key, kind=c.kind, when=c.when, text=c.text)
            for s in self.subgoals
            for c in s.checks
        ]
        lines += [CheckLine(subgoal=None, kind=c.kind, when=c.when, text=c.text) for c in self.task_checks]
        return tuple(lines)

    def without_checks(self) -> Plan:
        """The same subgoals and statuses with every check line removed."""
        return Plan(subgoals=tuple(Subgoal(text=s.text, status=s.status) for s in self.subgoals))

    @property
    def done_keys(self) -> tuple[str, ...]:
        return tuple(s.key for s in self.subgoals if s.done)

    @property
    def all_done(self) -> bool:
        """True when there is at least one subgoal and every one is done."""
        return bool(self.subgoals) and all(s.done for s in self.subgoals)


def parse_plan(text: str) -> Plan:
    """Parse plan markdown (see the module docstring); raises ``PlanSyntaxError`` on a meaning error."""
    subgoals: list[tuple[int, str, SubgoalStatus, list[PlanCheck]]] = []
    task_checks: list[PlanCheck] = []
    seen: dict[str, int] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.expandtabs(4)
        if match := _SUBGOAL_RE.match(line):
            mark, body = match["mark"], normalize_text(match["text"])
            if mark not in _MARKS:
                raise PlanSyntaxError(number, raw, f"unknown checkbox mark [{mark}] (use [ ], [/] or [x])")
            if not body:
                raise PlanSyntaxError(number, raw, "subgoal without text")
            key = subgoal_key(body)
            if key in seen:
                raise PlanSyntaxError(number, raw, f"duplicate of the subgoal on line {seen[key]}")
            seen[key] = number
            subgoals.append((len(match["indent"]), body, _MARKS[mark], []))
        elif match := _CHECK_RE.match(line):
            check = _check_from_match(match, number, raw)
            indent = len(match["indent"])
            owner = next((s for s in reversed(subgoals) if s[0] < indent), None)
            (owner[3] if owner else task_checks).append(check)
    return Plan(
        subgoals=tuple(Subgoal(text=t, status=st, checks=tuple(cs)) for _, t, st, cs in subgoals),
        task_checks=tuple(task_checks),
    )


def _check_from_match(match: re.Match[str], number: int, raw: str) -> PlanCheck:
    when_word = "complete" if match["when"] is None else match["when"].lower()
    if when_word not in _WHENS:
        raise PlanSyntaxError(number, raw, f"unknown check timing @{match['when']} (use @end or nothing)")
    body = normalize_text(match["text"])
    if not body:
        raise PlanSyntaxError(number, raw, "check line without text")
    kind: CheckKind = "verify" if match["kind"].lower() == "verify" else "assert"
    return PlanCheck(kind=kind, when=_WHENS[when_word], text=body)


def _check_line(check: PlanCheck, indent: str) -> str:
    suffix = "@end" if check.when == "end" else ""
    return f"{indent}- {check.kind}{suffix}: {check.text}"


def render_plan(plan: Plan) -> str:
    """The canonical markdown of a plan (two-space indented checks, task-level checks last)."""
    lines: list[str] = []
    for subgoal in plan.subgoals:
        lines.append(f"- [{_BOX[subgoal.status]}] {subgoal.text}")
        lines.extend(_check_line(c, "  ") for c in subgoal.checks)
    lines.extend(_check_line(c, "") for c in plan.task_checks)
    return "".join(f"{line}\n" for line in lines)


def _as_plan(plan: Plan | str) -> Plan:
    return plan if isinstance(plan, Plan) else parse_plan(plan)


def new_completions(before: Plan | str, after: Plan | str) -> tuple[str, ...]:
    """Keys of subgoals done in ``after`` but not done in ``before`` (new subgoals included), in order."""
    before_done = set(_as_plan(before).done_keys)
    return tuple(k for k in _as_plan(after).done_keys if k not in before_done)


def check_items_changed(before: Plan | str, after: Plan | str) -> bool:
    """Whether the multisets of (subgoal key|None, kind, when, text) check lines differ."""

    def multiset(plan: Plan) -> Counter[tuple[str | None, str, str, str]]:
        return Counter((c.subgoal, c.kind, c.when, c.text) for c in plan.check_lines())

    return multiset(_as_plan(before)) != multiset(_as_plan(after))


_SPEC_BASE = """\
The plan is a Markdown checklist with one subgoal per line, in the order they will be done:

- [ ] Open the Clock app
- [ ] Create an alarm for 7:30 AM
- [x] A subgoal that is already done
- [/] A subgoal that was marked done earlier but must be done again

Mark meanings: `[ ]` open, `[x]` done, `[/]` reopened. Write each subgoal as one short line that
names an observable result. A subgoal's text is its identity: never reword an existing subgoal;
change only its mark. Mark a subgoal `[x]` only when the current screen shows it is done.
Lines that are not checklist items are ignored.
"""

_SPEC_CHECKS = """
Check lines state how success is judged. Indent them under the subgoal they belong to:

- [ ] Save the 7:30 AM alarm
  - verify: The alarm list shows 7:30 AM and its switch is on
  - assert: A confirmation toast appears right after saving
- assert@end: No 'app has stopped' dialog appears at any time

- `verify:` a completion criterion of the subgoal; if it fails, the subgoal is reopened for repair.
- `assert:` a test assertion; a failure is recorded as it is and never repaired.
- No suffix: judged when the subgoal is marked done. `@end` suffix: judged once, when the run ends.
- An unindented check line belongs to the whole task.
Check lines are append-only: never delete or reword an existing check line (removed ones are
restored). You may add new ones.
"""


def render_grammar_spec(include_checks: bool) -> str:
    """The plan grammar explained for prompts; without checks it mentions no check syntax at all."""
    return _SPEC_BASE + _SPEC_CHECKS if include_checks else _SPEC_BASE
