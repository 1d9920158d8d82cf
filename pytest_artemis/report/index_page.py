"""The session ``index.html`` at the artifacts root: one line per test, linking to its report."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path, PurePosixPath

from pytest_artemis.contracts import OUTCOME_WORDS

from .markup import esc, fmt_cost, page, section, tag, word_class, write_atomic
from .words import IndexEntry


def _report_href(run_dir: str) -> str | None:
    """Link to a run's report, only for paths inside the root (entries may come from a crashed worker)."""
    rel = PurePosixPath(run_dir.replace("\\", "/"))
    if rel.is_absolute() or ".." in rel.parts:
        return None
    return str(rel / "report.html")


def _row(entry: IndexEntry) -> str:
    href = _report_href(entry.run_dir)
    name = tag("a", esc(entry.nodeid), href=href) if href else esc(entry.nodeid)
    word = tag("span", esc(entry.outcome), class_=f"badge {word_class(entry.outcome)}")
    cells = (
        tag("td", word)
        + tag("td", name)
        + tag("td", esc(entry.device or "—"))
        + tag("td", str(entry.steps), class_="num")
        + tag("td", f"{entry.tokens:,}", class_="num")
        + tag("td", fmt_cost(entry.cost_usd), class_="num")
    )
    return tag("tr", cells, data_outcome=entry.outcome)


def _summary(entries: Sequence[IndexEntry]) -> str:
    counts = Counter(e.outcome for e in entries)
    order = [w for w in OUTCOME_WORDS if w in counts] + sorted(w for w in counts if w not in OUTCOME_WORDS)
    chips = " ".join(tag("span", esc(f"{counts[w]} {w}"), class_=f"badge {word_class(w)}") for w in order)
    costs = [e.cost_usd for e in entries]
    total = None if any(c is None for c in costs) else sum(c for c in costs if c is not None)
    tokens = sum(e.tokens for e in entries)
    return (
        f"<p>{chips or 'no tests'}</p><p class=muted>{len(entries)} tests · "
        f"{tokens:,} model tokens · cost {fmt_cost(total)}</p>"
    )


def render_index(root: Path, entries: Sequence[IndexEntry]) -> Path:
    """Write ``root/index.html`` listing every test with its outcome word, device, steps, tokens, cost.

    Returns the path written. Entries are listed in the order given.
    """
    root.mkdir(parents=True, exist_ok=True)
    head = (
        "<tr><th>Outcome</th><th>Test</th><th>Device</th><th class=num>Steps</th>"
        "<th class=num>Tokens</th><th class=num>Cost</th></tr>"
    )
    rows = "".join(_row(e) for e in entries)
    table = (
        f'<table class="index" data-tests="{len(entries)}"><thead>{head}</thead><tbody>{rows}</tbody></table>'
    )
    body = (
        "<main><h1>pytest-artemis session</h1>"
        + section("Summary", _summary(entries), id_="summary")
        + section("Tests", table, id_="tests")
        + "</main>"
    )
    return write_atomic(root / "index.html", page("pytest-artemis session", body))
