"""The fitness kit's tests: each built-in scripted model scored once per session, through the command line."""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from pytest_artemis.fitness import FitnessReport
from pytest_artemis.fitness.cli import main

_TESTS = Path(__file__).resolve().parents[1]
for _shared in (_TESTS / "report", _TESTS / "models"):  # the headless browser, the OpenAI-compatible server
    if str(_shared) not in sys.path:
        sys.path.insert(0, str(_shared))


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


@pytest.fixture(scope="session")
def scored(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Scored]:
    """``scored("honest")``: the kit's result for ``scripted:honest`` (run once per session)."""
    done: dict[str, Scored] = {}

    def get(persona: str) -> Scored:
        if persona not in done:
            with pytest.MonkeyPatch.context() as patch:
                patch.setenv("ADBUTILS_ADB_PATH", "/bin/true")
                for name in ("ARTEMIS_MODEL", "ARTEMIS_OPERATOR_MODEL", "ARTEMIS_CHECKER_MODEL",
                             "ARTEMIS_PLANNER_MODEL", "ARTEMIS_API_BASE"):
                    patch.delenv(name, raising=False)
                out = tmp_path_factory.mktemp(f"fitness-{persona}")
                patch.chdir(out)  # no ini file of this repository's around it
                done[persona] = run_cli(["--model", f"scripted:{persona}"], out)
        return done[persona]

    return get
