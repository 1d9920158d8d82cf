"""The verdict corpus on the simulated phone (``corpus_cases.py``): every honest reply ends in its honest
outcome whatever its words and citation form, and no adversary citing real but irrelevant, pre-run, stale
or own-input evidence reads PASSED; each refusal names the rule that made it."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from corpus_cases import ADVERSARIES, HONEST
from evidence_corpus import SCENARIOS, Case, V, switch
from fault_harness import run_matrix

MODULE = '''
import pytest
from {module} import {table}
from evidence_corpus import SCENARIOS, respond_for

respond = respond_for({table}["{name}"])


@pytest.fixture(autouse=True)
def _phone(artemis_device):
    """A fresh phone, then what an earlier test may have left behind."""
    artemis_device.reset("full", None)
    for argv in SCENARIOS["{scenario}"].setup:
        artemis_device.check(list(argv))


@pytest.mark.goal({goal!r})
{marks}
def test_{name}(artemis):
    pass
'''


def _run(project: pytest.Pytester, table: str, cases: dict[str, Case], table_module: str = "corpus_cases"):
    for name, case in cases.items():
        project.makepyfile(**{f"test_{name}": MODULE.format(
            module=table_module, table=table, name=name, scenario=case.scenario,
            goal=SCENARIOS[case.scenario].goal, marks="\n".join(case.marks))})
    return run_matrix(project)


def test_honest_verdicts_in_natural_words_end_in_their_honest_outcome(project):
    assert len(HONEST) >= 30
    matrix = _run(project, "HONEST", HONEST)
    wrong = {name: (matrix.cases[f"test_{name}"].props["artemis.outcome"], case.word,
                    [(v.item_text[:40], v.status, v.reason) for v in matrix.journal(f"test_{name}").verdicts
                     if v.status in ("inconclusive", "unchecked")])
             for name, case in HONEST.items()
             if matrix.cases[f"test_{name}"].props["artemis.outcome"] != case.word}
    assert not wrong, wrong
    for name, case in HONEST.items():
        matrix.expect(f"test_{name}", case.word)


@pytest.mark.slow
def test_no_adversary_passes_and_each_refusal_names_its_rule(project):
    matrix = _run(project, "ADVERSARIES", ADVERSARIES)
    for name, case in ADVERSARIES.items():
        matrix.expect(f"test_{name}", case.word)
        refused = [v for v in matrix.journal(f"test_{name}").verdicts if v.rule]
        assert refused and refused[0].rule == case.rule, (name, [(v.rule, v.reason) for v in refused])
    # The report shows each citation as given and found (or not), and the rule that refused the verdict.
    artifacts = Path(matrix.cases["test_invented_context"].props["artemis.artifacts"])
    page = html.unescape(re.sub(r"<[^>]+>", "", (artifacts / "report.html").read_text(encoding="utf-8")))
    assert ("cites the final screen: Bluetooth enabled successfully — not found in the recorded artifacts"
            in page)
    assert "cites the final screen, element [4] checked=true (hierarchy)" in page
    assert "not standing by rule E2 found" in page


@pytest.mark.slow
def test_a_verdict_naming_no_listed_item_is_shown_in_the_verbose_line_the_junit_message_and_the_report(
        project):
    cases = {"unknown_item": Case("bluetooth_on", (V("goal", "passed", "The switch is ON.",
                                                       (switch("Use Bluetooth", attribute="checked=true"),),
                                                       named="v9"),), "UNCHECKED")}
    project.makepyfile(corpus_unknown="from evidence_corpus import *\nCASES = " + repr(cases))
    matrix = _run(project, "CASES", cases, table_module="corpus_unknown")
    case = matrix.expect("test_unknown_item", "UNCHECKED")
    said = "its reply named 'v9', which is no listed item"
    matrix.result.stdout.fnmatch_lines([f"*{said}*"])
    assert said in case.message + case.text
    report = Path(case.props["artemis.artifacts"]) / "report.html"
    assert said in html.unescape(report.read_text(encoding="utf-8"))
