"""The per-run ``report.html``: rendered from the run's journal only, written next to its artifacts."""

from __future__ import annotations

from pathlib import Path

from pytest_artemis.contracts import outcome_word
from pytest_artemis.store import JournalCorrupt, RunRecord, read_run

from .markup import dl, esc, fmt_duration, fmt_time, page, section, tag, write_atomic
from .sections import (
    banner,
    events_section,
    notices,
    outcome_section,
    stop_reason,
    usage_section,
    verdicts_section,
)
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
    finished = (
        record.outcome.finished_at
        if record.outcome
        else (record.terminal.finished_at if record.terminal else None)
    )
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


def _body(record: RunRecord, word: str) -> str:
    plans = {n: text for n, text in enumerate(record.plans, start=1)}
    step_ids = {s.step for s in record.steps}
    title = tag("h1", esc(record.header.goal), id="goal")
    parts = [
        banner(word, stop_reason(record.outcome)),
        notices(record.notices),
        title,
        tag("div", _header(record) + outcome_section(record.outcome), class_="cols"),
        section(
            f"Steps ({len(record.steps)})",
            timeline(record.dir, record.steps, plans, record.verdicts),
            id_="steps",
        ),
        verdicts_section(record.verdicts, step_ids),
        usage_section(record.model_calls),
        events_section(record.events, record.header.started_at),
    ]
    return "<main>" + "".join(parts) + _footer() + "</main>"


def _footer() -> str:
    return '<footer>pytest-artemis run report · <span id="images-loaded"></span></footer>'


def _corrupt_body(error: JournalCorrupt, word: str) -> str:
    """A page for a journal that cannot be read at all: say so loudly rather than show nothing."""
    reason = "The run journal could not be read."
    return (
        "<main>"
        + banner(word, reason)
        + notices([str(error)])
        + section("Steps (0)", timeline(error.path.parent, (), {}), id_="steps")
        + _footer()
        + "</main>"
    )


def render_run_report(run_dir: Path, *, outcome_word: str | None = None) -> Path:
    """Render ``run_dir/report.html`` from the run's journal and return its path.

    ``outcome_word`` is the pytest word the plugin decided; without it the word is derived from the
    journal (:func:`pytest_artemis.report.outcome_word`). A torn journal renders with a visible notice,
    an interrupted one as INTERRUPTED, an unreadable one as a page that says so.
    """
    run_dir = Path(run_dir)
    try:
        record = read_run(run_dir)
    except JournalCorrupt as error:
        html = page("pytest-artemis run (unreadable)", _corrupt_body(error, outcome_word or "ERROR"))
        return write_atomic(run_dir / REPORT_FILE, html)
    word = outcome_word or _record_word(record)
    html = page(f"{word} · {record.header.test_id or record.header.goal}", _body(record, word))
    return write_atomic(run_dir / REPORT_FILE, html)
