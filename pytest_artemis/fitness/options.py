"""The kit's command line: the plugin's own model options (same definitions, same help, same resolution:
command line, then ``ARTEMIS_*`` environment, then the pytest ini file of the directory it runs in), spelt
``--model`` or ``--artemis-model``, plus ``--out``."""

from __future__ import annotations

import argparse
import configparser
import os
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from pytest_artemis.plugin.options import OPTIONS, ArtemisOptions, OptionDef, resolve
from pytest_artemis.plugin.preflight import check_litellm, check_options

from .personas import PREFIX, unknown_scripted

KIT_OPTIONS = ("model", "planner_model", "operator_model", "checker_model", "api_base", "api_key",
               "model_timeout", "planner_model_timeout", "operator_model_timeout", "checker_model_timeout",
               "model_attempt_timeout", "check_timeout", "time_budget", "no_credentials_check")
"""The plugin options that mean something to the kit."""
MODEL_OPTIONS = ("model", "planner_model", "operator_model", "checker_model")
DEFAULT_OUT = Path("fitness")
_INI_FILES = (("pytest.ini", "pytest"), (".pytest.ini", "pytest"), ("pyproject.toml", ""),
              ("tox.ini", "pytest"), ("setup.cfg", "tool:pytest"))
"""Where pytest looks for its ini, in its order, and the section each file keeps it in."""


def _definitions() -> list[OptionDef]:
    by_name = {opt.name: opt for opt in OPTIONS}
    return [by_name[name] for name in KIT_OPTIONS]


def parser() -> argparse.ArgumentParser:
    """The kit's argument parser, built from the plugin's option definitions."""
    parse = argparse.ArgumentParser(
        prog="python -m pytest_artemis.fitness",
        description="Score a model as operator and as checker on the simulated phone before trusting it.")
    for opt in _definitions():
        flags = ["--" + opt.name.replace("_", "-"), opt.flag]
        help_text = f"{opt.help} [env {opt.env}, ini {opt.ini}]"
        if opt.kind == "flag":
            parse.add_argument(*flags, action="store_const", const=True, default=None, dest=opt.ini,
                               help=help_text)
        else:
            metavar = opt.metavar or ("SECONDS" if opt.kind == "float" else opt.kind.upper())
            parse.add_argument(*flags, default=None, dest=opt.ini, metavar=metavar, help=help_text)
    parse.add_argument("--out", type=Path, default=DEFAULT_OUT, metavar="DIR",
                       help=f"where fitness.json, fitness.html and the runs go (default: {DEFAULT_OUT})")
    return parse


def ini_values(directory: Path) -> dict[str, str]:
    """The ``artemis_*`` keys of the pytest ini file pytest would read in ``directory`` (the first of
    pytest.ini, .pytest.ini, pyproject.toml, tox.ini, setup.cfg that has a pytest section)."""
    for name, section in _INI_FILES:
        path = directory / name
        if not path.is_file():
            continue
        if name == "pyproject.toml":
            table = tomllib.loads(path.read_text(encoding="utf-8")).get("tool", {}).get("pytest", {})
            values = table.get("ini_options")
            if isinstance(values, dict):
                return {k: str(v) for k, v in values.items() if k.startswith("artemis_")}
            continue
        ini = configparser.ConfigParser(interpolation=None)
        ini.read(path, encoding="utf-8")
        if ini.has_section(section) or name in ("pytest.ini", ".pytest.ini"):
            return {k: v for k, v in (ini[section].items() if ini.has_section(section) else ())
                    if k.startswith("artemis_")}
    return {}


def resolve_options(args: argparse.Namespace, env: Mapping[str, str] | None = None,
                    directory: Path | None = None) -> ArtemisOptions:
    """The plugin's resolution of the kit's arguments (command line, environment, ini), checked as the plugin
    checks them at session start; a ``pytest.UsageError`` names the fix. Built-in scripted models are not
    litellm's to route."""
    given = vars(args)
    ini = ini_values(directory or Path.cwd())
    options = resolve(lambda dest: given.get(dest), lambda key: ini.get(key),
                      os.environ if env is None else env)
    check_options(options)
    scripted = {name: None for name in MODEL_OPTIONS if str(getattr(options, name) or "").startswith(PREFIX)}
    for name in scripted:
        if problem := unknown_scripted(getattr(options, name)):
            raise pytest.UsageError(f"--{name.replace('_', '-')}: {problem}")
    check_litellm(replace(options, **scripted))  # type: ignore[arg-type]
    return options


def parse(argv: Sequence[str] | None = None) -> tuple[ArtemisOptions, Path]:
    """The resolved options and the output directory (``pytest.UsageError`` on a bad value)."""
    args = parser().parse_args(argv)
    out: Path = args.out
    return resolve_options(args), out

