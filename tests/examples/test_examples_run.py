"""The examples suite as a new user runs it: ``pytest examples/ --artemis-device=sim``, offline, no key.

The suite shows each outcome once, on purpose; these tests pin the documented words, the evidence
behind them, and the demo checker's rules (it confirms only text it reads in the screenshots).
"""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pytest_artemis.store import read_run

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"

#: The outcome each example test documents (its docstring and README say the same).
WORDS = {
    "test_create_alarm": "PASSED",
    "test_create_contact": "PASSED",
    "test_contact_number_failed": "FAILED",
    "test_dark_theme_on": "PASSED",
    "test_wifi_off": "PASSED",
    "test_extra_dim_blocked": "BLOCKED",
    "test_brightness_unchecked": "UNCHECKED",
}
ELEMENTS = {"PASSED": None, "FAILED": "failure", "BLOCKED": "error", "UNCHECKED": "skipped"}


def _cases(xml: Path) -> dict[str, dict[str, object]]:
    cases: dict[str, dict[str, object]] = {}
    for tc in ET.parse(xml).getroot().iter("testcase"):
        result = next((c for c in tc if c.tag in ("failure", "error", "skipped")), None)
        props = {p.get("name"): p.get("value") for p in tc.iter("property")}
        text = "" if result is None else result.get("message", "") + (result.text or "")
        out = "".join(c.text or "" for c in tc if c.tag == "system-out")
        cases[tc.get("name")] = {"element": None if result is None else result.tag, "text": text,
                                 "props": props, "out": out}
    return cases


@pytest.fixture(scope="module")
def example_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[subprocess.CompletedProcess, dict, Path]:
    """One run of the examples from the repository root, exactly as the README shows it."""
    tmp = tmp_path_factory.mktemp("examples")
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARTEMIS_")}  # no model configured
    argv = [sys.executable, "-m", "pytest", "examples/", "--artemis-device=sim",
            f"--junitxml={tmp / 'junit.xml'}", f"--artemis-artifacts={tmp / 'artifacts'}"]
    proc = subprocess.run(argv, cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    return proc, _cases(tmp / "junit.xml"), tmp / "artifacts"


@pytest.mark.slow
def test_examples_show_each_documented_outcome(example_run):
    proc, cases, artifacts = example_run
    assert proc.returncode == 1, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "1 failed, 4 passed, 1 xfailed, 1 error" in proc.stdout.splitlines()[-1]
    assert {name: case["props"]["artemis.outcome"] for name, case in cases.items()} == WORDS
    for name, word in WORDS.items():
        assert cases[name]["element"] == ELEMENTS[word], name
        assert cases[name]["props"]["artemis.tokens"] == "0"  # the scripted demo model, offline
    # PASSED: the toast was read off the step that saved the alarm; the end item off the final screen.
    alarm = cases["test_create_alarm"]["out"]
    assert "PASSED assert_ \"A toast says 'Alarm set for 7:30 AM' right after saving\"" in alarm
    assert "OCR reads 'Alarm set for 7:30 AM' in the step 3 post screenshot" in alarm
    assert "OCR of the final screen has no 'keeps stopping'" in alarm
    # FAILED: the assertion's evidence is the provider's row, with the number really saved.
    failed = cases["test_contact_number_failed"]["text"]
    assert "1 assertion failed" in failed and "display_name=Margaret Hamilton, data1=555-0199" in failed
    # BLOCKED: the agent claimed Finish; the probe kept reading the setting as unset.
    blocked = cases["test_extra_dim_blocked"]
    assert blocked["props"]["artemis.task_status"] == "blocked"
    steps = read_run(blocked["props"]["artemis.artifacts"]).steps
    assert any(a.kind == "finish" for s in steps for a in s.actions)
    assert "reduce_bright_colors_activated -> None (expected '1')" in blocked["text"]
    # UNCHECKED: an item quoting nothing on screen is inconclusive, never passed.
    assert "The screen looks darker" in cases["test_brightness_unchecked"]["text"]
    assert cases["test_brightness_unchecked"]["props"]["artemis.checks.inconclusive"] == "1"
    # Every run left its HTML report; the session index lists every test with its word.
    index = (artifacts / "index.html").read_text()
    for name, word in WORDS.items():
        report = Path(cases[name]["props"]["artemis.artifacts"]) / "report.html"
        assert word in report.read_text(), name
        assert f"{name}</a>" in index
    assert index.count('<tr data-outcome="PASSED"') == 4


def _demo_checker():
    sys.path.insert(0, str(EXAMPLES))
    try:
        import demo_checker
    finally:
        sys.path.remove(str(EXAMPLES))
    return demo_checker


@pytest.mark.parametrize(("text", "when", "entry", "status", "says"), [
    ("A toast says 'Alarm set for 7:30 AM'", "complete", "checkpoint", "passed", "step 2 post"),
    ("A toast says 'Alarm deleted'", "complete", "checkpoint", "failed", "does not read 'Alarm deleted'"),
    ("The screen looks darker", "complete", "checkpoint", "inconclusive", "quotes no on-screen text"),
    ("No 'keeps stopping' dialog appears", "end", "checkpoint", "inconclusive", "only be judged on the"),
    ("No 'keeps stopping' dialog appears", "end", "final", "passed", "has no 'keeps stopping'"),
    ("No 'Alarm' dialog appears", "end", "final", "failed", "reads 'Alarm'"),
])
def test_demo_checker_confirms_only_quoted_text_it_reads(text, when, entry, status, says):
    checker = _demo_checker()
    from pytest_artemis.contracts import CheckItem

    shots = [checker.Shot("step 2 pre", ("Set alarm", "7", "30")),
             checker.Shot("step 2 post", ("Alarm", "7:30 AM", "Alarm set for 7:30AM"))]
    if entry == "final":
        shots = [checker.Shot("final screen", ("Alarm", "7:30 AM"))]
    verdict = checker.judge_item(CheckItem(kind="assert", text=text, when=when), entry, shots)
    assert verdict.status == status and says in verdict.evidence, verdict


def test_demo_checker_without_ocr_says_so(monkeypatch):
    checker = _demo_checker()
    from pytest_artemis.agents.schemas import CheckReport
    from pytest_artemis.contracts import CheckItem
    from pytest_artemis.models import ChatMessage, RequestContext
    from pytest_artemis.testing import ScriptedRequest

    monkeypatch.setitem(sys.modules, "rapidocr", None)  # as if the `ocr` extra were not installed
    checker._ocr_engine.cache_clear()
    item = CheckItem(kind="assert", text="A toast says 'Saved'")
    request = ScriptedRequest(role="checker", schema=CheckReport, messages=(ChatMessage("user", "judge"),),
                              context=RequestContext(goal="g", checks=(item,), entry="checkpoint"))
    try:
        report = checker.check(request)
    finally:
        checker._ocr_engine.cache_clear()
    assert [v.status for v in report.verdicts] == ["inconclusive"]
    assert "OCR is not installed" in report.verdicts[0].evidence
