"""JUnit properties (appended early, updated in place) and the ``stdout [artemis]`` report section."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from pytest_artemis.contracts import CheckVerdict, RunOutcome

PROPERTY_DEFAULTS: tuple[tuple[str, str], ...] = (
    ("artemis.outcome", "NOT-RUN"),
    ("artemis.task_status", "not-run"),
    ("artemis.execution", "not-started"),
    ("artemis.checks.passed", "0"),
    ("artemis.checks.failed", "0"),
    ("artemis.checks.inconclusive", "0"),
    ("artemis.checks.unchecked", "0"),
    ("artemis.steps", "0"),
    ("artemis.tokens", "0"),
    ("artemis.cost_usd", "0"),
    ("artemis.device", ""),
    ("artemis.artifacts", ""),
    ("artemis.infra", ""),
)
"""Every testcase that uses the ``artemis`` fixture carries these (plain strings: xdist-safe)."""

props_key = pytest.StashKey[dict[str, int]]()
"""Property name → its index in ``item.user_properties`` (so updates replace, never duplicate)."""


def init_properties(item: pytest.Item, artifacts: Path) -> None:
    """Append the placeholders now, before anything can raise, so even a failed lease reports them."""
    if props_key in item.stash:
        return
    index: dict[str, int] = {}
    for name, value in PROPERTY_DEFAULTS:
        index[name] = len(item.user_properties)
        item.user_properties.append((name, value))
    item.stash[props_key] = index
    set_properties(item, {"artemis.artifacts": str(artifacts)})


def set_properties(item: pytest.Item, values: Mapping[str, str]) -> None:
    """Update properties in place, appending a name not set before (values must be plain strings)."""
    index = item.stash.get(props_key, None)
    if index is None:
        return
    for name, value in values.items():
        if name not in index:
            index[name] = len(item.user_properties)
            item.user_properties.append((name, str(value)))
        item.user_properties[index[name]] = (name, str(value))


def outcome_properties(outcome: RunOutcome) -> dict[str, str]:
    """The property values an outcome determines."""
    tally = outcome.tests
    cost = outcome.usage.cost_usd
    return {
        "artemis.task_status": outcome.task.status,
        "artemis.execution": outcome.execution,
        "artemis.checks.passed": str(tally.passed),
        "artemis.checks.failed": str(tally.failed),
        "artemis.checks.inconclusive": str(tally.inconclusive),
        "artemis.checks.unchecked": str(tally.unchecked),
        "artemis.steps": str(outcome.steps),
        "artemis.tokens": str(outcome.usage.tokens),
        "artemis.cost_usd": "unknown" if cost is None else f"{cost:.6f}",
        "artemis.device": outcome.device or "",
        "artemis.infra": f"{outcome.infra.kind}/{outcome.infra.error_class}" if outcome.infra else "",
    }


def set_report_word(item: pytest.Item, report: pytest.TestReport, word: str) -> None:
    """Record the outcome word on the item and on the report being made (which copied the list)."""
    set_properties(item, {"artemis.outcome": word})
    report.user_properties = [
        (name, word if name == "artemis.outcome" else value) for name, value in report.user_properties
    ]


def report_word_of(report: pytest.TestReport) -> str | None:
    """The ``artemis.outcome`` property of a report (also after xdist turned tuples into lists)."""
    return report_props(report).get("artemis.outcome")


def report_props(report: pytest.TestReport) -> dict[str, str]:
    """The ``artemis.*`` properties of a report, by name."""
    return {str(entry[0]): str(entry[1]) for entry in report.user_properties
            if str(entry[0]).startswith("artemis.")}


def section_text(outcome: RunOutcome, verdicts: Iterable[CheckVerdict], artifacts: Path, word: str) -> str:
    """The verdict sequence and the run summary, for ``stdout [artemis]`` (JUnit ``<system-out>``)."""
    from .progress import verdict_words

    cost = outcome.usage.cost_usd
    lines = [
        f"artemis run {outcome.run_id} on {outcome.device or '?'}: {word}",
        f"execution={outcome.execution} task={outcome.task.status} steps={outcome.steps} "
        f"tokens={outcome.usage.tokens} cost_usd={'unknown' if cost is None else f'{cost:.6f}'}",
    ]
    if outcome.stop_reason:
        lines.append(f"stop reason: {outcome.stop_reason}")
    if outcome.infra is not None:
        infra = outcome.infra
        lines.append(f"infrastructure: {infra.kind} {infra.error_class}: {infra.message}")
        if infra.traceback:
            lines.append(infra.traceback.rstrip("\n"))
    lines.append(f"artifacts: {artifacts}")
    lines.append("verdicts (in order):")
    seq = list(verdicts)
    for v in seq:
        kind = {"assert": "assert_", "goal": "goal"}.get(v.kind, "verify")
        step = f" @step {v.anchor_step}" if v.anchor_step is not None else ""
        lines.append(f"  {v.attempt_id} {v.status.upper()} {kind} {v.item_text!r} ({v.source}{step}): "
                     f"{verdict_words(v)}")
    if not seq:
        lines.append("  (none)")
    return "\n".join(lines) + "\n"


def add_section(item: pytest.Item, when: str, text: str) -> None:
    """A ``Captured stdout [artemis]`` section: shown with failures, in ``<system-out>`` with
    ``junit_logging=system-out``."""
    item.add_report_section(when, "stdout [artemis]", text)
