"""Run pages and the session index rendered from real runs on the simulated phone, parsed back."""

from __future__ import annotations

import html
import json
import re

from html_page import parse
from sim_session import WORDS, SimSession

from pytest_artemis.report import render_run_report
from pytest_artemis.store import read_run


def _banner_text(page_html: str) -> str:
    start = page_html.index('id="banner"')
    text = html.unescape(re.sub(r"<[^>]+>", " ", page_html[start : page_html.index("</ol>", start)]))
    return re.sub(r"[ \t]+", " ", text)


def test_every_run_page_shows_its_word_and_the_index_lists_every_test(sim_session: SimSession) -> None:
    for name, word in WORDS.items():
        page = parse(sim_session.report(name))
        assert page.by_id["banner"]["data-outcome"] == word, name
        assert page.by_id["to-index"]["href"].endswith("/index.html")
        assert (
            sim_session.report(name).parent / page.by_id["to-index"]["href"]
        ).resolve() == sim_session.index
    index = parse(sim_session.index)
    rows = index.all("tr")[1:]
    assert sorted(r["data-outcome"] for r in rows) == sorted(WORDS.values())
    session = json.loads((sim_session.root / "artemis-session.js").read_text().split("=", 1)[1].rstrip(";\n"))
    assert [r["outcome"] for r in session["runs"]] == list(WORDS.values())


def test_failed_banner_lists_each_failed_assertion_with_evidence_and_its_step(
    sim_session: SimSession,
) -> None:
    banner = _banner_text(sim_session.report("test_contact_failed").read_text())
    assert "2 assertions failed: Margaret Hamilton's number is 555-0123" in banner
    assert "FAIL: The saved contact shows '555-0123'" in banner
    assert "display_name=Margaret Hamilton, data1=555-0199" in banner  # the probe's decisive row
    assert "probe content query --uri content://com.android.contacts/data/phones" in banner  # its argv
    page = parse(sim_session.report("test_contact_failed"))
    steps = {a["href"] for a in page.all("a", "to-step")}
    assert steps and all(h[1:] in page.by_id for h in steps)
    assert "all subgoals done" not in banner


def test_blocked_banner_names_the_unmet_criterion_and_shows_the_finding_once(sim_session: SimSession) -> None:
    page = sim_session.report("test_extra_dim_blocked").read_text()
    banner = _banner_text(page)
    assert "1 unmet criterion: Extra dim is on" in banner
    finding = read_run(sim_session.runs["test_extra_dim_blocked"]).verdicts[-1].evidence
    before_events = html.unescape(page.split('id="events"')[0])
    assert before_events.count(finding) == 1, "the finding must appear once"


def test_unchecked_error_passed_and_interrupted_banners_give_their_reason(sim_session: SimSession) -> None:
    unchecked = _banner_text(sim_session.report("test_wifi_unchecked").read_text())
    assert "MAYBE: The screen looks calmer" in unchecked and "inconclusive" in unchecked
    error = _banner_text(sim_session.report("test_model_down_error").read_text())
    assert "model failure ModelUnavailable" in error and "HTTP 503" in error
    passed = _banner_text(sim_session.report("test_alarm_passed").read_text())
    assert "3 checks passed" in passed and "The alarm list has a 7:30 AM alarm" in passed
    assert "visual judgement of the screenshot" in passed  # the opted-in visual check says what it is
    killed = sim_session.report("test_killed_interrupted")
    page = parse(killed)
    assert "without a terminal record" in _banner_text(killed.read_text())
    steps = read_run(sim_session.runs["test_killed_interrupted"]).steps
    assert len(page.all("div", "step")) == len(steps) >= 2


def test_actions_are_drawn_from_typed_results_with_labels_outside_their_targets(
    sim_session: SimSession,
) -> None:
    record = read_run(sim_session.runs["test_contact_failed"])
    typed = [r for s in record.steps for r in s.results if r.action.kind == "type"]
    assert typed and all(r.element is not None and r.at is not None and r.typed for r in typed)
    page = parse(sim_session.report("test_contact_failed"))
    targets = {tuple(int(v) for v in g["data-target"].split(",")) for g in page.all("g", "ov-label")}
    for result in typed:
        b = result.element.bounds
        assert any(t[0] <= b.left and t[2] >= b.right and t[1] <= b.top for t in targets), b
    assert "⌨ “555-0199”" in page.text


def test_untrusted_text_is_escaped_and_only_local_files_are_referenced(session_copy: SimSession) -> None:
    run = session_copy.runs["test_contact_failed"]
    steps = (run / "steps.jsonl").read_text().splitlines()
    first = json.loads(steps[0])
    first["decision"] = "<script>document.title='pwned'</script>"
    steps[0] = json.dumps(first)
    (run / "steps.jsonl").write_text("\n".join(steps) + "\n")
    rendered = render_run_report(run, root=session_copy.root).read_text()
    assert "<script>document.title" not in rendered
    page = parse(run / "report.html")
    assert "<script>document.title='pwned'</script>" in page.text
    refs = [a[k] for _, a in page.elements for k in ("src", "href") if k in a]
    assert refs and not [r for r in refs if ":" in r or r.startswith("/")]
    assert not page.all("link")


def test_torn_unreadable_and_foreign_journals_render_honestly(session_copy: SimSession) -> None:
    run = session_copy.runs["test_alarm_passed"]
    count = len(read_run(run).steps)
    with open(run / "steps.jsonl", "a", encoding="utf-8") as fh:
        fh.write('{"step": 99, "turn": "act", "pre_scr')
    page = parse(render_run_report(run))
    assert "torn last line" in page.text and len(page.all("div", "step")) == count
    lines = (run / "steps.jsonl").read_text().splitlines()[:-1]
    step = json.loads(lines[0])
    step["pre_screen"] = "../../../etc/passwd"
    lines[0] = json.dumps(step)
    (run / "steps.jsonl").write_text("\n".join(lines) + "\n")
    page = parse(render_run_report(run))
    assert "screenshot missing" in page.text
    assert all(i["src"].startswith("screens/") and (run / i["src"]).is_file() for i in page.all("img"))
    (run / "run.jsonl").write_text('{"record": "header", "nonsense": 1}\n')
    page = parse(render_run_report(run, outcome_word="ERROR"))
    assert page.by_id["banner"]["data-outcome"] == "ERROR" and "corrupt journal" in page.text


def test_index_rows_carry_reason_duration_and_sortable_values(sim_session: SimSession) -> None:
    index = parse(sim_session.index)
    cells = {c["class"].split()[0]: c for c in index.all("td")}
    assert {
        "c-outcome",
        "c-test",
        "c-reason",
        "c-duration",
        "c-steps",
        "c-tokens",
        "c-cost",
        "c-device",
    } <= set(cells)
    text = index.text
    assert "2 assertions failed: Margaret Hamilton's number is 555-0123" in text
    assert "1 PASSED" in text and "1 INTERRUPTED" in text and "slowest tests" in text
    durations = [float(c["data-v"]) for c in index.all("td", "c-duration")]
    assert all(d > 0 for d in durations)


def test_timeline_strip_shows_each_check_attempt_from_spawn_to_the_step_that_took_it_in(
    sim_session: SimSession,
):
    record = read_run(sim_session.runs["test_extra_dim_blocked"])
    page = parse(sim_session.report("test_extra_dim_blocked"))
    lanes = [d["data-attempt"] for d in page.all("div", "lane") if "data-attempt" in d]
    assert set(lanes) == {v.attempt_id for v in record.verdicts} and len(lanes) == len(set(lanes)) >= 2
    harvests = [a["href"] for a in page.all("a", "harvest")]
    assert harvests and all(h[1:] in page.by_id for h in harvests)
    blocks = [a["href"] for a in page.all("a", "sblock")]
    assert blocks == [f"#step-{s.step}" for s in record.steps]


def test_replayed_turns_are_marked(sim_session: SimSession) -> None:
    steps = read_run(sim_session.replayed).steps
    replayed = [s.step for s in steps if s.replayed]
    assert replayed, "the second session replayed the recorded decisions"
    page = parse(sim_session.replayed / "report.html")
    marked = [s for s in page.all("div", "step") if s["id"] in {f"step-{n}" for n in replayed}]
    assert len(marked) == len(replayed)
    assert page.text.count("replayed from a recording") == len(replayed)


def test_cited_evidence_is_outlined_on_the_screen_it_was_resolved_on(sim_session: SimSession) -> None:
    for name in ("test_alarm_passed", "test_contact_failed"):
        record = read_run(sim_session.runs[name])
        cited = [v for v in record.verdicts if v.citation is not None and v.citation.bounds is not None]
        assert cited, name
        page = parse(sim_session.report(name))
        outlines = {
            (int(r["x"]), int(r["y"]), int(r["x"]) + int(r["width"]), int(r["y"]) + int(r["height"]))
            for r in page.all("rect", "ov-evidence")
        }
        for verdict in cited:
            assert verdict.citation.bounds in outlines, (name, verdict.item_text)
    failed = read_run(sim_session.runs["test_contact_failed"])
    claim = next(v for v in failed.verdicts if v.item_text.startswith("FAIL:")).citation
    assert claim is not None and claim.found and "555-0199" in claim.quote  # what the screen really shows
    banner = _banner_text(sim_session.report("test_contact_failed").read_text())
    assert "555-0199" in banner


def test_an_error_page_never_says_blocked(sim_session: SimSession) -> None:
    """A crashed run never judged its task: its page says so, not "blocked" (the engine's task status)."""
    text = parse(sim_session.report("test_model_down_error")).text
    assert "blocked" not in text.lower()
    assert "not judged — the run crashed before the task could be judged" in text


def test_a_blocked_banner_leads_with_the_cause(sim_session: SimSession) -> None:
    banner = _banner_text(sim_session.report("test_extra_dim_blocked").read_text())
    head = banner.split(" BLOCKED ", 1)[1].strip()
    assert head.startswith("circuit breaker: the same finding 3 times: Extra dim is on"), head
