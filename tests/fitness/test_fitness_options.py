"""The kit takes the plugin's model options the plugin's way: its flags (also spelt ``--artemis-…``), the
``ARTEMIS_*`` environment, the pytest ini file; each role's model; usage errors that name the fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_artemis.contracts import UsageError
from pytest_artemis.fitness.candidates import candidates, shown_base
from pytest_artemis.fitness.checker_part import CHECKER_REASKS, REQUEST_LIMIT, request_budget
from pytest_artemis.fitness.cli import EXIT_USAGE, main
from pytest_artemis.fitness.options import parser, resolve_options
from pytest_artemis.models import LiteLLMModel

CLEAN = {"ADBUTILS_ADB_PATH": "/bin/true"}


def _options(argv: list[str], env: dict[str, str] | None = None, directory: Path | None = None):
    return resolve_options(parser().parse_args(argv), {**CLEAN, **(env or {})}, directory)


def test_each_role_has_its_model(tmp_path):
    chosen = candidates(_options(["--operator-model", "scripted:liar", "--artemis-checker-model", "openai/x",
                                  "--api-base", "http://127.0.0.1:9/v1"], directory=tmp_path))
    assert chosen.operator is not None and chosen.checker is not None and chosen.planner is not None
    assert (chosen.planner.name, chosen.operator.name, chosen.checker.name) == \
        ("scripted:liar", "scripted:liar", "openai/x")
    model = chosen.checker.build()
    assert isinstance(model, LiteLLMModel) and model.api_base == "http://127.0.0.1:9/v1"
    assert model.reasks == CHECKER_REASKS
    assert request_budget() <= REQUEST_LIMIT == 40


def test_the_environment_and_the_ini_file_name_the_model(tmp_path):
    assert candidates(_options([], {"ARTEMIS_MODEL": "scripted:honest"}, tmp_path)).checker is not None
    ini = "[pytest]\nartemis_checker_model = scripted:sloppy\n"
    (tmp_path / "pytest.ini").write_text(ini, encoding="utf-8")
    chosen = candidates(_options([], directory=tmp_path))
    assert chosen.operator is None and chosen.checker is not None and chosen.checker.name == "scripted:sloppy"
    assert candidates(_options(["--model", "scripted:honest"], directory=tmp_path)).operator is not None


def test_pyproject_keeps_its_ini_options(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.pytest.ini_options]\nartemis_model = "scripted:liar"\n',
                                             encoding="utf-8")
    assert candidates(_options([], directory=tmp_path)).operator is not None


def test_usage_errors_name_the_fix(tmp_path, capsys: pytest.CaptureFixture[str],
                                   monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("ARTEMIS_MODEL", raising=False)
    with pytest.raises(UsageError, match="no model to score: pass --model"):
        candidates(_options([], directory=tmp_path))
    assert main(["--model", "scripted:nope", "--out", str(tmp_path / "out")]) == EXIT_USAGE
    assert "--model: 'scripted:nope' is not a built-in scripted model (known: scripted:honest" \
        in capsys.readouterr().err
    assert main(["--model", "not a model", "--out", str(tmp_path / "out")]) == EXIT_USAGE
    assert "is not a model name" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()  # nothing ran


def test_a_report_never_shows_credentials_in_the_api_base():
    assert shown_base("https://user:secret@gateway.example:8443/v1?key=abc#x") == "https://gateway.example:8443/v1"
    assert shown_base(None) is None
