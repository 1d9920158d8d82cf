"""Grounding what a citation says, not only that it exists: a pass may not rest on a clause that negates
it ("No alarm set", the "Wi-Fi off" of a summary), on a probe's unreadable output (an error message), on
"checked=false" of an element that has no checked state, nor, for an item about an absence, on a screen
that shows what should be absent."""

from __future__ import annotations

from pathlib import Path

import pytest
from grounding_helpers import ground_one

from pytest_artemis.agents.schemas import CitationClaim
from pytest_artemis.checking.facts import facts
from pytest_artemis.checking.grounding import Window
from pytest_artemis.checking.history import ProbeOutput
from pytest_artemis.checking.readings import negated as negated_in
from pytest_artemis.checking.screens import RecordedScreens
from pytest_artemis.contracts import Bounds, CheckItem, ScreenView, UIElement

GOAL = CheckItem(kind="goal", text="Turn Wi-Fi on in Settings", when="end")
ALARM = CheckItem(kind="assert", text="An alarm is set")
AT_EXIT = Window(last_step=2, final=True, first_acted=1)


def ground(claim, item, window, screens, probes=(), *, passed=True, baseline=()):
    return ground_one(claim, item, window, screens, probes, passed=passed, baseline=baseline)
SUMMARY = "Mobile, Wi\u2011Fi off, hotspot"


def negated(text, quote, item):
    return negated_in(text, quote, facts(item.text)[0])


@pytest.mark.parametrize(("text", "quote", "word"), [
    (SUMMARY, "Wi-Fi", ""),  # "off" is a state, read as one (below), not a denial of the words
    ("No alarm set", "Alarm set", "no"),
    ("No alarm set", "No alarm set", "no"),
    ("Wi-Fi isn't connected", "connected", "isn t"),
    ("Not scheduled", "scheduled", "not"),
    ("Mobile, Wi\u2011Fi, hotspot", "Wi-Fi", ""),
    (SUMMARY, "hotspot", ""),  # another clause
    ("Airplane mode is on", "Airplane mode", ""),
    ("Alarm set for 7:30 AM", "Alarm set", ""),
    ("No alarm set. Alarm set for 7:30 AM", "Alarm set", ""),  # one clause holds it plainly
])
def test_a_negating_word_in_the_quoted_clause(text, quote, word):
    assert negated(text, quote, GOAL) == word


@pytest.mark.parametrize(("text", "state"), [
    (SUMMARY, "off"), ("Mobile, Wi\u2011Fi, hotspot", None), ("Wi-Fi is on", "on"), ("Off", "off"),
    ("Airplane mode is on", None),  # about airplane mode, not Wi-Fi
])
def test_the_state_a_text_says_of_the_items_topic(text, state):
    from pytest_artemis.checking.readings import Shown, state_of

    assert state_of(Shown(where="x", moment=1, label=text), facts(GOAL.text)[0]) == state


def test_words_the_item_says_and_items_about_an_absence_are_exempt():
    assert negated(SUMMARY, "Wi-Fi", CheckItem(kind="goal", text="Turn Wi-Fi off", when="end")) == ""
    assert negated("No alarms", "alarms", CheckItem(kind="assert", text="No alarm is listed")) == ""
    unscheduled = CheckItem(kind="verify", text="The alarm is not scheduled")
    assert negated("Not scheduled", "scheduled", unscheduled) == ""


def _final(tmp_path: Path, *labels: str) -> RecordedScreens:
    screens = RecordedScreens(tmp_path)
    elements = tuple(UIElement(index=i, text=label, class_name="android.widget.TextView",
                               bounds=Bounds(left=0, top=100 * i, right=1080, bottom=100 * i + 90))
                     for i, label in enumerate(labels))
    screens.record_final(ScreenView(width=1080, height=2400, elements=elements))
    return screens


@pytest.mark.parametrize("claim", [
    CitationClaim(screen="final", quote="Wi-Fi"),
    CitationClaim(screen="final", element=1, quote="Wi-Fi"),
    CitationClaim(screen="final", element=1, attribute="text=Wi-Fi"),
])
def test_a_fragment_of_a_text_that_says_the_opposite_state_does_not_ground_a_pass(tmp_path, claim):
    screens = _final(tmp_path, "Network & internet", SUMMARY)
    citation, why = ground(claim, GOAL, AT_EXIT, screens)
    assert citation is not None and not citation.found
    assert why == "[E6] the final screen shows 'wifi' 'off', but the item wants it 'on'"
    assert ground(claim, GOAL, AT_EXIT, screens, passed=False)[1] == ""  # a failure may cite it


LISTED = CheckItem(kind="assert", text="The list shows 'Alarm set'")


def test_a_quote_also_shown_plainly_grounds_a_pass(tmp_path):
    screens = _final(tmp_path, "No alarm set", "Alarm set")
    citation, why = ground(CitationClaim(screen="final", quote="Alarm set"), LISTED, AT_EXIT, screens)
    assert why == "" and citation is not None and citation.found
    only_negated = _final(tmp_path, "No alarm set")
    why = ground(CitationClaim(screen="final", quote="Alarm set"), LISTED, AT_EXIT, only_negated)[1]
    assert why == ("[E6] 'Alarm set' is part of 'No alarm set' on the final screen, which says 'no': that is "
                   "no evidence it holds")


ALARMS_URI = {"uri": "content://com.android.deskclock/alarms"}
ROWS = "Row: 0 _id=1, hour=7, minutes=30, enabled=1, label=\n"


@pytest.mark.parametrize(("outputs", "quote", "reason"), [
    ([ProbeOutput("content", "Error while accessing provider:settings\nUnknown URL content://settings/wifi_on",
                  "Error while accessing provider:settings", params=ALARMS_URI)], "wifi_on",
     "[E2] probe 'content' gave no readable output (Error while accessing provider:settings): its text is "
     "not evidence"),
    ([ProbeOutput("content", "No result found.\n", params=ALARMS_URI)], "result found",
     "[E6] probe 'content' reads 'No result found.', which says 'no': that is no evidence it holds"),
    ([ProbeOutput("content", "No result found.\n")], "result found",  # a query naming nothing of alarms
     "[E4] the cited output of probe 'content' ('No result found.') names nothing the item is about "
     "('alarm'): real but unrelated evidence shows nothing about it"),
    ([ProbeOutput("content", "Error: x", "unreadable"), ProbeOutput("content", ROWS, params=ALARMS_URI)],
     "hour=7", ""),
])
def test_a_probe_pass_needs_readable_output_about_the_item_that_does_not_deny_it(outputs, quote, reason):
    claim = CitationClaim(probe="content", quote=quote)
    citation, why = ground(claim, ALARM, AT_EXIT, RecordedScreens(Path(".")), outputs)
    assert why == reason
    assert citation is not None and citation.found == (not reason)


CONTACTS = {"uri": "content://com.android.contacts/data/phones", "projection": "display_name:data1"}
CONTACT_ROWS = ("Row: 0 display_name=Katherine Johnson, data1=555-0142\n"
                "Row: 1 display_name=Ada Lovelace, data1=555-0100\n")
BEFORE = [ProbeOutput("content", "Row: 0 display_name=Ada Lovelace, data1=555-0100\n", params=CONTACTS)]
"""The baseline: Katherine Johnson was not a contact before the run."""
TOAST = CheckItem(kind="assert", text="A toast says 'Alarm set for 7:30 AM'")
SAVED = CheckItem(kind="verify", text="The contact 'Katherine Johnson' is saved")
UNQUOTED = CheckItem(kind="verify", text="Katherine Johnson is saved with her number")


@pytest.mark.parametrize(("item", "quote", "reason"), [
    (TOAST, "hour=7",  # the alarm exists; that says nothing of a toast on screen
     "[E4] the cited output of probe 'content' is not a toast, which the item expects"),
    (SAVED, "Ada Lovelace", "[E6] none of the citations shows 'Katherine Johnson', which the item names"),
    (SAVED, "display_name=Katherine Johnson", ""),
    (SAVED, "555-0142", ""),  # the line of the quote holds the item's quote
    (UNQUOTED, "555-0142", ""),
    (GOAL, "Ada Lovelace", "[E4] the cited output of probe 'content' ('Row: 1 display_name=Ada Lovelace, "
                           "data1=555-0100') names nothing the item is about ('wifi'): real but unrelated "
                           "evidence shows nothing about it"),
])
def test_a_probe_pass_rests_on_output_about_the_item(item, quote, reason):
    outputs = [ProbeOutput("content", ROWS + CONTACT_ROWS, acted=2, params=CONTACTS)]
    claim, screens = CitationClaim(probe="content", quote=quote), RecordedScreens(Path("."))
    citation, why = ground(claim, item, AT_EXIT, screens, outputs, baseline=BEFORE)
    assert why == reason
    assert citation is not None and citation.found == (not reason)
    # a failure is not held to it: it may cite what the output shows instead
    assert ground(claim, item, AT_EXIT, screens, outputs, passed=False)[1] == ""


def test_a_probe_citation_marked_visual_is_still_held_to_the_item():
    """``visual`` exempts a judgement of a screenshot, not a probe's output the checker calls a look."""
    outputs = [ProbeOutput("content", ROWS, params=ALARMS_URI)]
    claim = CitationClaim(probe="content", quote="hour=7", visual=True)
    citation, why = ground(claim, TOAST, AT_EXIT, RecordedScreens(Path(".")), outputs)
    assert citation is not None and not citation.found
    assert why == "[E4] the cited output of probe 'content' is not a toast, which the item expects"


NO_DIALOG = CheckItem(kind="assert", text="No 'keeps stopping' dialog appears", when="end")
DIALOG = "[E10] the final screen shows 'Settings keeps stopping', which the item says does not appear"


def test_an_absence_does_not_pass_on_a_screen_showing_what_it_says_is_absent(tmp_path):
    screens = _final(tmp_path, "Settings keeps stopping", "Close app")
    claim = CitationClaim(screen="final", quote="Close app")
    citation, why = ground(claim, NO_DIALOG, AT_EXIT, screens)
    assert citation is not None and not citation.found and why == DIALOG
    assert ground(claim, NO_DIALOG, AT_EXIT, screens, passed=False)[1] == ""  # a failure may cite it
    earlier = CitationClaim(step=2, screen="pre", quote="Settings")
    screens.record(2, "pre", _final(tmp_path, "Settings").finals()[0])
    assert ground(earlier, NO_DIALOG, AT_EXIT, screens)[1] == DIALOG  # still there at exit
    healthy = _final(tmp_path, "Settings", "Network & internet")
    assert ground(CitationClaim(screen="final", quote="Settings"), NO_DIALOG, AT_EXIT, healthy)[1] == ""


OFF = CheckItem(kind="goal", text="Turn Wi-Fi off", when="end")
WIFI_WAS_ON = [ProbeOutput("settings", "airplane_mode_on=0\nwifi_on=1\n", params={"ns": "global"})]


def test_checked_false_shows_nothing_of_an_element_that_cannot_be_checked(tmp_path):
    screens = RecordedScreens(tmp_path)
    title = UIElement(index=0, text="Wi\u2011Fi", class_name="android.widget.TextView",
                      bounds=Bounds(left=60, top=310, right=800, bottom=390))
    switch = UIElement(index=1, text="OFF", class_name="android.widget.Switch", checkable=True,
                       bounds=Bounds(left=900, top=300, right=1000, bottom=400))
    screens.record_final(ScreenView(width=1080, height=2400, elements=(title, switch)))
    citation, why = ground(CitationClaim(screen="final", element=0, attribute="checked=false"), OFF, AT_EXIT,
                           screens, baseline=WIFI_WAS_ON)
    assert citation is not None and not citation.found and why.endswith("it has no checked state")
    assert ground(CitationClaim(screen="final", element=1, attribute="checked=false"), OFF, AT_EXIT,
                  screens, baseline=WIFI_WAS_ON)[1] == ""
    # the switch's own OFF says so as well as checked=false does ("Disable Wi-Fi" is about the state off)
    disable = CheckItem(kind="goal", text="Disable Wi-Fi", when="end")
    assert ground(CitationClaim(screen="final", quote="OFF"), disable, AT_EXIT, screens,
                  baseline=WIFI_WAS_ON)[1] == ""


@pytest.mark.parametrize(("window", "dialog_at", "reason"), [
    (Window(last_step=5, anchor=5, first_acted=1), (4, "post"), "step 4 post-screen"),
    (Window(last_step=3, final=True, first_acted=1), (3, "pre"), "step 3 pre-screen"),
    (Window(last_step=5, anchor=5, first_acted=1), (2, "post"), ""),  # not served: before the window
])
def test_an_absence_does_not_pass_while_a_screen_its_judgement_was_served_shows_it(
    tmp_path, window, dialog_at, reason
):
    item = NO_DIALOG.model_copy(update={"when": "end" if window.final else "complete"})
    screens = _final(tmp_path, "Settings")
    clean = screens.finals()[0]
    for step in range(1, 6):
        for which in ("pre", "post"):
            screens.record(step, which, clean)
    screens.record(*dialog_at, _final(tmp_path, "Settings keeps stopping").finals()[0])
    claim = CitationClaim(screen="final", quote="Settings") if window.final else \
        CitationClaim(step=5, screen="post", quote="Settings")
    why = ground(claim, item, window, screens)[1]
    assert why == (f"[E10] {reason} shows 'Settings keeps stopping', which the item says does not appear"
                   if reason else "")
