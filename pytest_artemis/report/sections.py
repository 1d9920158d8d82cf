"""Report sections built from journal records: outcome, verdict ledger, model usage, events."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from pydantic import JsonValue

from pytest_artemis.contracts import (
    ROLES,
    CheckItem,
    CheckVerdict,
    Citation,
    ModelCallRecord,
    ProbeCheck,
    RunOutcome,
    StepRecord,
    Usage,
)
from pytest_artemis.store import Event

from .banner import evidence_block, probes_by_item
from .markup import dl, esc, fmt_cost, fmt_duration, section, tag
from .reasons import Reason, verdict_step
from .timeline import Drawing, cite_marks, figure


def notices(messages: Sequence[str]) -> str:
    """Visible warnings about the journal itself (torn last line, missing terminal record...)."""
    return "".join(tag("div", "⚠ " + esc(m), class_="notice", role="alert") for m in messages)


def outcome_section(outcome: RunOutcome | None, why: Reason) -> str:
    """Task status, unmet criteria, test tally and infra failure."""
    if outcome is None:
        return section(
            "Outcome", '<p class="muted">No outcome was recorded (interrupted run).</p>', id_="outcome"
        )
    tally = outcome.tests
    rows = [
        ("Execution", esc(outcome.execution)),
        ("Task", _task(outcome, why)),
        (
            "Checks",
            esc(
                f"{tally.passed} passed, {tally.failed} failed, {tally.inconclusive} inconclusive, "
                f"{tally.unchecked} unchecked"
            ),
        ),
        ("Stop reason", esc(why.once(outcome.stop_reason) or "—")),
    ]
    if outcome.infra is not None and outcome.infra.traceback:
        rows.append(("Traceback", tag("pre", esc(why.once(outcome.infra.traceback)), class_="traceback")))
    return section("Outcome", dl(rows), id_="outcome")


def _task(outcome: RunOutcome, why: Reason) -> str:
    """The task's status; a run that crashed never got to judge it, so its page says so (not "blocked")."""
    reason = outcome.task.reason if outcome.task.reason != outcome.stop_reason else ""
    if outcome.execution != "finished":
        return esc(f"not judged — the run {outcome.execution} before the task could be judged") + (
            f" ({esc(why.once(reason))})" if reason else "")
    return esc(outcome.task.status) + (f" — {esc(why.once(reason))}" if reason else "")


def _anchor(step: int | None, step_ids: set[int]) -> str:
    if step is None:
        return "—"
    return f'<a href="#step-{step}">step {step}</a>' if step in step_ids else esc(f"step {step}")


def _evidence(n: int, v: CheckVerdict, first_seen: dict[str, int], probes: Mapping[str, ProbeCheck]) -> str:
    """The evidence of row ``n``, or a link to the earlier row with the same text (shown once per page)."""
    if v.evidence and v.evidence in first_seen:
        earlier = first_seen[v.evidence]
        where = (
            f'<a href="#verdict-{earlier}">#{earlier}</a>' if earlier else '<a href="#banner">the banner</a>'
        )
        body = f'<span class="muted">same evidence as {where}</span>'
        return body + evidence_block(v, "", {})
    if v.evidence:
        first_seen[v.evidence] = n
    body = evidence_block(v, v.evidence, probes)
    return body or '<span class="muted">no evidence</span>'


def _verdict_row(n: int, v: CheckVerdict, page: _Ledger, first_seen: dict[str, int]) -> str:
    step_ids, probes, run_dir, on_steps = page.step_ids, page.probes, page.run_dir, page.on_steps
    extra = ""
    if v.suggestion:
        extra += f"<div><b>suggestion:</b> {esc(v.suggestion)}</div>"
    if v.reason:
        extra += f'<div class="muted">reason: {esc(v.reason)}</div>'
    if v.vacuous:
        extra += '<div class="muted">vacuous (nothing to check)</div>'
    source = v.source + (" · visual" if any(c.visual for c in v.citations) else "")
    # Screens no step row shows (the final screen, a step without its screenshot): drawn here, each once.
    off_steps: dict[str, list[tuple[Citation, str, str]]] = {}
    for mark in cite_marks(v):
        c = mark[0]
        if c.screenshot and (c.step is None or c.screenshot not in on_steps):
            off_steps.setdefault(c.screenshot, []).append(mark)
    shot = "".join(figure(run_dir, sha, f"{marks[0][0].screen} screen, cited", Drawing(cited=tuple(marks)))
                   for sha, marks in off_steps.items())
    cells = [
        tag("td", str(n), class_="num"),
        tag("td", esc(v.item_text), class_="item"),
        tag("td", esc(f"{v.kind}@{v.when}")),
        tag("td", tag("span", esc(v.status), class_=f"badge s-{v.status}")),
        tag("td", esc(source)),
        tag("td", tag("code", esc(v.attempt_id))),
        tag("td", _anchor(verdict_step(v), step_ids)),
        tag("td", _evidence(n, v, first_seen, probes) + extra + shot),
    ]
    return tag("tr", "".join(cells), class_=f"verdict {v.status}", id=f"verdict-{n}", data_status=v.status)


@dataclass(frozen=True)
class _Ledger:
    step_ids: set[int]
    probes: Mapping[str, ProbeCheck]
    run_dir: Path
    on_steps: set[str]
    """Screenshots shown in the step rows (a citation resolved on one is drawn there)."""


def verdicts_section(
    verdicts: Sequence[CheckVerdict],
    steps: Sequence[StepRecord],
    run_dir: Path,
    checks: Sequence[CheckItem] = (),
    shown: Reason | None = None,
) -> str:
    """Every verdict in ledger order, superseded attempts included (struck through, not hidden).

    Evidence repeated by later attempts (a probe read the same way again) is shown once and linked.
    """
    if not verdicts:
        return section("Verdicts", '<p class="muted">No verdicts were recorded.</p>', id_="verdicts")
    head = "".join(
        f"<th>{h}</th>" for h in ("#", "Check", "Kind", "Status", "Source", "Attempt", "Rests on", "Evidence")
    )
    seen: dict[str, int] = {g.detail: 0 for g in shown.grounds if g.detail} if shown is not None else {}
    refs = {r for s in steps for r in (s.pre_screen, s.post_screen) if r}
    ledger = _Ledger({s.step for s in steps}, probes_by_item(checks), run_dir, refs)
    rows = "".join(_verdict_row(n, v, ledger, seen) for n, v in enumerate(verdicts, start=1))
    table = f'<table class="verdicts"><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>'
    return section(f"Verdicts ({len(verdicts)}, ledger order)", table, id_="verdicts")


def usage_section(calls: Sequence[ModelCallRecord]) -> str:
    """Calls, tokens and cost per role, folded from the call log (an unknown price stays unknown)."""
    usage = Usage()
    for call in calls:
        usage = usage.add(call)
    head = (
        "<tr><th>Role</th><th>Models</th><th class=num>Calls</th><th class=num>Failed</th>"
        "<th class=num>Prompt tokens</th><th class=num>Completion tokens</th><th class=num>Cost</th></tr>"
    )
    rows = []
    for role in ROLES:
        role_calls = [c for c in calls if c.role == role]
        if not role_calls:
            continue
        u = usage.roles[role]
        models = ", ".join(sorted({c.model for c in role_calls}))
        failed = sum(1 for c in role_calls if c.status != "ok")
        rows.append(
            f"<tr><td>{role}</td><td>{esc(models)}</td><td class=num>{u.calls}</td>"
            f"<td class=num>{failed}</td><td class=num>{u.prompt_tokens:,}</td>"
            f"<td class=num>{u.completion_tokens:,}</td><td class=num>{fmt_cost(u.cost_usd)}</td></tr>"
        )
    if not rows:
        return section("Model usage", '<p class="muted">No model calls were recorded.</p>', id_="usage")
    total = (
        f"<tr class=total><td><b>total</b></td><td></td><td class=num><b>{len(calls)}</b></td><td></td>"
        f"<td class=num colspan=2><b>{usage.tokens:,} tokens</b></td>"
        f'<td class=num id="total-cost"><b>{fmt_cost(usage.cost_usd)}</b></td></tr>'
    )
    return section("Model usage", f"<table>{head}{''.join(rows)}{total}</table>", id_="usage")


def _fields(fields: Mapping[str, JsonValue]) -> str:
    return ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in fields.items())


def events_section(events: Sequence[Event], started_at: float) -> str:
    """The run's event log, collapsed: the raw record of what the harness did between steps."""
    if not events:
        return ""
    rows = "".join(
        f"<li><code>+{esc(fmt_duration(e.at - started_at))}</code> <b>{esc(e.kind)}</b> "
        f"<span class=muted>{esc(_fields(e.fields))}</span></li>"
        for e in events
    )
    body = f"<details><summary>{len(events)} events</summary><ol class=events>{rows}</ol></details>"
    return section("Events", body, id_="events")
