"""What the kit writes: ``fitness.json`` valid against its own JSON schema (closed, versioned), and an
offline ``fitness.html`` whose every wrong verdict links to the verdict's row in its run's report."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import jsonschema
import pytest
from browser import CHROMIUM, browser
from pydantic import ValidationError

from pytest_artemis.fitness import SCHEMA_VERSION, SUITE_VERSION, FitnessReport
from pytest_artemis.fitness.thresholds import THRESHOLDS


class _Links(HTMLParser):
    """Every ``href``/``src`` of a page, and the ``href`` of each row marked wrong."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self.wrong: list[str] = []
        self._in_wrong = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "tr":
            self._in_wrong = "wrong" in (found.get("class") or "").split()
        for key in ("href", "src"):
            if found.get(key):
                self.urls.append(str(found[key]))
                if self._in_wrong and key == "href":
                    self.wrong.append(str(found[key]))


def _links(out: Path) -> _Links:
    parser = _Links()
    parser.feed((out / "fitness.html").read_text(encoding="utf-8"))
    return parser


@pytest.mark.parametrize("persona", ["honest", "liar", "sloppy"])
def test_fitness_json_validates_against_its_schema(scored, persona):
    run = scored(persona)
    data = json.loads((run.out / "fitness.json").read_text(encoding="utf-8"))
    jsonschema.validate(data, FitnessReport.model_json_schema())
    assert (data["schema_version"], data["suite_version"]) == (SCHEMA_VERSION, SUITE_VERSION)
    assert data["thresholds"] == THRESHOLDS.model_dump()
    with pytest.raises(ValidationError, match="Extra inputs are not permitted"):
        FitnessReport.model_validate({**data, "ghost": 1})
    with pytest.raises(jsonschema.ValidationError):
        ghost = {**data, "checker": {**data["checker"], "ghost": 1}}
        jsonschema.validate(ghost, FitnessReport.model_json_schema())


def test_each_wrong_verdict_links_to_its_evidence(scored):
    run = scored("liar")
    checker = run.report.checker
    assert checker is not None
    links = _links(run.out)
    wrong = [i for case in checker.cases for i in case.items if i.outcome != "right"]
    assert len(links.wrong) == len(wrong) > 0
    for href in links.wrong:
        page, _, anchor = href.partition("#")
        target = run.out / page
        assert target.is_file(), href
        assert re.fullmatch(r"verdict-\d+", anchor) and f'id="{anchor}"' in target.read_text(encoding="utf-8")
    assert not [u for u in links.urls if re.match(r"(https?:)?//", u)]  # nothing from a network


def test_every_goal_links_to_its_run(scored):
    run = scored("honest")
    operator = run.report.operator
    assert operator is not None
    hrefs = _links(run.out).urls
    for goal in operator.goals:
        assert f"{goal.run}/report.html" in hrefs and (run.out / goal.run / "report.html").is_file()


@pytest.mark.skipif(CHROMIUM is None, reason="Debian chromium not installed (apt install chromium)")
def test_fitness_html_renders_offline_in_chromium(scored):
    run = scored("sloppy")
    with browser() as chrome:
        page = chrome.open((run.out / "fitness.html").as_uri())
        verdict = page.eval("document.querySelector('#verdict').textContent")
        rows = page.eval("document.querySelectorAll('tr.wrong').length")
        errors = page.errors()
        requests = page.requests()
    assert verdict == run.report.verdict
    checker = run.report.checker
    assert checker is not None
    assert rows == sum(1 for c in checker.cases for i in c.items if i.outcome != "right")
    assert errors == []
    assert all(url.startswith(("file://", "data:")) for url in requests), requests
