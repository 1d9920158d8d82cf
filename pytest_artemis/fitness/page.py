"""``fitness.html``: the report in the run report's offline style; every wrong verdict links to its evidence
(the verdict's row in its run's ``report.html``), every goal to its run."""

from __future__ import annotations

from collections.abc import Sequence

from pytest_artemis.report.markup import dl, esc, fmt_cost, fmt_duration, fmt_time, page, section, tag

from .schema import CaseResult, CheckerScore, Fitness, FitnessReport, ItemResult, OperatorScore, Usage
from .thresholds import Thresholds

_FIT_CLASS = {"fit": "w-passed", "unfit": "w-failed", "not scored": "w-unchecked"}
EVIDENCE_SHOWN = 120
"""Characters of a goal's probe evidence shown in its row (all of it on hover, and in fitness.json)."""
_OUTCOME_CLASS = {"right": "s-passed", "false_pass": "s-failed", "false_fail": "s-failed",
                  "false_unchecked": "s-inconclusive", "unanswered": "s-unchecked"}


def _badge(text: str, css: str) -> str:
    return tag("span", esc(text), class_=f"badge {css}")


def _fitness(fitness: Fitness) -> str:
    return _badge(fitness, _FIT_CLASS[fitness])


def _table(head: Sequence[str], rows: Sequence[str], css: str = "") -> str:
    cells = "".join(f"<th>{esc(h)}</th>" for h in head)
    return tag("table", f"<thead><tr>{cells}</tr></thead><tbody>{''.join(rows)}</tbody>", class_=css or None)


def _row(*cells: str, **attrs: object) -> str:
    return tag("tr", "".join(f"<td>{c}</td>" for c in cells), **attrs)


def _usage(usage: Usage) -> str:
    return (f"{usage.calls} calls, {usage.requests} requests, {usage.tokens:,} tokens, "
            f"{fmt_cost(usage.cost_usd)}, {usage.latency_ms_mean:.0f} ms per call "
            f"(max {usage.latency_ms_max:.0f})")


def _reasons(reasons: Sequence[str]) -> str:
    if not reasons:
        return '<span class="muted">every threshold met</span>'
    return tag("ul", "".join(tag("li", esc(r)) for r in reasons))


def _evidence(text: str) -> str:
    shown = text if len(text) <= EVIDENCE_SHOWN else text[:EVIDENCE_SHOWN].rstrip() + " …"
    return tag("span", esc(shown), class_="muted", title=text)


def _operator(score: OperatorScore) -> str:
    cost = fmt_cost(score.cost_per_step_usd)
    summary = dl([
        ("Model (planner and operator)", tag("code", esc(score.model))),
        ("Fitness", _fitness(score.fitness)), ("Thresholds missed", _reasons(score.reasons)),
        ("Goals reached", f"{score.reached} of {len(score.goals)} ({score.goal_rate:.0%}), read by probes"),
        ("Refused actions", f"{score.refused} of {score.actions} ({score.refused_rate:.0%})"),
        ("Invalid replies", f"{score.invalid_replies} of {score.usage.requests} requests "
                            f"({score.invalid_reply_rate:.0%})"),
        ("Per step", f"{score.tokens_per_step:,.0f} tokens, {cost}"), ("Usage", esc(_usage(score.usage))),
    ])
    rows = [_row(tag("a", esc(g.name), href=f"{g.run}/report.html") + tag("div", esc(g.goal), class_="muted"),
                 _badge("reached", "s-passed") if g.reached else _badge("not reached", "s-failed"),
                 esc("yes" if g.claimed else "no"), esc(g.outcome), str(g.steps),
                 esc(fmt_duration(g.seconds)),
                 f"{g.refused}/{g.actions}", str(g.invalid_replies), f"{g.usage.tokens:,}",
                 esc(fmt_cost(g.usage.cost_usd)), _evidence(g.evidence),
                 id=f"goal-{g.name}")
            for g in score.goals]
    head = ("Goal", "Probe says", "Claimed done", "Run", "Steps", "Time", "Refused", "Invalid",
            "Tokens", "Cost", "Probe evidence")
    return section("Operator", summary + _table(head, rows), id_="operator")


def _item_row(case: CaseResult, item: ItemResult) -> str:
    link = f"{case.run}/report.html#verdict-{item.verdict}" if item.verdict else f"{case.run}/report.html"
    wrong = item.outcome != "right"
    stood = "" if item.stood is None else ("stood" if item.stood else "blocked")
    said = esc(item.said) + (f" <span class=muted>({stood})</span>" if stood else "")
    evidence = tag("a", "evidence" if wrong else "verdict", href=link)
    return _row(esc(case.name), esc(item.item), esc(item.kind), esc(item.truth), said, esc(item.recorded),
                _badge(item.outcome.replace("_", " "), _OUTCOME_CLASS[item.outcome]),
                tag("code", esc(item.rule)) if item.rule else "",
                tag("span", esc(item.reason), class_="muted"), evidence,
                class_="wrong" if wrong else None, data_outcome=item.outcome)


def _checker(score: CheckerScore) -> str:
    c = score.counts
    summary = dl([
        ("Model", tag("code", esc(score.model))), ("Fitness", _fitness(score.fitness)),
        ("Thresholds missed", _reasons(score.reasons)),
        ("Right verdicts", f"{c.right} of {c.items} ({score.right_rate:.0%})"),
        ("False passes", f"{c.false_passes_stood} stood, {c.false_passes_blocked} blocked by the harness"),
        ("False fails", f"{c.false_fails_stood} stood, {c.false_fails_blocked} blocked by the harness"),
        ("False UNCHECKED", f"{c.false_unchecked_rejected} right answers rejected, "
                            f"{c.false_unchecked_hedged} hedged, {c.false_unchecked_unanswered} unanswered, "
                            f"of {c.settled} settled items ({score.false_unchecked_rate:.0%})"),
        ("Invalid replies", f"{score.invalid_replies} of {score.usage.requests} requests "
                            f"({score.invalid_reply_rate:.0%})"),
        ("Checker requests", f"{score.usage.requests} (the suite's most: {score.request_budget})"),
        ("Usage", esc(_usage(score.usage))),
    ])
    rows = [_item_row(case, item) for case in score.cases for item in case.items]
    head = ("Case", "Item", "Kind", "Truth", "Model said", "Recorded", "Outcome", "Rule", "Harness reason",
            "")
    return section("Checker", summary + _table(head, rows, "verdicts"), id_="checker")


def _thresholds(thresholds: Thresholds) -> str:
    rows = [_row(esc(role), tag("code", esc(name)), esc(str(value)))
            for role, values in (("checker", thresholds.checker), ("operator", thresholds.operator))
            for name, value in values.model_dump().items()]
    return section("Thresholds", _table(("Role", "Threshold", "Value"), rows), id_="thresholds")


def render_page(report: FitnessReport) -> str:
    """The whole page (offline: inline style and script, nothing fetched)."""
    scored = [s.fitness for s in (report.operator, report.checker) if s is not None]
    worst: Fitness = "unfit" if "unfit" in scored else ("not scored" if "not scored" in scored else "fit")
    banner = tag("div", tag("div", tag("span", esc(report.verdict), class_="why"), class_="bhead"),
                 class_=f"banner {_FIT_CLASS[worst]}", id="verdict")
    meta = dl([("Suite", f"version {esc(report.suite_version)}, schema {report.schema_version}"),
               ("Started", esc(fmt_time(report.created_at))), ("Took", esc(fmt_duration(report.seconds))),
               ("API base", esc(report.models.api_base or "—"))])
    parts = [_operator(report.operator) if report.operator else "",
             _checker(report.checker) if report.checker else ""]
    body = tag("main", tag("h1", "Model fitness") + banner + section("Run", meta, id_="run") + "".join(parts)
               + _thresholds(report.thresholds))
    return page(f"fitness · {report.verdict}", body)
