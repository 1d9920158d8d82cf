"""The terminal summary: one table per part, each wrong verdict in a line, and the verdict line last."""

from __future__ import annotations

from collections.abc import Sequence

from pytest_artemis.report.markup import fmt_cost, fmt_duration

from .schema import CheckerScore, FitnessReport, ItemResult, OperatorScore


def _columns(rows: Sequence[Sequence[str]]) -> list[str]:
    """Rows as left-aligned columns two spaces apart."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  " + "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
            for row in rows]


def _of(part: int, whole: int) -> str:
    return f"{part}/{whole} ({part / whole:.0%})" if whole else f"{part}/0"


def _operator(score: OperatorScore) -> list[str]:
    head = (f"operator  {score.model}: {score.fitness.upper()}  "
            f"goals reached {_of(score.reached, len(score.goals))}  "
            f"refused {_of(score.refused, score.actions)}  "
            f"invalid replies {_of(score.invalid_replies, score.usage.requests)}  "
            f"{score.tokens_per_step:,.0f} tokens and {fmt_cost(score.cost_per_step_usd)} per step")
    rows = [("goal", "reached", "claimed", "run", "steps", "time", "refused", "invalid", "tokens", "cost")]
    rows += [(g.name, "yes" if g.reached else "NO", "yes" if g.claimed else "no", g.outcome, str(g.steps),
              fmt_duration(g.seconds), f"{g.refused}/{g.actions}", str(g.invalid_replies),
              f"{g.usage.tokens:,}", fmt_cost(g.usage.cost_usd)) for g in score.goals]
    return [head, *_columns(rows), *(f"  missed: {r}" for r in score.reasons)]


def _wrong(case: str, item: ItemResult) -> str:
    said = f"said {item.said}" if item.said != "none" else "gave no verdict"
    fate = "" if item.stood is None else (", and it stood" if item.stood else ", blocked by the harness")
    rule = f" [{item.rule}]" if item.rule and not item.stood else ""
    return (f"  {item.outcome.replace('_', ' ')}: {case}: {item.item!r} is {item.truth}, "
            f"the model {said}{fate}{rule}")


def _checker(score: CheckerScore) -> list[str]:
    c = score.counts
    unchecked = c.false_unchecked
    head = (f"checker   {score.model}: {score.fitness.upper()}  right {_of(c.right, c.items)}  false passes "
            f"{c.false_passes_stood} stood, {c.false_passes_blocked} blocked  false UNCHECKED "
            f"{_of(unchecked, c.settled)}  "
            f"invalid replies {_of(score.invalid_replies, score.usage.requests)}  "
            f"requests {score.usage.requests} (at most {score.request_budget})")
    rows = [("case", "items", "right", "false pass", "false fail", "false UNCHECKED", "requests", "tokens",
             "latency")]
    for case in score.cases:
        def n(*outcomes: str, items: Sequence[ItemResult] = case.items) -> str:
            return str(sum(1 for i in items if i.outcome in outcomes))

        rows.append((case.name, str(len(case.items)), n("right"), n("false_pass"), n("false_fail"),
                     n("false_unchecked"), str(case.usage.requests), f"{case.usage.tokens:,}",
                     fmt_duration(case.usage.latency_ms_mean / 1000)))
    wrong = [_wrong(case.name, i) for case in score.cases for i in case.items if i.outcome != "right"]
    return [head, *_columns(rows), *wrong, *(f"  missed: {r}" for r in score.reasons)]


def render_table(report: FitnessReport) -> str:
    """What the command prints."""
    lines = [f"pytest-artemis model fitness (suite {report.suite_version}, {fmt_duration(report.seconds)})"]
    if report.operator is not None:
        lines += _operator(report.operator)
    if report.checker is not None:
        lines += _checker(report.checker)
    lines.append(f"verdict: {report.verdict}")
    return "\n".join(lines)
