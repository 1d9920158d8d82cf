"""The session ``index.html`` at the artifacts root: a dashboard with one row per test.

Each row shows the outcome word, the reason's first line, duration, steps, tokens, cost and device; the
page filters by outcome, sorts by any column and searches by name (inline script, no network). Totals:
counts per outcome, tokens, cost and the slowest tests. ``artemis-session.js`` next to it lists the runs
in order, so each run page can link to the previous and next test.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path, PurePosixPath

from pytest_artemis.contracts import OUTCOME_WORDS

from .markup import esc, fmt_cost, fmt_duration, page, section, tag, word_class, write_atomic
from .words import IndexEntry

SESSION_JS = "artemis-session.js"
_COLUMNS = (
    ("outcome", "Outcome", "text"),
    ("test", "Test", "text"),
    ("reason", "Reason", "text"),
    ("duration", "Duration", "num"),
    ("steps", "Steps", "num"),
    ("tokens", "Tokens", "num"),
    ("cost", "Cost", "num"),
    ("device", "Device", "text"),
)


def _report_href(run_dir: str) -> str | None:
    """Link to a run's report, only for paths inside the root (entries may come from a crashed worker)."""
    rel = PurePosixPath(run_dir.replace("\\", "/"))
    if rel.is_absolute() or ".." in rel.parts:
        return None
    return str(rel / "report.html")


def _cell(key: str, body: str, value: object, numeric: bool = False) -> str:
    return tag("td", body, class_=f"c-{key}" + (" num" if numeric else ""), data_v=str(value))


def _row(entry: IndexEntry) -> str:
    href = _report_href(entry.run_dir)
    name = tag("a", esc(entry.nodeid), href=href) if href else esc(entry.nodeid)
    word = tag("span", esc(entry.outcome), class_=f"badge {word_class(entry.outcome)}")
    duration = entry.duration_s if entry.duration_s is not None else -1
    cost = entry.cost_usd if entry.cost_usd is not None else -1
    cells = (
        _cell("outcome", word, OUTCOME_WORDS.index(entry.outcome) if entry.outcome in OUTCOME_WORDS else 99)
        + _cell("test", name, entry.nodeid)
        + _cell("reason", esc(entry.reason or "—"), entry.reason)
        + _cell("duration", esc(fmt_duration(entry.duration_s)), f"{duration:.3f}", True)
        + _cell("steps", str(entry.steps), entry.steps, True)
        + _cell("tokens", f"{entry.tokens:,}", entry.tokens, True)
        + _cell("cost", fmt_cost(entry.cost_usd), f"{cost:.6f}", True)
        + _cell("device", esc(entry.device or "—"), entry.device)
    )
    return tag("tr", cells, data_outcome=entry.outcome, data_name=entry.nodeid.lower())


def _words(entries: Sequence[IndexEntry]) -> list[str]:
    counts = Counter(e.outcome for e in entries)
    return [w for w in OUTCOME_WORDS if w in counts] + sorted(w for w in counts if w not in OUTCOME_WORDS)


def _summary(entries: Sequence[IndexEntry]) -> str:
    counts = Counter(e.outcome for e in entries)
    chips = "".join(
        tag(
            "button",
            esc(f"{counts[w]} {w}"),
            type="button",
            class_=f"badge filter {word_class(w)}",
            data_outcome=w,
            aria_pressed="false",
            title=f"show only {w} tests (click again to show all)",
        )
        for w in _words(entries)
    )
    costs = [e.cost_usd for e in entries]
    total = None if any(c is None for c in costs) else sum(c for c in costs if c is not None)
    tokens = sum(e.tokens for e in entries)
    wall = sum(e.duration_s or 0.0 for e in entries)
    numbers = (
        f"{len(entries)} tests · {sum(e.steps for e in entries):,} steps · {tokens:,} model tokens · "
        f"cost {fmt_cost(total)} · {fmt_duration(wall)} of runs"
    )
    slow = sorted((e for e in entries if e.duration_s is not None), key=lambda e: -(e.duration_s or 0.0))[:5]
    slowest = "".join(
        tag(
            "li",
            tag("a", esc(e.nodeid), href=_report_href(e.run_dir))
            + " "
            + tag("span", esc(fmt_duration(e.duration_s)), class_="muted"),
        )
        for e in slow
    )
    return (
        tag("div", chips or "no tests", class_="chips", id="chips")
        + tag("p", esc(numbers), class_="muted", id="totals")
        + (tag("details", tag("summary", "slowest tests") + tag("ol", slowest), id="slowest") if slow else "")
    )


def _table(entries: Sequence[IndexEntry]) -> str:
    head = "".join(
        tag(
            "th",
            esc(label),
            class_="num" if kind == "num" else None,
            data_sort=key,
            data_kind=kind,
            tabindex="0",
            title=f"sort by {label.lower()}",
        )
        for key, label, kind in _COLUMNS
    )
    rows = "".join(_row(e) for e in entries)
    search = (
        '<input id="search" type="search" placeholder="filter by test name…" aria-label="search by name">'
    )
    shown = tag("span", f"{len(entries)} of {len(entries)} shown", id="shown", class_="muted")
    table = tag(
        "table",
        f"<thead><tr>{head}</tr></thead><tbody>{rows}</tbody>",
        class_="index",
        id="tests-table",
        data_tests=str(len(entries)),
    )
    return tag("div", search + " " + shown, class_="tools") + table


def _session_js(entries: Sequence[IndexEntry]) -> str:
    runs = [
        {"dir": e.run_dir, "nodeid": e.nodeid, "outcome": e.outcome}
        for e in entries
        if _report_href(e.run_dir) is not None
    ]
    return "window.artemisSession = " + json.dumps({"runs": runs}, ensure_ascii=False) + ";\n"


def render_index(root: Path, entries: Sequence[IndexEntry]) -> Path:
    """Write ``root/index.html`` (and ``artemis-session.js``) listing every test; returns the index path.

    Entries are listed in the order given, which is also the previous/next order of the run pages.
    """
    root.mkdir(parents=True, exist_ok=True)
    body = (
        "<main><h1>pytest-artemis session</h1>"
        + section("Summary", _summary(entries), id_="summary")
        + section("Tests", _table(entries), id_="tests")
        + "</main>"
    )
    write_atomic(root / SESSION_JS, _session_js(entries))
    return write_atomic(root / "index.html", page("pytest-artemis session", body))
