"""The run report, rendered from a real journal and parsed back: banner, steps, images, verdicts, safety."""

from __future__ import annotations

import json
from pathlib import Path

from report_fixtures import SCRIPT, build_run, parse

from pytest_artemis.report import render_run_report
from pytest_artemis.store import read_run


def test_report_shows_banner_steps_images_verdicts_and_usage(alarm_run: Path) -> None:
    path = render_run_report(alarm_run)
    assert path == alarm_run / "report.html"
    page = parse(path)
    assert page.by_id["banner"]["data-outcome"] == "UNCHECKED"
    assert "w-unchecked" in page.by_id["banner"]["class"]
    assert "the operator claimed the goal" in page.text
    assert len(page.all("div", "step")) == 5
    assert page.all("div", "timeline")[0]["data-steps"] == "5"
    images = page.all("img")
    assert len(images) == 10
    for img in images:
        assert (alarm_run / img["src"]).is_file(), img["src"]
    statuses = [row["data-status"] for row in page.all("tr", "verdict")]
    assert statuses == ["superseded", "passed", "passed", "passed", "inconclusive"]
    anchors = {a["href"] for a in page.all("a") if a.get("href", "").startswith("#step-")}
    assert anchors == {"#step-4", "#step-5"} and all(h[1:] in page.by_id for h in anchors)
    assert page.by_id["total-cost"] is not None
    assert "unknown" in page.text and "$0.0062" in page.text  # checker price unknown, planner known
    assert "- [x] Open the Clock app" in page.text  # plan v2 shown at the steps that saw it
    assert "Create an alarm for 7:30 AM in the Clock app" in page.text


def test_actions_are_drawn_on_the_pre_screenshot_in_device_coordinates(alarm_run: Path) -> None:
    page = parse(render_run_report(alarm_run))
    overlays = page.all("svg", "overlay")
    assert len(overlays) == 5 and {o["viewbox"] for o in overlays} == {"0 0 1080 2400"}
    circles = {(c["cx"], c["cy"]) for c in page.all("circle")}
    assert ("910", "2110") in circles  # explicit tap coordinates
    assert ("820", "1500") in circles  # element tap resolved from the action result's detail
    assert {"x1": "540", "y1": "1800", "x2": "540", "y2": "900"}.items() <= page.all("line")[0].items()
    assert "1. ⌨ “7:30 AM”" in page.text
    assert "2. finish: Alarm c" in page.text  # a chip, truncated to the screen width


def test_untrusted_journal_text_is_escaped(alarm_run: Path) -> None:
    html = render_run_report(alarm_run).read_text(encoding="utf-8")
    page = parse(alarm_run / "report.html")
    assert len(page.all("script")) == 1  # only the page's own image counter
    assert SCRIPT not in html
    assert page.text.count(SCRIPT) == 2  # decision of step 3 and one verdict's evidence, as text


def test_page_references_only_local_files(alarm_run: Path) -> None:
    page = parse(render_run_report(alarm_run))
    refs = [a[k] for _, a in page.elements for k in ("src", "href") if k in a]
    assert refs and not [r for r in refs if ":" in r or r.startswith("/")]
    assert not page.all("link") and "@import" not in (alarm_run / "report.html").read_text()


def test_torn_journal_renders_with_a_visible_notice(alarm_run: Path) -> None:
    with open(alarm_run / "steps.jsonl", "a", encoding="utf-8") as fh:
        fh.write('{"step": 6, "turn": "act", "pre_scr')
    page = parse(render_run_report(alarm_run))
    notices = [a for a in page.all("div", "notice") if a.get("role") == "alert"]
    assert notices and "torn last line" in page.text
    assert len(page.all("div", "step")) == 5


def test_interrupted_run_is_reported_as_interrupted(tmp_path: Path) -> None:
    run = build_run(tmp_path, close=False)
    page = parse(render_run_report(run))
    assert page.by_id["banner"]["data-outcome"] == "INTERRUPTED"
    assert "no terminal record" in page.text
    assert len(page.all("div", "step")) == 5 and len(page.all("tr", "verdict")) == 5


def test_plugin_word_wins_over_the_derived_one(alarm_run: Path) -> None:
    page = parse(render_run_report(alarm_run, outcome_word="FAILED"))
    assert page.by_id["banner"]["data-outcome"] == "FAILED" and "w-failed" in page.by_id["banner"]["class"]


def test_unreadable_journal_still_renders_a_page(tmp_path: Path) -> None:
    run = tmp_path / "broken"
    run.mkdir()
    (run / "run.jsonl").write_text('{"record": "header", "nonsense": 1}\n', encoding="utf-8")
    page = parse(render_run_report(run))
    assert page.by_id["banner"]["data-outcome"] == "ERROR"
    assert "corrupt journal" in page.text and not page.all("div", "step")


def test_missing_or_foreign_screenshots_are_not_linked(alarm_run: Path) -> None:
    record = read_run(alarm_run)
    first = record.steps[0]
    record.screen_path(first.pre_screen or "").unlink()
    lines = (alarm_run / "steps.jsonl").read_text(encoding="utf-8").splitlines()
    step = json.loads(lines[1])
    step["pre_screen"] = "../../../etc/passwd"
    lines[1] = json.dumps(step)
    (alarm_run / "steps.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    page = parse(render_run_report(alarm_run))
    assert "screenshot missing" in page.text
    srcs = [img["src"] for img in page.all("img")]
    assert all(src.startswith("screens/") and (alarm_run / src).is_file() for src in srcs)
    assert "passwd" not in (alarm_run / "report.html").read_text(encoding="utf-8")
