"""A session ``index.html``: a dashboard with one row per test, over one session or several.

Each row shows the outcome word, the reason's first line, duration, steps, tokens, cost and device; the
page filters by outcome, sorts by any column and searches by name (inline script, no network). Totals:
counts per outcome, tokens, cost and the slowest tests. Over several sessions the page also lists the
sessions (runner, start, duration, counts, a link to each one's own index) and each row names its session.
``artemis-session.js`` next to the artifacts root's index lists the runs in order, so each run page can
link to the previous and next test.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from pytest_artemis.contracts import OUTCOME_WORDS

from .markup import esc, fmt_cost, fmt_duration, fmt_time, page, section, tag, word_class, write_atomic
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
_SESSION_COLUMN = ("session", "Session", "text")


@dataclass(frozen=True)
class SessionLine:
    """One session in an index over several: who ran it, when, and where its own index is."""

    name: str
    runner: str
    started_at: float
    finished_at: float
    href: str | None
    """Its own ``index.html`` relative to the page listing it (None: no page to link)."""


def _report_href(run_dir: str) -> str | None:
    """Link to a run's report; an absolute ``run_dir`` means the row has none (see ``IndexEntry``)."""
    rel = PurePosixPath(run_dir.replace("\\", "/"))
    if not rel.parts or rel.is_absolute() or ":" in rel.parts[0]:  # "C:/…": absolute on Windows
        return None
    return str(rel / "report.html")


def _cell(key: str, body: str, value: object, numeric: bool = False) -> str:
    return tag("td", body, class_=f"c-{key}" + (" num" if numeric else ""), data_v=str(value))


def _row(entry: IndexEntry, sessions: bool) -> str:
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
        + (_cell("session", esc(entry.session or "—"), entry.session) if sessions else "")
    )
    name = f"{entry.nodeid} {entry.session}" if sessions else entry.nodeid  # the search box finds both
    return tag("tr", cells, data_outcome=entry.outcome, data_name=name.lower())


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


def _sessions(lines: Sequence[SessionLine], entries: Sequence[IndexEntry]) -> str:
    """The table of sessions: each with its runner, start, duration and counts per outcome."""
    rows = []
    for line in lines:
        mine = [e for e in entries if e.session == line.name]
        counts = Counter(e.outcome for e in mine)
        badges = " ".join(tag("span", esc(f"{counts[w]} {w}"), class_=f"badge {word_class(w)}")
                          for w in _words(mine))
        name = tag("a", esc(line.name), href=line.href) if line.href else esc(line.name)
        cells = (tag("td", name) + tag("td", esc(line.runner)) + tag("td", esc(fmt_time(line.started_at)))
                 + tag("td", esc(fmt_duration(line.finished_at - line.started_at)), class_="num")
                 + tag("td", str(sum(counts.values())), class_="num") + tag("td", badges or "—"))
        rows.append(tag("tr", cells, data_session=line.name))
    head = "".join(tag("th", label) for label in ("Session", "Runner", "Started", "Duration", "Tests",
                                                  "Outcomes"))
    return tag("table", f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody>", class_="index",
               id="sessions-table")


def _table(entries: Sequence[IndexEntry], sessions: bool) -> str:
    columns = (*_COLUMNS, _SESSION_COLUMN) if sessions else _COLUMNS
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
        for key, label, kind in columns
    )
    rows = "".join(_row(e, sessions) for e in entries)
    what = "test or session name" if sessions else "test name"
    search = f'<input id="search" type="search" placeholder="filter by {what}…" aria-label="search by name">'

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


def render_index(
    root: Path, entries: Sequence[IndexEntry], *, sessions: Sequence[SessionLine] = (), heading: str = "",
    session_js: bool = True,
) -> Path:
    """Write ``root/index.html`` listing every test; returns the index path.

    Entries are listed in the order given, which is also the previous/next order of the run pages
    (``artemis-session.js``, written unless ``session_js`` is False: only the artifacts root's index
    serves the run pages). When the entries come from more than one session (or some from none), the page
    lists the ``sessions`` and names each test's. ``heading`` is a line under the title (the session's
    runner and start).
    """
    root.mkdir(parents=True, exist_ok=True)
    several = len(sessions) > 1 or len({e.session for e in entries}) > 1  # runs no session listed, too
    title = f"pytest-artemis: {len(sessions)} sessions" if len(sessions) > 1 else "pytest-artemis session"
    body = (
        f"<main><h1>{esc(title)}</h1>"
        + (tag("p", esc(heading), class_="muted", id="heading") if heading else "")
        + section("Summary", _summary(entries), id_="summary")
        + (section("Sessions", _sessions(sessions, entries), id_="sessions") if several else "")
        + section("Tests", _table(entries, several), id_="tests")
        + "</main>"
    )
    if session_js:
        write_atomic(root / SESSION_JS, _session_js(entries))
    return write_atomic(root / "index.html", page(title, body))
