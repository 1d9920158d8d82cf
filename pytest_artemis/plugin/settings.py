"""Per-test run settings: session options, then the ``artemis_settings`` fixture, then the marker."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Literal

import pytest
from pydantic import ConfigDict, Field, ValidationError

from pytest_artemis.contracts import UsageError
from pytest_artemis.contracts._base import Contract

from .options import ArtemisOptions

if TYPE_CHECKING:
    from _pytest.mark.structures import Mark

    from pytest_artemis.contracts import ModelTimeouts, Role
    from pytest_artemis.engine.config import RunConfig


class RunSettings(Contract):
    """How the runs of one test are driven, checked and reported.

    Built from the session's ``--artemis-*`` options, overridable for a directory or module by the
    ``artemis_settings`` fixture and for one test by ``@pytest.mark.artemis(...)`` (same field names).
    """

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)

    max_steps: int = Field(default=30, ge=1)
    """Step budget of a run (a `goal(max_steps=…)` marker still wins for its goal)."""
    midway_checks: bool = True
    """Check subgoals while the agent works; off: everything is judged by the final check."""
    final_check: bool = True
    """Judge the original goal (and unjudged items) at exit."""
    assert_policy: Literal["continue", "halt"] = "continue"
    """On a failed `assert_` item: record it and go on, or stop the run."""
    unchecked: Literal["xfail", "skip", "fail"] = "xfail"
    """Outcome when items stay unchecked/inconclusive and none failed."""
    check_timeout: float = Field(default=180.0, gt=0)
    """Seconds one check may take before it is inconclusive."""
    settle_timeout: float = Field(default=120.0, gt=0)
    """Seconds the exit barrier waits for running checks."""
    time_budget: float | None = Field(default=None, gt=0)
    """Wall-clock seconds per run (None: no budget beyond pytest-timeout's)."""
    model_timeout: float = Field(default=45.0, gt=0)
    """Seconds one model call may take, its retries included, in every role."""
    planner_model_timeout: float | None = Field(default=None, gt=0)
    """Seconds one planner call may take (None: `model_timeout`)."""
    operator_model_timeout: float | None = Field(default=None, gt=0)
    """Seconds one operator call may take (None: `model_timeout`)."""
    checker_model_timeout: float | None = Field(default=None, gt=0)
    """Seconds one checker call may take (None: `model_timeout`)."""
    model_attempt_timeout: float | None = Field(default=None, gt=0)
    """Seconds one HTTP request to the model may take (None: the call's timeout less 5 s, at least half)."""
    checkpoint_max_repairs: int = Field(default=2, ge=0)
    """Send-backs per failed `verify` checkpoint."""
    final_check_max_attempts: int = Field(default=3, ge=1)
    """Final-check rounds while `verify` items are unmet at exit."""
    check_concurrency: int = Field(default=3, ge=1)
    """Checks that may run at the same time."""
    same_finding_limit: int = Field(default=3, ge=1)
    """Stop after the same finding comes back this many times."""
    no_effect_limit: int = Field(default=4, ge=1)
    """Stop after this many turns in a row that change nothing on screen."""
    history_window: int = Field(default=5, ge=0)
    """Recent steps summarized in the operator's context."""
    image_max_side: int = Field(default=1280, ge=64)
    """Longest side of screenshots sent to models."""
    checker_probes: bool = True
    """Give the checker the read-only `probe_device` tool."""
    checker_max_iterations: int = Field(default=3, ge=1)
    """Checker rounds per judgement."""
    reset: Literal["none", "app", "full"] = "none"
    """Device state before each test: keep it, reset the goal's app, or the whole device."""
    isolation: bool = True
    """Start each test on the home screen, the apps earlier tests brought to the front force-stopped."""
    replay: Literal["off", "auto", "only", "record"] = "off"
    """Replay recorded operator decisions while the screen matches the recording."""

    @classmethod
    def from_options(cls, options: ArtemisOptions) -> RunSettings:
        """The session-wide settings the ``--artemis-*`` options (env, ini) give."""
        values = {name: getattr(options, name) for name in cls.model_fields if name not in _NEGATED}
        values.update({name: not getattr(options, flag) for name, flag in _NEGATED.items()})
        return cls(**values)

    def replace(self, **changes: object) -> RunSettings:
        """A copy with ``changes`` applied and validated (a UsageError names a bad field)."""
        return layer(self, changes, "RunSettings.replace()")

    def run_config(self, deadline: float | None) -> RunConfig:
        """The engine's RunConfig for one run (``deadline``: the cooperative time budget, epoch seconds)."""
        from pytest_artemis.engine.config import RunConfig

        return RunConfig(
            max_steps=self.max_steps, midway_checks=self.midway_checks, final_check=self.final_check,
            assert_policy=self.assert_policy, check_timeout_s=self.check_timeout,
            settle_timeout_s=self.settle_timeout, checkpoint_max_repairs=self.checkpoint_max_repairs,
            final_check_max_attempts=self.final_check_max_attempts, check_concurrency=self.check_concurrency,
            same_finding_limit=self.same_finding_limit, no_effect_limit=self.no_effect_limit,
            history_window=self.history_window, image_max_side=self.image_max_side,
            checker_probes=self.checker_probes, checker_max_iterations=self.checker_max_iterations,
            model_timeouts=self.model_timeouts(), deadline=deadline,
        )

    def model_timeouts(self) -> ModelTimeouts:
        """The model-call timeouts of the run, per role."""
        from pytest_artemis.contracts.models import ModelTimeouts

        own: dict[Role, float | None] = {
            "planner": self.planner_model_timeout, "operator": self.operator_model_timeout,
            "checker": self.checker_model_timeout,
        }
        return ModelTimeouts(call_s=self.model_timeout, attempt_s=self.model_attempt_timeout,
                             roles={role: s for role, s in own.items() if s is not None})


_NEGATED = {"midway_checks": "no_midway_checks", "final_check": "no_final_check",
            "checker_probes": "no_checker_probes", "isolation": "no_isolation"}
"""Settings whose session option is a ``--artemis-no-…`` flag."""

SETTING_NAMES: tuple[str, ...] = tuple(RunSettings.model_fields)


def layer(base: RunSettings, changes: Mapping[str, object], where: str) -> RunSettings:
    """``base`` with ``changes`` applied; unknown names and bad values are a UsageError naming ``where``."""
    unknown = sorted(set(changes) - set(SETTING_NAMES))
    if unknown:
        raise UsageError(f"{where}: unknown setting{'s' if len(unknown) > 1 else ''} {', '.join(unknown)} "
                         f"(known: {', '.join(SETTING_NAMES)})")
    try:
        return RunSettings.model_validate({**base.model_dump(), **changes})
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}={e['input']!r}: {e['msg']}"
                             for e in exc.errors())
        raise UsageError(f"{where}: {problems}") from None


def marker_changes(marks: Sequence[Mark]) -> dict[str, object]:
    """The settings the ``artemis`` marks set, outer scopes first so the test's own marker wins.

    Positional arguments are refused: every setting is named.
    """
    changes: dict[str, object] = {}
    for mark in marks:
        if mark.args:
            raise UsageError(f"artemis marker: settings are keyword arguments, got positional {mark.args!r}")
        changes.update(mark.kwargs)
    return changes


def item_settings(base: object, marks: Sequence[Mark]) -> RunSettings:
    """The settings of one test: the ``artemis_settings`` fixture's value with the test's ``artemis``
    marks on top."""
    if not isinstance(base, RunSettings):
        raise UsageError(f"the artemis_settings fixture must return RunSettings (e.g. "
                         f"artemis_settings.replace(...)), got {type(base).__name__}")
    return layer(base, marker_changes(marks), "@pytest.mark.artemis")


def session_settings(options: ArtemisOptions) -> RunSettings:
    """The session-wide settings, or a pytest usage error when the options do not make valid ones."""
    try:
        return RunSettings.from_options(options)
    except ValidationError as exc:
        raise pytest.UsageError(f"artemis options: {exc}") from None


def settings_marks(item: pytest.Item) -> list[Mark]:
    """The item's ``artemis`` marks, outer scopes (module, class) first, the test's own last."""
    marks: list[Mark] = []
    for node in item.listchain():
        own = [m for m in node.own_markers if m.name == "artemis"]
        marks.extend(reversed(own) if node is item else own)
    return marks




def render_markdown() -> list[str]:
    """The per-test settings section of the configuration reference."""
    lines = [
        "## Per-test settings",
        "",
        "The run settings below can also be set for the tests of a directory or module by overriding the",
        "`artemis_settings` fixture, and for one test by the `artemis` marker (same names). The test's",
        "marker wins over the fixture, which starts from the session's options:",
        "",
        "```python",
        "# test_quick.py",
        "import pytest",
        "",
        "",
        "@pytest.fixture",
        "def artemis_settings(artemis_settings):          # conftest.py or a test module",
        "    return artemis_settings.replace(max_steps=8)",
        "",
        "",
        "@pytest.mark.artemis(final_check=False, unchecked=\"fail\")",
        "def test_quick(artemis):",
        "    assert artemis.settings.max_steps == 8 and artemis.settings.unchecked == \"fail\"",
        "```",
        "",
        "A marker with an unknown name or a bad value is a collection error naming the test. A",
        "`goal(max_steps=…)` marker still sets the step budget of its own goal.",
        "",
        "| setting | session option | default | description |",
        "|---|---|---|---|",
    ]
    for name, info in RunSettings.model_fields.items():
        flag = "--artemis-" + _NEGATED.get(name, name).replace("_", "-")
        default = f"`{info.default}`" if info.default is not None else ""
        description = " ".join((info.description or "").split())
        lines.append(f"| `{name}` | `{flag}` | {default} | {description} |")
    lines.append("")
    return lines
