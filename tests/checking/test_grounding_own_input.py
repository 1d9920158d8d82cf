"""Grounding: text the operator typed into an input field is the agent's own words, not evidence."""

from __future__ import annotations

from pathlib import Path

import pytest
from grounding_helpers import ground_one

from pytest_artemis.agents.schemas import CitationClaim
from pytest_artemis.checking.grounding import Window
from pytest_artemis.checking.history import ProbeOutput
from pytest_artemis.checking.screens import RecordedScreens
from pytest_artemis.contracts import Bounds, CheckItem, ScreenView, UIElement

GOAL = CheckItem(kind="goal", text="Create an alarm for 7:30 AM", when="end")
TYPED = "Alarm set for 7:30 AM"
WINDOW = Window(last_step=2, first_acted=1, typed=(TYPED,))
NO_ALARM_YET = ProbeOutput("alarms", "Next alarm clock information: none\n")
"""The baseline: no alarm at 7:30 before the run (so a pass of the goal is brought about by it)."""


def ground(claim, item, window, screens, probes=(), *, passed=True):
    return ground_one(claim, item, window, screens, probes, passed=passed, baseline=[NO_ALARM_YET])


def _element(index: int, text: str, cls: str, box: tuple[int, int, int, int], source: str = "hierarchy"):
    return UIElement(index=index, text=text, class_name=cls, bounds=Bounds(left=box[0], top=box[1],
                                                                        right=box[2], bottom=box[3]),
                     source=source)  # type: ignore[arg-type]


def _screens(tmp_path: Path, *elements: UIElement) -> RecordedScreens:
    screens = RecordedScreens(tmp_path)
    screens.record(2, "post", ScreenView(width=1080, height=2400, elements=elements))
    return screens


FIELD = _element(0, TYPED, "android.widget.EditText", (0, 0, 1080, 200))
LABEL = _element(1, TYPED, "android.widget.TextView", (0, 300, 1080, 400))
OCR_IN_FIELD = _element(1, TYPED, "", (10, 10, 900, 190), source="ocr")


@pytest.mark.parametrize("claim", [CitationClaim(step=2, quote=TYPED),
                                   CitationClaim(step=2, element=0, quote="7:30 AM"),
                                   CitationClaim(step=2, element=0, attribute="text=Alarm set")])
def test_a_pass_on_the_agents_own_input_is_not_grounded(tmp_path, claim):
    citation, why = ground(claim, GOAL, WINDOW, _screens(tmp_path, FIELD))
    assert citation is not None and not citation.found
    assert f"is what the operator typed ({TYPED!r})" in why


def test_ocr_text_read_inside_the_field_is_the_same_input(tmp_path):
    blank_field = FIELD.model_copy(update={"text": ""})  # the dump hides it; OCR reads it off the pixels
    screens = _screens(tmp_path, blank_field, OCR_IN_FIELD)
    _, why = ground(CitationClaim(step=2, quote="Alarm set"), GOAL, WINDOW, screens)
    assert "'Alarm set' is in an input field" in why


def test_the_same_text_shown_by_the_app_is_evidence(tmp_path):
    citation, why = ground(CitationClaim(step=2, quote=TYPED), GOAL, WINDOW, _screens(tmp_path, FIELD, LABEL))
    assert why == "" and citation is not None and citation.found and citation.bounds == (0, 300, 1080, 400)


def test_a_field_the_agent_did_not_type_into_is_evidence(tmp_path):
    window = Window(last_step=2, first_acted=1, typed=("something else",))
    citation, why = ground(CitationClaim(step=2, quote=TYPED), GOAL, window, _screens(tmp_path, FIELD))
    assert why == "" and citation is not None and citation.found


def test_a_failed_verdict_may_cite_the_field(tmp_path):
    _, why = ground(CitationClaim(step=2, quote=TYPED), GOAL, WINDOW, _screens(tmp_path, FIELD), passed=False)
    assert why == ""


@pytest.mark.parametrize("parts", [("Alarm set fo", "r 7:30 AM"), ("Alarm set", "for 7:30 AM"),
                                   (TYPED + "X",)])  # then the X erased
def test_what_the_agent_typed_in_parts_or_then_cut_short_is_its_own_input_too(tmp_path, parts):
    window = Window(last_step=2, first_acted=1, typed=parts)
    citation, why = ground(CitationClaim(step=2, quote=TYPED), GOAL, window, _screens(tmp_path, FIELD))
    assert citation is not None and not citation.found and "is what the operator typed" in why
