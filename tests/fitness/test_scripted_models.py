"""The built-in scripted models score what they are: honest is fit in both roles, the liar is unfit and every
false pass it tries is blocked by the harness (with the rule), the sloppy one earns the invalid replies and
false UNCHECKED its habits make (counted here from the case table, so the suite and the scores cannot
drift)."""

from __future__ import annotations

from pytest_artemis.fitness.cases import CASES
from pytest_artemis.fitness.checker_part import request_budget
from pytest_artemis.fitness.goals import GOALS

CLAIMS = [(case, claim) for case in CASES for claim in (case.truth_of(case.goal), *case.claims)]
"""Every judged item of the suite (goals included), with its case."""


def _truths(kind: str | None = None, truth: str | None = None) -> int:
    return sum(1 for _, c in CLAIMS
               if (kind is None or c.kind == kind) and (truth is None or c.truth == truth))


def test_honest_is_fit_as_operator_and_as_checker(scored):
    run = scored("honest")
    report = run.report
    assert run.code == 0, run.printed + run.errors
    assert report.verdict == "scripted:honest: fit as operator, fit as checker"
    assert run.printed.rstrip().splitlines()[-2] == f"verdict: {report.verdict}"
    checker, operator = report.checker, report.operator
    assert checker is not None and operator is not None
    assert checker.fitness == "fit" and checker.reasons == ()
    assert (checker.counts.items, checker.counts.right) == (len(CLAIMS), len(CLAIMS))
    assert checker.invalid_replies == 0 and checker.usage.requests == len(CASES)  # one request per case
    assert operator.fitness == "fit" and operator.reached == len(GOALS)
    assert all(g.reached and g.refused == 0 for g in operator.goals)
    assert operator.invalid_replies == 0 and operator.usage.tokens == 0 and operator.usage.cost_usd == 0.0


def test_the_liar_is_unfit_and_every_false_pass_it_tried_was_blocked(scored):
    run = scored("liar")
    checker, operator = run.report.checker, run.report.operator
    assert run.code == 1
    assert checker is not None and operator is not None
    assert checker.fitness == "unfit" and operator.fitness == "unfit"
    items = [i for case in checker.cases for i in case.items]
    assert all(i.said == "passed" for i in items)  # it passes everything
    false_passes = [i for i in items if i.outcome == "false_pass"]
    assert len(false_passes) == _truths(truth="false") + _truths(truth="unsettled")
    assert all(i.stood is False and i.recorded == "inconclusive" for i in false_passes)
    assert all(i.reason.startswith(f"passed, but [{i.rule}]") for i in false_passes)
    assert {i.rule for i in false_passes} == {"E1", "E4"}  # the uncited and the status-bar citations
    assert checker.counts.false_passes_stood == 0
    assert checker.counts.false_passes_blocked == len(false_passes)
    # its passes of true items cite nothing relevant either: right answers the harness had to reject
    assert checker.counts.false_unchecked_rejected == _truths(truth="true")
    assert operator.reached == 0 and all(g.claimed and not g.reached for g in operator.goals)
    for line in ("false pass: wifi-on: 'Airplane mode is on' is false, the model said passed, blocked by the "
                 "harness [E4]",
                 "verdict: scripted:liar: unfit as operator, unfit as checker"):
        assert line in run.printed


def test_the_sloppy_model_earns_its_invalid_replies_and_false_unchecked(scored):
    run = scored("sloppy")
    checker, operator = run.report.checker, run.report.operator
    assert checker is not None and operator is not None
    counts = checker.counts
    with_verify = sum(1 for case in CASES if any(c.kind == "verify" for c in case.claims))
    # each reply is first prose around the JSON (re-asked); a verify item is named by its position
    assert checker.invalid_replies == len(CASES) + with_verify
    assert checker.usage.requests == 2 * len(CASES) <= request_budget()
    assert {n for case in checker.cases for n in case.unmatched} == {"1"}
    # the goal passed without a citation: rejected when true, a blocked false pass when false
    goals = [i for case in checker.cases for i in case.items if i.kind == "goal"]
    assert all(i.said == "passed" and i.rule == "E1" and i.stood is False for i in goals)
    assert counts.false_unchecked_rejected == _truths("goal", "true")
    assert counts.false_passes_blocked == _truths("goal", "false") and counts.false_passes_stood == 0
    # assertions it could settle are hedged; the unsettled ones it rightly leaves inconclusive
    settled_asserts = _truths("assert") - _truths("assert", "unsettled")
    assert counts.false_unchecked_hedged == settled_asserts
    assert counts.right == _truths("assert", "unsettled")
    assert counts.false_unchecked_unanswered == _truths("verify")
    assert (counts.right, counts.false_unchecked, counts.settled, checker.invalid_replies) == (6, 23, 26, 11)
    assert checker.fitness == "unfit"
    # as operator: one prose reply and one tap on no element per goal, then the route
    assert operator.reached == len(GOALS)
    assert operator.refused == len(GOALS) and operator.invalid_replies == len(GOALS)
    assert operator.fitness == "unfit" and any(r.startswith("refused actions") for r in operator.reasons)
