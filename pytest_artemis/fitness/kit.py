"""One run of the kit: both parts on one simulated phone, then ``fitness.json`` and ``fitness.html``."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

from pytest_artemis.contracts import UsageError
from pytest_artemis.report.markup import write_atomic
from pytest_artemis.store import Redactor

from .candidates import Candidates, shown_base
from .checker_part import score_checker
from .context import FitnessError, KitContext, KitSettings
from .operator_part import score_operator
from .page import render_page
from .phone import simulated_phone
from .schema import CheckerScore, FitnessReport, OperatorScore, RoleModels
from .thresholds import THRESHOLDS

SUITE_VERSION = "1"
"""The version of the built-in suite (cases, goals, thresholds): scores of different versions differ."""
JSON_FILE, HTML_FILE = "fitness.json", "fitness.html"
RUNS_MARK = ".fitness-runs"
"""Marks a ``runs/`` directory the kit wrote, so a new run may replace it (and nothing else)."""


def _fresh_runs(out: Path) -> None:
    """An empty ``out/runs``: the kit's own previous runs are replaced, anything else is left alone."""
    runs = out / "runs"
    if runs.exists():
        if not (runs / RUNS_MARK).exists():
            raise FitnessError(f"{runs} exists and was not written by the fitness kit: pass another --out")
        shutil.rmtree(runs)
    runs.mkdir(parents=True)
    (runs / RUNS_MARK).write_text("written by python -m pytest_artemis.fitness\n", encoding="utf-8")


def verdict_line(operator: OperatorScore | None, checker: CheckerScore | None) -> str:
    """``scripted:honest: fit as operator, fit as checker`` (each model named once)."""
    parts = [(s.model, f"{s.fitness} as {role}") for role, s in (("operator", operator), ("checker", checker))
             if s is not None]
    if len({model for model, _ in parts}) == 1:
        return f"{parts[0][0]}: " + ", ".join(said for _, said in parts)
    return "; ".join(f"{model}: {said}" for model, said in parts)


def run_kit(chosen: Candidates, out: Path, *, settings: KitSettings | None = None,
            api_key: str | None = None, api_base: str | None = None) -> FitnessReport:
    """Score ``chosen`` (operator part first, then checker part) and write the report into ``out``."""
    if chosen.operator is None and chosen.checker is None:
        raise UsageError("no model to score: give an operator or a checker candidate")
    started = time.time()
    out.mkdir(parents=True, exist_ok=True)
    _fresh_runs(out)
    redactor = Redactor.from_environment()
    redactor.add(api_key)
    operator = checker = None
    with simulated_phone() as phone:
        ctx = KitContext(phone, out.resolve(), redactor, settings or KitSettings())
        if chosen.operator is not None:
            operator = score_operator(ctx, chosen.operator.name, chosen.operator_pair)
        if chosen.checker is not None:
            checker = score_checker(ctx, chosen.checker.name, chosen.checker.build())
    report = FitnessReport(
        suite_version=SUITE_VERSION, created_at=started, seconds=round(time.time() - started, 3),
        models=RoleModels(planner=chosen.planner.name if chosen.planner else None,
                          operator=chosen.operator.name if chosen.operator else None,
                          checker=chosen.checker.name if chosen.checker else None,
                          api_base=shown_base(api_base)),
        thresholds=THRESHOLDS, operator=operator, checker=checker, verdict=verdict_line(operator, checker))
    write_atomic(out / JSON_FILE, redactor.redact(report.model_dump_json(indent=2)) + "\n")
    write_atomic(out / HTML_FILE, redactor.redact(render_page(report)))
    return report
