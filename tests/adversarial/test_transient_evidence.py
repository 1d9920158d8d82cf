"""Transient evidence, honestly: a toast cited from the step that saved the alarm passes only when the
harness itself reads it there; with the simulated phone's toasts hidden, the same claim is UNCHECKED."""

from __future__ import annotations

import hashlib

import pytest
from fault_harness import run_matrix

TOAST = '''
import pytest
from fault_scripts import CLOCK, alarm_decision
from pytest_artemis.agents.schemas import CheckReport, CitationClaim, ModelVerdict, PlanReply

PLAN = "- [ ] Create a 7:30 AM alarm\\n"


def respond(request, device):
    if request.role == "planner":
        return PlanReply(plan=PLAN)
    if request.role == "operator":
        return alarm_decision(request)
    out = []
    for item in request.checks:
        if item.kind == "goal":  # the goal: the alarm listed on the final screen
            claim = CitationClaim(screen="final", quote="7:30 AM")
        else:  # always claims the toast on the anchor step's post-screen, seen or not
            anchor = max(s.step for s in request.screens if s.step is not None)
            claim = CitationClaim(step=anchor, screen="post", quote="Alarm set for 7:30 AM")
        out.append(ModelVerdict(item=item.text, status="passed", evidence="as cited", citation=claim))
    return CheckReport(verdicts=out)


@pytest.fixture
def no_toasts(artemis_sim_faults):
    artemis_sim_faults.hide_toasts()


@pytest.mark.goal("Create an alarm for 7:30 AM", app=CLOCK)
@pytest.mark.assert_("A toast says 'Alarm set for 7:30 AM' right after saving")
def test_toast_shown(artemis):
    pass


@pytest.mark.goal("Create an alarm for 7:30 AM", app=CLOCK)
@pytest.mark.assert_("A toast says 'Alarm set for 7:30 AM' right after saving")
def test_toast_hidden(no_toasts, artemis):
    pass
'''


@pytest.mark.slow
@pytest.mark.parametrize(("name", "word"), [("test_toast_shown", "PASSED"),
                                           ("test_toast_hidden", "UNCHECKED")])
def test_a_toast_passes_only_when_the_harness_reads_it(ocr_warm, project, name, word):
    project.makepyfile(test_toast=TOAST)
    matrix = run_matrix(project, "--artemis-ocr=rapidocr", "-k", name)
    matrix.expect(name, word)
    toast = [v for v in matrix.journal(name).verdicts if v.item_text.startswith("A toast says")]
    assert toast and toast[-1].citation is not None
    if word == "PASSED":
        assert toast[-1].citation.found and toast[-1].citation.found_in == "ocr"
    else:
        assert toast[-1].status == "inconclusive" and "not found in step" in toast[-1].reason


@pytest.mark.slow
def test_kept_ocr_readings_never_stand_in_for_a_changed_screen(ocr_warm, project, monkeypatch):
    """A session that read the toast keeps its readings; a run where the toast is hidden (other pixels)
    reads afresh and stays UNCHECKED; the toast's run again, from a fresh process's memory, perceives every
    screen from the cache directory and reads again only the screenshots a passing verdict cites by their
    OCR text (a kept reading is a claim about the pixels, not a reading of them), and passes as before."""
    from pytest_artemis.device import ocr_cache
    from pytest_artemis.device.ocr import RapidOcrEngine

    # In-process runs share the process's memory of readings: start as a fresh process would.
    monkeypatch.setattr(ocr_cache, "_memory", type(ocr_cache._memory)())
    project.makepyfile(test_toast=TOAST)
    ocr = ("-p", "cacheprovider", "--artemis-ocr=rapidocr")  # pytest's cache on, as in a user's session
    run_matrix(project, *ocr, "-k", "test_toast_shown").expect("test_toast_shown", "PASSED")
    assert list((project.path / ".pytest_cache").rglob("artemis-ocr/*/*.json"))
    reads: list[str] = []
    engine_read = RapidOcrEngine.read
    monkeypatch.setattr(RapidOcrEngine, "read",
                        lambda self, png: (reads.append(hashlib.sha256(png).hexdigest())
                                           or engine_read(self, png)))
    run_matrix(project, *ocr, "-k", "test_toast_hidden").expect("test_toast_hidden", "UNCHECKED")
    assert reads, "the hidden toast's screens are other images: read afresh"
    reads.clear()
    monkeypatch.setattr(ocr_cache, "_memory", type(ocr_cache._memory)())
    matrix = run_matrix(project, *ocr, "-k", "test_toast_shown")
    matrix.expect("test_toast_shown", "PASSED")
    record = matrix.journal("test_toast_shown")
    toast = [v for v in record.verdicts if v.item_text.startswith("A toast says")]
    assert toast[-1].citation is not None and toast[-1].citation.found_in == "ocr"
    # The engine is handed each screen's stored PNG (a screen is named by the frame the phone sent).
    cited = {hashlib.sha256(record.screen_path(c.screenshot).read_bytes()).hexdigest()
             for v in record.verdicts if v.status == "passed" for c in v.citations
             if c.found_in == "ocr" and c.screenshot}
    assert reads and set(reads) <= cited, "only the screenshots cited by their OCR text are read again"
