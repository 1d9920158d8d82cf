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

from pytest_artemis.junit import read_properties
from pytest_artemis.store import read_run

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"

#: The outcome each example test documents (its docstring and README say the same).
WORDS = {
    "test_airplane_mode": "PASSED",
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
    by_name = {nodeid.rpartition("::")[2]: props for nodeid, props in read_properties(xml).items()}
    for tc in ET.parse(xml).getroot().iter("testcase"):
        result = next((c for c in tc if c.tag in ("failure", "error", "skipped")), None)
        props = by_name.get(tc.get("name", ""), {})
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
    proc = subprocess.run(argv, cwd=REPO, env=env, capture_output=True, text=True, timeout=900)
    return proc, _cases(tmp / "junit.xml"), tmp / "artifacts"


@pytest.mark.slow
def test_examples_show_each_documented_outcome(example_run):
    proc, cases, artifacts = example_run
    assert proc.returncode == 1, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "1 failed, 5 passed, 1 blocked, 1 unchecked" in proc.stdout.splitlines()[-1]
    assert {name: case["props"]["artemis.outcome"] for name, case in cases.items()} == WORDS
    for name, word in WORDS.items():
        assert cases[name]["element"] == ELEMENTS[word], name
        assert cases[name]["props"]["artemis.tokens"] == "0"  # the scripted demo model, offline
    # PASSED: the toast was cited off the step that saved the alarm (found by the harness's OCR), the end
    # item and the goal off the final screen; every deciding model verdict carries a found citation.
    alarm = cases["test_create_alarm"]["out"]
    assert "PASSED assert_ \"A toast says 'Alarm set for 7:30 AM' right after saving\"" in alarm
    assert "post-screen shows 'Alarm set for 7:30 AM'" in alarm
    assert "the final screen has no 'keeps stopping'" in alarm
    for name, word in WORDS.items():
        if word != "PASSED":
            continue
        ledger = read_run(cases[name]["props"]["artemis.artifacts"]).verdicts
        model = [v for v in ledger if v.source == "model" and v.status == "passed"]
        assert model and all(v.citation is not None and v.citation.found for v in model), name
        assert any(v.kind == "goal" for v in model), name
    toast = [v for v in read_run(cases["test_create_alarm"]["props"]["artemis.artifacts"]).verdicts
             if v.item_text.startswith("A toast says") and v.status == "passed"]
    assert toast and toast[-1].citation is not None and toast[-1].citation.found_in == "ocr"
    # FAILED: the assertion's evidence is the provider's row, with the number really saved.
    failed = cases["test_contact_number_failed"]["text"]
    assert "1 assertion failed" in failed and "display_name=Margaret Hamilton, data1=555-0199" in failed
    # BLOCKED: the agent claimed Finish; the probe kept reading the setting as unset.
    blocked = cases["test_extra_dim_blocked"]
    assert blocked["props"]["artemis.task_status"] == "blocked"
    steps = read_run(blocked["props"]["artemis.artifacts"]).steps
    assert any(a.kind == "finish" for s in steps for a in s.actions)
    assert "reduce_bright_colors_activated -> None (expected '1')" in blocked["text"]
    # UNCHECKED: an item quoting nothing on screen is inconclusive, never passed; so is the goal, which
    # the demo checker has no way to read on the screen for brightness.
    assert "The screen looks darker" in cases["test_brightness_unchecked"]["text"]
    assert cases["test_brightness_unchecked"]["props"]["artemis.checks.inconclusive"] == "2"
    # Every run left its HTML report; the session index lists every test with its word.
    index = (artifacts / "index.html").read_text()
    for name, word in WORDS.items():
        report = Path(cases[name]["props"]["artemis.artifacts"]) / "report.html"
        assert word in report.read_text(), name
        assert f"{name}</a>" in index
    assert index.count('<tr data-outcome="PASSED"') == list(WORDS.values()).count("PASSED")


def _demo_checker():
    sys.path.insert(0, str(EXAMPLES))
    try:
        import demo_checker
    finally:
        sys.path.remove(str(EXAMPLES))
    return demo_checker


def _screen(step, which, *labels, ocr=()):
    """A recorded screen of hierarchy elements ``labels``, then elements read by OCR (``ocr``)."""
    from pytest_artemis.contracts import Bounds, EvidenceScreen, ScreenView, UIElement

    elements = tuple(UIElement(index=i, text=label, source="ocr" if i >= len(labels) else "hierarchy",
                                bounds=Bounds(left=0, top=10 * i, right=10, bottom=10 * i + 9))
                     for i, label in enumerate((*labels, *ocr)))
    return EvidenceScreen(step=step, screen=which, view=ScreenView(width=100, height=100, elements=elements))


@pytest.mark.parametrize(("text", "when", "entry", "status", "says"), [
    ("A toast says 'Alarm set for 7:30 AM'", "complete", "checkpoint", "passed", "step 2 post-screen"),
    ("A toast says 'Alarm deleted'", "complete", "checkpoint", "failed", "no recorded screen shows"),
    ("The screen looks darker", "complete", "checkpoint", "inconclusive", "quotes no on-screen text"),
    ("No 'keeps stopping' dialog appears", "end", "checkpoint", "inconclusive", "only be judged on the"),
    ("No 'keeps stopping' dialog appears", "end", "final", "passed", "has no 'keeps stopping'"),
    ("No 'Alarm' dialog appears", "end", "final", "failed", "shows 'Alarm'"),
])
def test_demo_checker_confirms_only_quoted_text_it_reads(text, when, entry, status, says):
    checker = _demo_checker()
    from pytest_artemis.contracts import CheckItem

    screens = [_screen(2, "pre", "Set alarm", "7", "30"),
               _screen(2, "post", "Alarm", "7:30 AM", ocr=("Alarm set for 7:30AM",))]  # OCR drops a space
    if entry == "final":
        screens = [_screen(None, "final", "Alarm", "7:30 AM")]
    verdict = checker.check.judge(CheckItem(kind="assert", text=text, when=when), entry, screens)
    assert verdict.status == status and says in verdict.evidence, verdict
    if status in ("passed", "failed"):
        assert verdict.citation is not None and verdict.citation.screen == screens[-1].screen


def test_demo_checker_judges_the_goal_on_the_final_screen_only(monkeypatch):
    checker = _demo_checker()
    monkeypatch.syspath_prepend(str(EXAMPLES))  # the goal recipes live in demo_agent
    from pytest_artemis.contracts import Bounds, CheckItem, EvidenceScreen, UIElement

    goal = CheckItem(kind="goal", text="Create an alarm for 7:30 AM in the Clock app", when="end")
    final = _screen(None, "final", "Alarm", "7:30 AM")
    assert checker.check.judge_goal(goal, [final]).status == "passed"
    assert checker.check.judge_goal(goal, [_screen(3, "post", "7:30 AM")]).status == "inconclusive"
    other = CheckItem(kind="goal", text="Make the phone happy", when="end")
    assert checker.check.judge_goal(other, [final]).status == "inconclusive"
    wifi = CheckItem(kind="goal", text="Turn off Wi‑Fi in Settings", when="end")
    switch = UIElement(index=1, class_name="android.widget.Switch", checkable=True, checked=True,
                       bounds=Bounds(left=900, top=300, right=1000, bottom=400))
    row = _screen(None, "final", "Network & internet", "Wi‑Fi").view
    on = EvidenceScreen(step=None, screen="final", view=row.model_copy(update={
        "elements": (row.elements[0], row.elements[1].model_copy(update={"bounds": Bounds(
            left=0, top=300, right=800, bottom=400)}), switch.model_copy(update={"index": 2}))}))
    verdict = checker.check.judge_goal(wifi, [on])
    assert verdict.status == "failed" and verdict.citation is not None, verdict
    assert verdict.citation.attribute == "checked=true"


@pytest.mark.slow
def test_the_airplane_example_passes_copied_anywhere(tmp_path):
    """The walkthrough's test needs nothing else from examples/: copied alone, it passes there."""
    (tmp_path / "test_airplane_mode.py").write_bytes((EXAMPLES / "test_airplane_mode.py").read_bytes())
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARTEMIS_")}
    argv = [sys.executable, "-m", "pytest", "test_airplane_mode.py", "--artemis-device=sim", "-v",
            "-p", "no:cacheprovider"]
    proc = subprocess.run(argv, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "test_airplane_mode.py::test_airplane_mode PASSED" in proc.stdout
