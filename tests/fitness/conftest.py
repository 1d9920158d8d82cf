"""The fitness kit's tests: each built-in scripted model scored once per session, through the command line."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest

_HERE = Path(__file__).resolve().parent
# the kit's runner, the headless browser, the fake provider, the relay of recorded sessions
for _shared in (_HERE, _HERE.parent / "report", _HERE.parent / "models", _HERE.parent / "real_model"):
    if str(_shared) not in sys.path:
        sys.path.insert(0, str(_shared))

from fitness_runs import Scored, run_cli  # noqa: E402


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
