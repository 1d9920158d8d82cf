"""The kit's tables in the docs, generated from its definitions (the cases, the goals, the thresholds, the
``fitness.json`` fields): ``python -m pytest_artemis.fitness.docs docs/fitness.md docs/models-and-costs.md``
rewrites them, and a test keeps the pages equal to what this renders."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from pydantic import BaseModel

from .cases import CASES
from .goals import GOALS
from .schema import CheckerScore, FitnessReport, GoalResult, ItemResult, OperatorScore
from .thresholds import render_markdown as render_thresholds


def _cell(text: str) -> str:
    """One line of a Markdown table cell (docstrings' double backticks as Markdown's single ones)."""
    return " ".join(text.replace("``", "`").replace("|", "\\|").split())


def render_cases() -> str:
    """Every checker case's items with their truth and how it is known."""
    rows = ["| case | item | kind | truth | how the truth is known |", "|---|---|---|---|---|"]
    for case in CASES:
        for claim in (case.truth_of(case.goal), *case.claims):
            rows.append(f"| `{case.name}` | {_cell(claim.text)} | {claim.kind} | {claim.truth} | "
                        f"{_cell(claim.why)} |")
    return "\n".join(rows)


def render_goals() -> str:
    """The operator part's goals and the probes that say each was reached."""
    rows = ["| goal | asked | steps | reached when the phone answers (after the run) |", "|---|---|---|---|"]
    for goal in GOALS:
        probes = "; ".join(_cell(p.description) for p in goal.success)
        rows.append(f"| `{goal.name}` | {_cell(goal.goal)} | {goal.max_steps} | {probes} |")
    return "\n".join(rows)


def _fields(model: type[BaseModel]) -> list[str]:
    return [f"| `{model.__name__}` | `{name}` | {_cell(info.description or '')} |"
            for name, info in model.model_fields.items() if info.description]


def render_fields() -> str:
    """The documented fields of ``fitness.json``, from the schema's own docstrings."""
    rows = ["| record | field | meaning |", "|---|---|---|"]
    for model in (FitnessReport, OperatorScore, GoalResult, CheckerScore, ItemResult):
        rows += _fields(model)
    return "\n".join(rows)


TABLES: dict[str, Callable[[], str]] = {
    "fitness-thresholds": lambda: render_thresholds(len(GOALS)),
    "fitness-cases": render_cases,
    "fitness-goals": render_goals,
    "fitness-json": render_fields,
}
"""Each generated table by the name of its markers (``<!-- NAME:start -->`` … ``<!-- NAME:end -->``)."""


def with_tables(page: str) -> str:
    """``page`` with every generated table it has markers for rendered anew."""
    for name, render in TABLES.items():
        start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
        if start in page:
            head, _, rest = page.partition(start)
            _, _, tail = rest.partition(end)
            page = f"{head}{start}\n{render()}\n{end}{tail}"
    return page


if __name__ == "__main__":
    for name in sys.argv[1:]:
        path = Path(name)
        path.write_text(with_tables(path.read_text(encoding="utf-8")), encoding="utf-8")
