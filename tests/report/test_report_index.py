"""The outcome word mapping and the session index page."""

from __future__ import annotations

from pathlib import Path

import pytest
from report_fixtures import T0, build_run, parse

from pytest_artemis.contracts import InfraFailure, ItemSummary, RunOutcome, TaskResult, TestTally
from pytest_artemis.report import IndexEntry, outcome_word, render_index, render_run_report
from pytest_artemis.store import read_run


def _outcome(
    task: str = "completed",
    execution: str = "finished",
    infra: bool = False,
    items: tuple[tuple[str, str], ...] = (),
) -> RunOutcome:
    summaries = tuple(
        ItemSummary(text=f"item {n}", kind=kind, when="complete", status=status)
        for n, (kind, status) in enumerate(items)
    )
    counts = {
        s: sum(1 for _, st in items if st == s) for s in ("passed", "failed", "inconclusive", "unchecked")
    }
    return RunOutcome(
        run_id="r",
        execution=execution,
        task=TaskResult(status=task),
        tests=TestTally(items=summaries, **counts),
        infra=InfraFailure(kind="device", error_class="DeviceUnavailable", message="gone") if infra else None,
        started_at=T0,
        finished_at=T0 + 1,
    )


@pytest.mark.parametrize(
    ("outcome", "word"),
    [
        (None, "INTERRUPTED"),
        (_outcome(execution="interrupted"), "INTERRUPTED"),
        (_outcome(items=(("verify", "passed"), ("assert", "passed"))), "PASSED"),
        (_outcome(items=(("assert", "failed"),)), "FAILED"),
        (_outcome(task="blocked", infra=True, execution="crashed", items=(("assert", "failed"),)), "FAILED"),
        (_outcome(execution="crashed", infra=True), "ERROR"),
        (_outcome(task="blocked", items=(("verify", "failed"),)), "BLOCKED"),
        (_outcome(task="partial"), "BLOCKED"),
        (_outcome(items=(("verify", "failed"), ("assert", "passed"))), "BLOCKED"),
        (_outcome(items=(("assert", "passed"), ("assert", "inconclusive"))), "UNCHECKED"),
        (_outcome(items=(("verify", "unchecked"),)), "UNCHECKED"),
    ],
)
def test_outcome_word(outcome: RunOutcome | None, word: str) -> None:
    assert outcome_word(outcome) == word


def test_index_lists_every_test_with_word_device_steps_tokens_and_cost(tmp_path: Path) -> None:
    root = tmp_path / "artifacts"
    closed, interrupted = build_run(root, "run-a"), build_run(root, "run-b", close=False)
    for run in (closed, interrupted):
        render_run_report(run)
    entries = [
        IndexEntry.from_outcome("tests/test_clock.py::test_alarm", "run-a", read_run(closed).outcome),
        IndexEntry.from_outcome("tests/test_clock.py::test_<b>odd</b>", "run-b", None),
        IndexEntry(
            nodeid="tests/test_x.py::test_priced",
            outcome="PASSED",
            device="emulator-5556",
            steps=3,
            tokens=1200,
            cost_usd=0.0125,
            run_dir="../outside",
        ),
    ]
    path = render_index(root, entries)
    assert path == root / "index.html"
    page = parse(path)
    rows = page.all("tr")[1:]
    assert [r["data-outcome"] for r in rows] == ["UNCHECKED", "INTERRUPTED", "PASSED"]
    links = [a["href"] for a in page.all("a")]
    assert links == ["run-a/report.html", "run-b/report.html"]  # a path outside the root is not linked
    assert all((root / link).is_file() for link in links)
    assert "tests/test_clock.py::test_<b>odd</b>" in page.text and not page.all("b")
    assert "emulator-5554" in page.text and "19,200" in page.text and "$0.0125" in page.text
    assert page.text.count("unknown") >= 2  # run-a's checker price is unknown, and so is the session total
    assert "1 UNCHECKED" in page.text and "1 INTERRUPTED" in page.text and "1 PASSED" in page.text


def test_entry_cost_is_unknown_not_zero_when_any_price_is_missing(alarm_run: Path) -> None:
    outcome = read_run(alarm_run).outcome
    entry = IndexEntry.from_outcome("t", "x", outcome, word="FAILED")
    assert (
        entry.outcome == "FAILED" and entry.cost_usd is None and entry.tokens == 19_200 and entry.steps == 5
    )
