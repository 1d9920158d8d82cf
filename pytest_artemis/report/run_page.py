"""The per-run ``report.html``: rendered from the run's journal only, written next to its artifacts."""

from __future__ import annotations

from pathlib import Path

from pytest_artemis.contracts import outcome_word
from pytest_artemis.store import JournalCorrupt, RunRecord, read_run

from .banner import banner
from .before_run import before_run_section
from .index_page import SESSION_JS
from .markup import dl, esc, fmt_duration, fmt_time, page, section, tag, write_atomic
from .reasons import Reason, reason
from .sections import events_section, notices, outcome_section, usage_section, verdicts_section
from .strip import strip_section
from .timeline import timeline

REPORT_FILE = "report.html"


def _record_word(record: RunRecord) -> str:
    """The word when the plugin gave none: from the outcome, else from how the journal ended."""
    if record.outcome is not None or record.execution == "interrupted":
        return outcome_word(record.outcome)
    # Closed, but outcome.json is unreadable: something went wrong, and it was certainly not a pass.
    return "ERROR"


def _checks(record: RunRecord) -> str:
    items = "".join(
        f"<li><code>{esc(c.kind)}@{esc(c.when)}</code> {esc(c.text)}"
        + (f" <span class=muted>(probe {esc(c.probe.name)})</span>" if c.probe is not None else "")
        + "</li>"
        for c in record.header.checks
    )
    return f"<ul class=checks>{items}</ul>" if items else '<span class="muted">none declared</span>'


def _header(record: RunRecord) -> str:
    h = record.header
    finished = _finished(record)
    last = finished or (record.steps[-1].finished_at if record.steps else None)
    models = ", ".join(f"{role}: {name}" for role, name in h.models.items())
    rows = [
        ("Test", tag("code", esc(h.test_id or "—"))),
        ("Run", tag("code", esc(h.run_id))),
        ("Device", esc(h.device or (record.outcome.device if record.outcome else "") or "—")),
        ("App", esc(h.app or "—")),
        ("Models", esc(models or "—")),
        ("Started", esc(fmt_time(h.started_at))),
        ("Finished", esc(fmt_time(finished)) if finished else "<b>never (no terminal record)</b>"),
        ("Duration", esc(fmt_duration(last - h.started_at if last else None))),
        ("Steps", str(len(record.steps))),
        ("Checks", _checks(record)),
    ]
    return section("Run", dl(rows), id_="run")


def _finished(record: RunRecord) -> float | None:
    if record.outcome is not None:
        return record.outcome.finished_at
    return record.terminal.finished_at if record.terminal else None


def _nav(run_dir: Path, root: Path | None) -> tuple[str, str]:
    """The bar linking to the session index and the previous/next test, and the script it needs.

    The previous/next links are filled from the index's ``artemis-session.js`` (written at session end).
    """
    if root is None:
        return "", ""
    try:
        rel = run_dir.resolve().relative_to(root.resolve())
    except ValueError:
        return "", ""
    up = "/".join([".."] * len(rel.parts)) or "."
    links = (
        tag("a", "← all tests", href=f"{up}/index.html", id="to-index")
        + tag("a", "", id="prev-test", class_="hidden", rel="prev")
        + tag("a", "", id="next-test", class_="hidden", rel="next")
        + tag(
            "span",
            "keys: j/k next/previous step · Enter/click enlarge · Esc close · l labels",
            class_="muted",
        )
    )
    nav = tag("nav", links, class_="runnav", data_run=rel.as_posix(), data_up=up)
    return nav, f'<script src="{esc(up)}/{SESSION_JS}"></script>'


def _body(record: RunRecord, word: str, nav: str) -> str:
    plans = {n: text for n, text in enumerate(record.plans, start=1)}
    step_ids = {s.step for s in record.steps}
    why: Reason = reason(record, word)
    title = tag("h1", esc(record.header.goal), id="goal")
    parts = [
        nav,
        banner(word, why, record.verdicts, step_ids, record.header.checks),
        notices(record.notices),
        title,
        tag("div", _header(record) + outcome_section(record.outcome, why), class_="cols"),
        before_run_section(record.events),
        strip_section(record.steps, record.verdicts, record.header.started_at, _finished(record)),
        section(
            f"Steps ({len(record.steps)})",
            '<label class="toggle"><input type="checkbox" id="labels-toggle" checked> '
            "labels on screenshots</label>" + timeline(record.dir, record.steps, plans, record.verdicts),
            id_="steps",
        ),
        verdicts_section(record.verdicts, record.steps, record.dir, record.header.checks, why),
        usage_section(record.model_calls),
        events_section(record.events, record.header.started_at),
    ]
    return "<main>" + "".join(parts) + _footer() + "</main>"


def _footer() -> str:
    return '<footer>pytest-artemis run report · <span id="images-loaded"></span></footer>'


def _corrupt_body(error: JournalCorrupt, word: str) -> str:
    """A page for a journal that cannot be read at all: say so loudly rather than show nothing."""
    why = Reason("the run journal could not be read")
    return (
        "<main>"
        + banner(word, why)
        + notices([str(error)])
        + section("Steps (0)", timeline(error.path.parent, (), {}), id_="steps")
        + _footer()
        + "</main>"
    )


def render_run_report(run_dir: Path, *, outcome_word: str | None = None, root: Path | None = None) -> Path:
    """Render ``run_dir/report.html`` from the run's journal and return its path.

    ``outcome_word`` is the pytest word the plugin decided; without it the word is derived from the
    journal (:func:`pytest_artemis.report.outcome_word`). A torn journal renders with a visible notice,
    an interrupted one as INTERRUPTED, an unreadable one as a page that says so. With the session's
    artifacts ``root``, the page links to the session index and to the previous and next test.
    """
    run_dir = Path(run_dir)
    try:
        record = read_run(run_dir)
    except JournalCorrupt as error:
        html = page("pytest-artemis run (unreadable)", _corrupt_body(error, outcome_word or "ERROR"))
        return write_atomic(run_dir / REPORT_FILE, html)
    word = outcome_word or _record_word(record)
    nav, script = _nav(run_dir, root)
    html = page(f"{word} · {record.header.test_id or record.header.goal}", _body(record, word, nav), script)
    return write_atomic(run_dir / REPORT_FILE, html)
