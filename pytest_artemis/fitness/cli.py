"""``python -m pytest_artemis.fitness``: resolve the options, run the kit, print the table, exit 0 only when
every scored role is fit (1: unfit or not scored, 2: a usage error, 3: the kit could not score)."""

from __future__ import annotations

import sys
from collections.abc import Sequence

import pytest

from pytest_artemis.contracts import UsageError
from pytest_artemis.plugin.settings import RunSettings

from .candidates import candidates
from .context import FitnessError, KitSettings
from .kit import HTML_FILE, JSON_FILE, run_kit
from .options import parse
from .table import render_table

EXIT_FIT, EXIT_UNFIT, EXIT_USAGE, EXIT_KIT = 0, 1, 2, 3


def main(argv: Sequence[str] | None = None) -> int:
    """Run the kit from the command line; returns the exit code."""
    try:
        options, out = parse(argv)
        chosen = candidates(options)
    except (pytest.UsageError, UsageError) as exc:
        print(f"usage error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    run = RunSettings.from_options(options)
    settings = KitSettings(model_timeouts=run.model_timeouts(), check_timeout_s=run.check_timeout,
                           time_budget_s=run.time_budget)
    try:
        report = run_kit(chosen, out, settings=settings, api_key=options.api_key, api_base=options.api_base)
    except FitnessError as exc:
        print(f"the kit could not score: {exc}", file=sys.stderr)
        return EXIT_KIT
    print(render_table(report))
    print(f"wrote {out / JSON_FILE} and {out / HTML_FILE}")
    scored = [s.fitness for s in (report.operator, report.checker) if s is not None]
    return EXIT_FIT if all(f == "fit" for f in scored) else EXIT_UNFIT
