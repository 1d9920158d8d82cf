"""Running the kit's command line in this process, and what one run printed and wrote."""

from __future__ import annotations

import contextlib
import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pytest_artemis.fitness import FitnessReport
from pytest_artemis.fitness.cli import main


@dataclass(frozen=True)
class Scored:
    """One run of ``python -m pytest_artemis.fitness``: its exit code, what it printed, what it wrote."""

    code: int
    printed: str
    errors: str
    out: Path

    @property
    def report(self) -> FitnessReport:
        return FitnessReport.model_validate_json((self.out / "fitness.json").read_text(encoding="utf-8"))


def run_cli(argv: Sequence[str], out: Path) -> Scored:
    """The kit's command line, run in this process with ``--out out``."""
    printed, errors = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(errors):
        code = main([*argv, "--out", str(out)])
    return Scored(code, printed.getvalue(), errors.getvalue(), out)
