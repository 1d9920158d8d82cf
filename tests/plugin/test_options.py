"""Options: CLI > ARTEMIS_* env > ini > default, typed, shown with their source; the generated reference."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pytest_artemis.plugin.options import OPTIONS, render_markdown, resolve

REPO = Path(__file__).resolve().parents[2]


def resolved(cli=None, env=None, ini=None):
    cli, env, ini = cli or {}, env or {}, ini or {}
    return resolve(lambda dest: cli.get(dest), lambda key: ini.get(key), env)


def test_precedence_cli_then_env_then_ini_then_default():
    opts = resolved(
        cli={"artemis_max_steps": "5"},
        env={"ARTEMIS_MAX_STEPS": "6", "ARTEMIS_MODEL": "openai/env-model"},
        ini={"artemis_max_steps": "7", "artemis_model": "openai/ini-model", "artemis_ocr": "rapidocr"},
    )
    assert (opts.max_steps, opts.sources["max_steps"]) == (5, "cli")
    assert (opts.model, opts.sources["model"]) == ("openai/env-model", "env")
    assert (opts.ocr, opts.sources["ocr"]) == ("rapidocr", "ini")
    assert (opts.check_timeout, opts.sources["check_timeout"]) == (180.0, "default")
    assert opts.artifacts == Path(".artemis") and opts.unchecked == "xfail"


def test_model_timeouts_resolve_per_role_cli_then_env_then_ini():
    opts = resolved(cli={"artemis_checker_model_timeout": "900"},
                    env={"ARTEMIS_MODEL_TIMEOUT": "300", "ARTEMIS_CHECKER_MODEL_TIMEOUT": "600"},
                    ini={"artemis_model_timeout": "120", "artemis_model_attempt_timeout": "100"})
    assert (opts.model_timeout, opts.sources["model_timeout"]) == (300.0, "env")
    assert (opts.checker_model_timeout, opts.sources["checker_model_timeout"]) == (900.0, "cli")
    assert (opts.model_attempt_timeout, opts.sources["model_attempt_timeout"]) == (100.0, "ini")
    assert opts.operator_model_timeout is None and resolved().model_timeout == 45.0


def test_flags_from_env_and_ini():
    opts = resolved(env={"ARTEMIS_NO_MIDWAY_CHECKS": "true"}, ini={"artemis_no_final_check": "1"})
    assert opts.no_midway_checks is True and opts.no_final_check is True


@pytest.mark.parametrize(("env", "message"), [
    ({"ARTEMIS_MAX_STEPS": "many"}, "environment ARTEMIS_MAX_STEPS: 'many' is not a valid int"),
    ({"ARTEMIS_UNCHECKED": "ignore"}, "'ignore' is not one of xfail, skip, fail"),
    ({"ARTEMIS_TIME_BUDGET": "-1"}, "--artemis-time-budget must be positive"),
    ({"ARTEMIS_MODEL_TIMEOUT": "0"}, "--artemis-model-timeout must be positive"),
    ({"ARTEMIS_OPERATOR_MODEL_TIMEOUT": "slow"},
     "'slow' is not a valid float for --artemis-operator-model-timeout"),
    ({"ARTEMIS_MAX_STEPS": "0"}, "--artemis-max-steps must be at least 1"),
])
def test_invalid_values_are_usage_errors_naming_their_origin(env, message):
    with pytest.raises(pytest.UsageError) as info:
        resolved(env=env)
    assert message in str(info.value)


def test_header_shows_sources_and_masks_the_api_key(pytester, monkeypatch):
    monkeypatch.setenv("ARTEMIS_API_KEY", "sk-sentinel-0123456789")
    monkeypatch.setenv("ARTEMIS_MAX_STEPS", "12")
    pytester.makeini("[pytest]\nartemis_model = openai/gpt-4o\nartemis_artifacts = out/artemis\n")
    pytester.makepyfile("def test_x():\n    pass\n")
    result = pytester.runpytest("--artemis-device=sim:2", "-p", "no:cacheprovider")
    result.stdout.fnmatch_lines([
        "artemis: device=sim:2 (cli), model=openai/gpt-4o (ini), api_key=*** (env), max_steps=12 (env), "
        "artifacts=out/artemis (ini)",
    ])
    assert "sk-sentinel" not in result.stdout.str()


def test_cli_choices_are_checked_by_argparse(pytester):
    result = pytester.runpytest("--artemis-assert-policy=maybe")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*invalid choice: 'maybe'*"])


def test_every_option_has_flag_env_and_ini(pytester):
    result = pytester.runpytest("--help")
    for opt in OPTIONS:
        result.stdout.fnmatch_lines([f"*{opt.flag}*"])
    assert len({o.env for o in OPTIONS}) == len(OPTIONS)


def test_configuration_reference_is_generated_and_current():
    committed = (REPO / "docs" / "configuration.md").read_text(encoding="utf-8")
    assert committed == render_markdown(), (
        "docs/configuration.md drifted from the option definitions: run "
        "`python -m pytest_artemis.plugin --markdown --output docs/configuration.md`"
    )
    for opt in OPTIONS:
        assert f"`{opt.env}`" in committed and f"`{opt.ini}`" in committed


def test_reference_generator_cli():
    out = subprocess.run([sys.executable, "-m", "pytest_artemis.plugin", "--markdown"], capture_output=True,
                         text=True, check=True, cwd=REPO)
    assert out.stdout == render_markdown() and out.stderr == ""
