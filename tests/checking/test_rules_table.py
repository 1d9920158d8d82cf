"""The rules of evidence are one table: ids unique, every rule stated, the docs' table generated from it,
and every reason the grounding gives naming a rule of it."""

from __future__ import annotations

import re
from pathlib import Path

from pytest_artemis.checking.rules import RULE, RULES, broken, render_markdown, rule_of, with_rules_table

DOCS = Path(__file__).parents[2] / "docs" / "writing-checks.md"
SOURCES = Path(__file__).parents[2] / "pytest_artemis" / "checking"


def test_each_rule_has_a_unique_id_a_name_a_statement_and_a_reason():
    assert [r.id for r in RULES] == [f"E{n}" for n in range(1, len(RULES) + 1)]
    assert len({r.name for r in RULES}) == len(RULES)
    assert all(r.statement and r.reason and r.applies_to for r in RULES)


def test_the_docs_table_is_the_rules_table():
    page = DOCS.read_text(encoding="utf-8")
    assert render_markdown() in page
    assert with_rules_table(page) == page, (
        "run: python -m pytest_artemis.checking.rules docs/writing-checks.md")


def test_every_reason_the_checking_half_gives_names_a_rule_of_the_table():
    named = {m for path in SOURCES.glob("*.py") for m in re.findall(r'broken\("(E\d+)"',
                                                                   path.read_text(encoding="utf-8"))}
    assert named <= set(RULE)
    assert named >= {"E1", "E2", "E3", "E4", "E5", "E6", "E7", "E8", "E9", "E10", "E11"}


def test_a_reason_names_its_rule():
    assert broken("E4", "x") == "[E4] x" and rule_of("passed, but [E4] x") == "E4" \
        and rule_of("timeout") == ""
