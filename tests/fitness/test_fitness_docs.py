"""The docs say what the kit does: their tables are generated from its definitions, their commands parse,
the output they quote is the kit's, and the scores they state for the scripted models are the kit's."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from pytest_artemis.fitness.cases import CASES
from pytest_artemis.fitness.checker_part import REQUEST_LIMIT, request_budget
from pytest_artemis.fitness.docs import with_tables
from pytest_artemis.fitness.goals import GOALS
from pytest_artemis.fitness.options import parser

DOCS = Path(__file__).resolve().parents[2] / "docs"
PAGES = ("fitness.md", "models-and-costs.md")
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.MULTILINE | re.DOTALL)


def _page(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


def _blocks(name: str, lang: str) -> list[str]:
    return [m.group(2) for m in FENCE.finditer(_page(name)) if m.group(1) == lang]


def _plain(text: str) -> str:
    """Output as compared: durations read "T" (they vary run to run), spacing folded."""
    return " ".join(re.sub(r"\b\d+(\.\d+)? (ms|s)\b", "T", text).split())


def test_the_generated_tables_are_current():
    for name in PAGES:
        assert with_tables(_page(name)) == _page(name), \
            f"docs/{name} is stale: python -m pytest_artemis.fitness.docs docs/{name}"
    assert "(fitness.md)" in _page("index.md") and "(fitness.md)" in _page("models-and-costs.md")


def test_every_documented_command_parses():
    commands = [shlex.split(line) for name in PAGES for block in _blocks(name, "bash")
                for line in block.splitlines() if line.startswith("python -m pytest_artemis.fitness")]
    assert len(commands) >= 5
    for words in commands:
        args = parser().parse_args(words[3:])
        assert args.artemis_model or args.artemis_operator_model or args.artemis_checker_model


def test_the_quoted_output_is_the_liars(scored):
    (quoted,) = _blocks("fitness.md", "")
    printed = {_plain(line) for line in scored("liar").printed.splitlines()}
    for line in quoted.splitlines():
        assert _plain(line) in printed, line


def test_the_stated_budget_is_the_kits():
    text = " ".join(_page("fitness.md").split())
    stated = re.search(r"The (\d+) cases make at most (\d+) checker requests, and the whole checker part "
                       r"never makes more than (\d+)\. .* An honest model that answers at once makes (\d+)\.",
                       text)
    assert stated, "the sentence is gone or reworded"
    assert [int(n) for n in stated.groups()] == [len(CASES), request_budget(), REQUEST_LIMIT, len(CASES)]


@pytest.mark.slow
def test_the_scripted_models_score_as_the_page_says(scored):
    page = " ".join(_page("fitness.md").split())
    honest, liar, sloppy = (scored(p).report for p in ("honest", "liar", "sloppy"))
    assert honest.checker and honest.operator and liar.checker and sloppy.checker and sloppy.operator
    h, lc, sc, so = honest.checker, liar.checker.counts, sloppy.checker, sloppy.operator
    expected = [
        f"fit as operator ({honest.operator.reached} of {len(GOALS)}) and as checker ({h.counts.right} of "
        f"{h.counts.items} right)",
        f"each of its {lc.false_passes_blocked} false passes blocked by the harness",
        f"its {lc.false_unchecked_rejected} passes of true items rejected",
        f"{so.reached} of {len(GOALS)} goals but {so.refused_rate:.0%} refused actions and "
        f"{so.invalid_reply_rate:.0%} invalid replies".replace("%", " %"),
        f"{sc.counts.right} of {sc.counts.items} right, {sc.counts.false_unchecked} of {sc.counts.settled} "
        f"settled items false UNCHECKED, {sc.invalid_replies} invalid replies in {sc.usage.requests} "
        "requests",
    ]
    for sentence in expected:
        assert sentence in page, sentence
