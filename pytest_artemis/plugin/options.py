"""The ``artemis`` option group: definitions, CLI > ARTEMIS_* env > ini resolution, typed result."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, NamedTuple, TypeAlias

import pytest

Source = Literal["cli", "env", "ini", "default"]
OptionValue: TypeAlias = str | int | float | bool | None


class OptionDef(NamedTuple):
    """One option: its flag, ini key and env var are all derived from ``name``.

    A named tuple, not a dataclass: every session imports this module, and a dataclass costs a few
    tenths of a millisecond to define (its methods are generated and compiled at import).
    """

    name: str
    help: str
    kind: Literal["str", "int", "float", "flag", "choice"] = "str"
    default: OptionValue = None
    choices: tuple[str, ...] = ()
    metavar: str | None = None
    secret: bool = False

    @property
    def flag(self) -> str:
        return "--artemis-" + self.name.replace("_", "-")

    @property
    def ini(self) -> str:
        return "artemis_" + self.name

    @property
    def env(self) -> str:
        return "ARTEMIS_" + self.name.upper()


OPTIONS: tuple[OptionDef, ...] = (
    OptionDef("device", "Device(s) to run on: a serial, a comma list (a pool for -n) whose entries may "
              "name their adb server (`HOST:PORT/SERIAL`), `sim` or `sim:N` (the built-in simulated phone, "
              "N devices), or `stf:N[?sdk=33&model=Pixel*]` (N devices booked from DeviceFarmer STF).",
              metavar="SPEC"),
    OptionDef("adb_server", "ADB server of the bare serials in --artemis-device (entries written "
              "HOST:PORT/SERIAL name their own), and the local server STF devices are connected to.",
              default="127.0.0.1:5037", metavar="HOST:PORT"),
    OptionDef("stf_url", "DeviceFarmer STF to book devices from with --artemis-device=stf:N (the access "
              "token is read from ARTEMIS_STF_TOKEN only).", metavar="URL"),
    OptionDef("lease_timeout", "Seconds to wait for a free device while every usable one is leased by "
              "another session; then the lease fails (an infrastructure ERROR).", kind="float",
              default=60.0),
    OptionDef("device_timeout", "Seconds one adb call to the device may take (a screenshot, a tap, a probe) "
              "before it is an infrastructure ERROR; a hung adb server costs one test this long before its "
              "device is quarantined.", kind="float", default=20.0),
    OptionDef("model", "litellm model for every role, e.g. `openai/gpt-4o`.", metavar="MODEL"),
    OptionDef("planner_model", "Model for the planner role (overrides --artemis-model).", metavar="MODEL"),
    OptionDef("operator_model", "Model for the operator role (overrides --artemis-model).", metavar="MODEL"),
    OptionDef("checker_model", "Model for the checker role (overrides --artemis-model).", metavar="MODEL"),
    OptionDef("api_base", "Base URL of the model provider (e.g. a local OpenAI-compatible server).",
              metavar="URL"),
    OptionDef("api_key", "API key for the model provider; never written to artifacts, reports or logs.",
              metavar="KEY", secret=True),
    OptionDef("no_credentials_check", "Do not stop the session at its start when litellm finds the model "
              "provider's API key missing from the environment (for credentials it cannot see, e.g. a proxy "
              "that adds them).", kind="flag", default=False),
    OptionDef("max_steps", "Step budget of a run when the goal marker sets none.", kind="int", default=30),
    OptionDef("no_midway_checks", "Do not check subgoals while the agent works (final check only).",
              kind="flag", default=False),
    OptionDef("no_final_check", "Skip the final check against the original goal.", kind="flag",
              default=False),
    OptionDef("assert_policy", "On a failed `assert_` item: record it and go on, or stop the run.",
              kind="choice", default="continue", choices=("continue", "halt")),
    OptionDef("unchecked", "Outcome of a test whose items are unchecked/inconclusive and none failed.",
              kind="choice", default="xfail", choices=("xfail", "skip", "fail")),
    OptionDef("artifacts", "Directory for run artifacts (one sub-directory per test, one per session under "
              "`sessions/`); runners may share it.", default=".artemis", metavar="DIR"),
    OptionDef("runner", "This runner's name in the artifacts directory and the reports (default: the host "
              "name); give each CI job its own when several share one artifacts directory.",
              metavar="NAME"),
    OptionDef("keep", "Which runs keep their screenshots and report page: every run, only runs whose test "
              "did not pass, or none. The journal, the ledger and the outcome of every run are always "
              "kept.", kind="choice", default="all", choices=("all", "failed", "none")),
    OptionDef("reset", "Device state before each run: `none` (keep what earlier tests left), `app` (the "
              "goal's app: data cleared and force-stopped), `full` (the whole device back to its "
              "initial state, where the device supports it: the simulated phone does).", kind="choice",
              default="none", choices=("none", "app", "full")),
    OptionDef("no_isolation", "Do not isolate tests: by default each test starts on the home screen with the "
              "apps earlier tests brought to the front force-stopped (their data kept).", kind="flag",
              default=False),
    OptionDef("ocr", "OCR engine fused into the screen elements.", kind="choice", default="none",
              choices=("none", "rapidocr", "easyocr")),
    OptionDef("check_timeout", "Seconds one check may take before it is inconclusive.", kind="float",
              default=180.0),
    OptionDef("settle_timeout", "Seconds the exit barrier waits for running checks.", kind="float",
              default=120.0),
    OptionDef("time_budget", "Wall-clock seconds per run; the run ends BLOCKED (time budget) cleanly. "
              "With pytest-timeout the tighter of the two applies.", kind="float"),
    OptionDef("model_timeout", "Seconds one model call may take, its retries included, in every role. "
              "Raise it for a slow model (a reasoning model, a local model on CPU); a checker call is also "
              "bounded by --artemis-check-timeout.", kind="float", default=45.0),
    OptionDef("planner_model_timeout", "Seconds one planner call may take (overrides "
              "--artemis-model-timeout).", kind="float"),
    OptionDef("operator_model_timeout", "Seconds one operator call may take (overrides "
              "--artemis-model-timeout).", kind="float"),
    OptionDef("checker_model_timeout", "Seconds one checker call may take (overrides "
              "--artemis-model-timeout).", kind="float"),
    OptionDef("model_attempt_timeout", "Seconds one HTTP request to the model may take; a request that "
              "times out is retried with what is left of the call's timeout. Unset: the call's timeout less "
              "5 s, at least half of it (40 s of 45 s).", kind="float"),
    OptionDef("sim_seed", "Seed of the simulated phone(s) started for `sim`/`sim:N`.", kind="int",
              default=0),
    OptionDef("replay", "Replay recorded operator decisions and plans while the screen matches the "
              "recording. `auto`: the live model takes over at the first mismatch and the new path is "
              "recorded; `only`: a mismatch ends the test as a usage error without calling the model; "
              "`record`: call the model every turn and rewrite the recording. Verdicts are always "
              "judged afresh.", kind="choice", default="off", choices=("off", "auto", "only", "record")),
    OptionDef("recordings", "Directory of replay recordings (one file per test; commit it next to "
              "your tests to share it between CI machines).", default=".artemis-recordings",
              metavar="DIR"),
    OptionDef("order", "Order of the collected tests: `collected` (pytest's), or `longest-first` by each "
              "test's duration in the last session that ran it (pytest's cache; tests never timed go first). "
              "Under -n N a farm is done sooner when its long tests start first.", kind="choice",
              default="collected", choices=("collected", "longest-first")),
    OptionDef("checkpoint_max_repairs", "How often one failed `verify` checkpoint sends the agent back to "
              "repair before the item stays failed.", kind="int", default=2),
    OptionDef("final_check_max_attempts", "Final-check rounds: unmet `verify` items at exit send the agent "
              "back until this many rounds ran (a round that can only send the agent back judges nothing; "
              "the last always judges).", kind="int", default=3),
    OptionDef("check_concurrency", "Checks that may run at the same time while the agent works.",
              kind="int", default=3),
    OptionDef("same_finding_limit", "Stop the run (BLOCKED) when the same finding comes back this many "
              "times.", kind="int", default=3),
    OptionDef("no_effect_limit", "Stop the run (BLOCKED) after this many turns in a row that change "
              "nothing on screen.", kind="int", default=4),
    OptionDef("history_window", "Recent steps summarized in the operator's context each turn.", kind="int",
              default=5),
    OptionDef("image_max_side", "Longest side, in pixels, of the screenshots sent to the models.",
              kind="int", default=1280),
    OptionDef("no_checker_probes", "Do not give the checker model the read-only `probe_device` tool.",
              kind="flag", default=False),
    OptionDef("checker_max_iterations", "Checker rounds per judgement (evidence requests, then verdicts).",
              kind="int", default=3),
)


@dataclass(frozen=True)
class ArtemisOptions:
    """The resolved options of a session, with where each value came from."""

    device: str | None
    adb_server: str
    stf_url: str | None
    lease_timeout: float
    device_timeout: float
    model: str | None
    planner_model: str | None
    operator_model: str | None
    checker_model: str | None
    api_base: str | None
    api_key: str | None = field(repr=False)
    no_credentials_check: bool
    max_steps: int
    no_midway_checks: bool
    no_final_check: bool
    assert_policy: Literal["continue", "halt"]
    unchecked: Literal["xfail", "skip", "fail"]
    artifacts: Path
    runner: str | None
    keep: Literal["all", "failed", "none"]
    reset: Literal["none", "app", "full"]
    no_isolation: bool
    ocr: Literal["none", "rapidocr", "easyocr"]
    check_timeout: float
    settle_timeout: float
    time_budget: float | None
    model_timeout: float
    planner_model_timeout: float | None
    operator_model_timeout: float | None
    checker_model_timeout: float | None
    model_attempt_timeout: float | None
    sim_seed: int
    replay: Literal["off", "auto", "only", "record"]
    recordings: Path
    order: Literal["collected", "longest-first"]
    checkpoint_max_repairs: int
    final_check_max_attempts: int
    check_concurrency: int
    same_finding_limit: int
    no_effect_limit: int
    history_window: int
    image_max_side: int
    no_checker_probes: bool
    checker_max_iterations: int
    sources: Mapping[str, Source] = field(default_factory=dict, repr=False)

    def header_lines(self) -> list[str]:
        """Report-header lines: every option that is not at its default, with its source; secrets masked."""
        parts = []
        for opt in OPTIONS:
            source = self.sources.get(opt.name, "default")
            if source == "default":
                continue
            value = getattr(self, opt.name)
            shown = "***" if opt.secret else str(value)
            parts.append(f"{opt.name}={shown} ({source})")
        return ["artemis: " + (", ".join(parts) if parts else "no options set (defaults)")]


options_key = pytest.StashKey[ArtemisOptions]()
"""The session's resolved options (``config.stash``), set in ``pytest_configure``."""


def _convert(opt: OptionDef, raw: str | bool | int | float, origin: str) -> OptionValue:
    """A raw option value (CLI/env/ini text) as the option's type, or a usage error naming its origin."""
    if isinstance(raw, bool) or opt.kind not in ("int", "float", "flag", "choice"):
        return raw
    text = str(raw).strip()
    try:
        if opt.kind == "int":
            return int(text)
        if opt.kind == "float":
            return float(text)
        if opt.kind == "flag":
            return _parse_bool(text)
    except ValueError:
        raise pytest.UsageError(f"{origin}: {text!r} is not a valid {opt.kind} for {opt.flag}") from None
    if text not in opt.choices:
        raise pytest.UsageError(f"{origin}: {text!r} is not one of {', '.join(opt.choices)} for {opt.flag}")
    return text


def _parse_bool(text: str) -> bool:
    lowered = text.lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off", ""):
        return False
    raise ValueError(text)


def add_options(parser: pytest.Parser) -> None:
    """Register the ``artemis`` group and its ini keys (every default is applied at resolution)."""
    group = parser.getgroup("artemis", "pytest-artemis: agentic device tests")
    for opt in OPTIONS:
        help_text = f"{opt.help} [env {opt.env}, ini {opt.ini}]"
        if opt.kind == "flag":
            group.addoption(opt.flag, action="store_const", const=True, default=None, dest=opt.ini,
                            help=help_text)
        else:
            group.addoption(opt.flag, action="store", default=None, dest=opt.ini, metavar=opt.metavar,
                            choices=opt.choices or None, help=help_text)
        parser.addini(opt.ini, help=opt.help, type="string", default=None)


def resolve(
    cli: Callable[[str], OptionValue],
    ini: Callable[[str], OptionValue],
    env: Mapping[str, str],
) -> ArtemisOptions:
    """Resolve every option: CLI, then ``ARTEMIS_*`` env, then ini, then the default."""
    values: dict[str, OptionValue] = {}
    sources: dict[str, Source] = {}
    for opt in OPTIONS:
        value, source = _resolve_one(opt, cli(opt.ini), env.get(opt.env), ini(opt.ini))
        values[opt.name] = value
        sources[opt.name] = source
    _check_values(values)
    paths = {"artifacts": Path(str(values["artifacts"])), "recordings": Path(str(values["recordings"]))}
    return ArtemisOptions(**(values | paths), sources=sources)  # type: ignore[arg-type]


def _resolve_one(
    opt: OptionDef, cli: OptionValue, env: str | None, ini: OptionValue
) -> tuple[OptionValue, Source]:
    if cli is not None:
        return _convert(opt, cli, f"command line {opt.flag}"), "cli"
    if env is not None and env != "":
        return _convert(opt, env, f"environment {opt.env}"), "env"
    if ini is not None and ini != "":
        return _convert(opt, ini, f"ini {opt.ini}"), "ini"
    return opt.default, "default"


_AT_LEAST = {"max_steps": 1, "checkpoint_max_repairs": 0, "final_check_max_attempts": 1,
             "check_concurrency": 1, "same_finding_limit": 1, "no_effect_limit": 1, "history_window": 0,
             "image_max_side": 64, "checker_max_iterations": 1}


TIMEOUTS = ("model_timeout", "planner_model_timeout", "operator_model_timeout", "checker_model_timeout",
            "model_attempt_timeout")
"""The model-call timeout options (and run settings of the same names)."""


def _check_values(values: Mapping[str, OptionValue]) -> None:
    for name, least in _AT_LEAST.items():
        if int(values[name] or 0) < least:
            raise pytest.UsageError(f"--artemis-{name.replace('_', '-')} must be at least {least}")
    if float(values["lease_timeout"] or 0) < 0:
        raise pytest.UsageError("--artemis-lease-timeout must be 0 or more")
    for name in ("device_timeout", "check_timeout", "settle_timeout", "time_budget", *TIMEOUTS):
        value = values[name]
        if value is not None and float(value) <= 0:
            raise pytest.UsageError(f"--artemis-{name.replace('_', '-')} must be positive")


def resolve_config(config: pytest.Config) -> ArtemisOptions:
    """Resolve the options of a pytest session (env read from ``os.environ``)."""
    return resolve(lambda dest: config.getoption(dest), lambda key: config.getini(key) or None, os.environ)


def render_markdown() -> str:
    """The configuration reference (``docs/configuration.md``), generated from :data:`OPTIONS`."""
    lines = [
        "# Configuration reference",
        "",
        "<!-- Generated by `python -m pytest_artemis.plugin --markdown`; do not edit by hand. -->",
        "",
        "Every option can be given on the command line, as an `ARTEMIS_*` environment variable, or as an",
        "ini key (`pytest.ini`, `[tool.pytest.ini_options]`). The command line wins over the environment,",
        "which wins over the ini file. The pytest report header shows each value that is set and where it",
        "came from (secrets as `***`).",
        "",
        "| option | env | ini | default | description |",
        "|---|---|---|---|---|",
    ]
    for opt in OPTIONS:
        flag = opt.flag + (f"={'|'.join(opt.choices)}" if opt.choices else "")
        if opt.metavar:
            flag += f" {opt.metavar}"
        default = "" if opt.default is None else f"`{opt.default}`"
        lines.append(f"| `{flag}` | `{opt.env}` | `{opt.ini}` | {default} | {opt.help} |")
    lines.append("")
    from .settings import render_markdown as settings_section  # it builds on these options

    lines.extend(settings_section())
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m pytest_artemis.plugin --markdown [--output FILE]``."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--markdown", action="store_true", required=True, help="print the reference")
    parser.add_argument("--output", type=Path, help="write it to this file instead of stdout")
    args = parser.parse_args(argv)
    text = render_markdown()
    if args.output:
        args.output.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0
