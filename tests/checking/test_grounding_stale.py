"""Grounding stale evidence: a pass rests on the state when its item is judged (at exit for the goal and
``end`` items, at the anchor step for a checkpoint)."""

from __future__ import annotations

from pathlib import Path

import pytest
from grounding_helpers import ground_one as ground

from pytest_artemis.agents.schemas import CitationClaim
from pytest_artemis.checking.grounding import Window
from pytest_artemis.checking.history import ProbeOutput
from pytest_artemis.checking.screens import RecordedScreens
from pytest_artemis.contracts import Bounds, CheckItem, ScreenView, UIElement

GOAL = CheckItem(kind="goal", text="Turn Wi-Fi on", when="end")
END_ASSERT = CheckItem(kind="assert", text="The Wi-Fi switch reads ON", when="end")
AT_EXIT = Window(last_step=3, final=True, first_acted=1)
WIFI_ON = {"ns": "global", "key": "wifi_on"}


def _switch(on: bool) -> UIElement:
    return UIElement(index=4, text="ON" if on else "OFF", class_name="android.widget.Switch", checkable=True,
                     checked=on, bounds=Bounds(left=900, top=300, right=1000, bottom=400))


TITLE = UIElement(index=3, text="Wi\u2011Fi", class_name="android.widget.TextView",
                  bounds=Bounds(left=60, top=310, right=800, bottom=390))


def _row(on: bool) -> tuple[UIElement, ...]:
    """The Wi-Fi row of the Network & internet page: its title and its switch."""
    return (TITLE, _switch(on))


def _off_first(screens: RecordedScreens) -> RecordedScreens:
    """Wi-Fi was off when the run first saw it (so a pass is brought about by the run)."""
    screens.record(1, "pre", ScreenView(width=1080, height=2400, elements=_row(False)))
    return screens


def _screens(tmp_path: Path, *, on_at_exit: bool | None) -> RecordedScreens:
    screens = _off_first(RecordedScreens(tmp_path))
    screens.record(2, "pre", ScreenView(width=1080, height=2400, elements=_row(True)))
    if on_at_exit is not None:
        screens.record_final(ScreenView(width=1080, height=2400, elements=_row(on_at_exit)))
    return screens


CLAIMS = [CitationClaim(step=2, screen="pre", quote="ON"),
          CitationClaim(step=2, screen="pre", element=4, attribute="checked=true")]


@pytest.mark.parametrize("item", [GOAL, END_ASSERT])
@pytest.mark.parametrize("claim", CLAIMS)
def test_an_earlier_screen_whose_state_is_gone_at_exit_does_not_ground_a_pass(tmp_path, item, claim):
    citation, why = ground(claim, item, AT_EXIT, _screens(tmp_path, on_at_exit=False))
    assert citation is not None and not citation.found
    assert why.startswith("[E8] step 2 pre-screen shows it, but the final screen no longer does")


@pytest.mark.parametrize("claim", CLAIMS)
def test_an_earlier_screen_whose_state_still_shows_at_exit_grounds_a_pass(tmp_path, claim):
    citation, why = ground(claim, GOAL, AT_EXIT, _screens(tmp_path, on_at_exit=True))
    assert why == "" and citation is not None and citation.found


def test_without_a_final_screen_an_earlier_one_cannot_ground_a_pass(tmp_path):
    _, why = ground(CLAIMS[0], GOAL, AT_EXIT, _screens(tmp_path, on_at_exit=None))
    assert "no final screen was recorded" in why


def test_a_complete_item_or_a_failed_verdict_may_cite_the_earlier_screen(tmp_path):
    verify = CheckItem(kind="verify", text="The Wi-Fi switch reads ON")
    screens = _screens(tmp_path, on_at_exit=False)
    assert ground(CLAIMS[0], verify, AT_EXIT, screens)[1] == ""
    assert ground(CLAIMS[0], END_ASSERT, AT_EXIT, screens, passed=False)[1] == ""


AT_ANCHOR = Window(last_step=5, anchor=5, first_acted=1)
"""A checkpoint anchored to step 5: it is served steps 4 and 5; steps 1-3 are in its window, but older."""


def _anchored(tmp_path: Path, *, on_at_anchor: bool, post_elements: bool = True) -> RecordedScreens:
    screens = _off_first(RecordedScreens(tmp_path))
    screens.record(2, "pre", ScreenView(width=1080, height=2400, elements=_row(True)))
    for step in (4, 5):
        screens.record(step, "pre", ScreenView(width=1080, height=2400, elements=_row(on_at_anchor)))
    post = _row(on_at_anchor) if post_elements else ()
    screens.record(5, "post", ScreenView(width=1080, height=2400, elements=post))
    return screens


@pytest.mark.parametrize("kind", ["verify", "assert"])
@pytest.mark.parametrize("claim", CLAIMS)
@pytest.mark.parametrize("post_elements", [True, False])
def test_a_screen_older_than_a_checkpoint_whose_state_is_gone_at_the_anchor_does_not_ground_a_pass(
    tmp_path, kind, claim, post_elements
):
    item = CheckItem(kind=kind, text="The Wi-Fi switch reads ON")
    screens = _anchored(tmp_path, on_at_anchor=False, post_elements=post_elements)
    citation, why = ground(claim, item, AT_ANCHOR, screens)
    assert citation is not None and not citation.found
    assert why.startswith("[E8] step 2 pre-screen shows it, but step 5 (the anchor) no longer does")


@pytest.mark.parametrize("claim", CLAIMS)
def test_an_older_screen_whose_state_still_shows_at_the_anchor_grounds_a_pass(tmp_path, claim):
    verify = CheckItem(kind="verify", text="The Wi-Fi switch reads ON")
    assert ground(claim, verify, AT_ANCHOR, _anchored(tmp_path, on_at_anchor=True))[1] == ""


def test_the_screens_served_with_a_checkpoint_may_show_a_message_gone_at_the_anchor(tmp_path):
    """A message shown right before the tick (a toast, a snackbar) is evidence from a served screen though
    the anchor's post-screen no longer shows it; so is any state cited by a failed verdict."""
    verify = CheckItem(kind="verify", text="A 'Wi-Fi turned on' message appears")
    screens = _anchored(tmp_path, on_at_anchor=False)
    toast = UIElement(index=7, text="Wi-Fi turned on", class_name="android.widget.TextView",
                      bounds=Bounds(left=100, top=2000, right=900, bottom=2100))
    screens.record(4, "post", ScreenView(width=1080, height=2400, elements=(*_row(True), toast)))
    message = CitationClaim(step=4, screen="post", element=7, quote="Wi-Fi turned on")
    assert ground(message, verify, AT_ANCHOR, screens)[1] == ""
    reads_on = CheckItem(kind="verify", text="The Wi-Fi switch reads ON")
    off_then = CitationClaim(step=2, screen="pre", quote="ON")
    assert ground(off_then, reads_on, AT_ANCHOR, screens, passed=False)[1] == ""


@pytest.mark.parametrize("which", [(4, "pre"), (4, "post"), (5, "pre")])
@pytest.mark.parametrize("claim", [dict(element=4, attribute="checked=true"), dict(element=4, quote="ON"),
                                   dict(quote="ON")])
def test_a_state_a_served_screen_shows_does_not_ground_a_pass_when_the_anchor_post_screen_contradicts_it(
    tmp_path, which, claim
):
    """The switch read ON on a screen served with the checkpoint, but the same switch reads OFF on the
    anchor's post-screen: the anchor step (or the one before) changed it; it does not show the state at the
    tick."""
    verify = CheckItem(kind="verify", text="The Wi-Fi switch reads ON")
    screens = _anchored(tmp_path, on_at_anchor=False)
    step, screen = which
    screens.record(step, screen, ScreenView(width=1080, height=2400, elements=_row(True)))
    citation, why = ground(CitationClaim(step=step, screen=screen, **claim), verify, AT_ANCHOR, screens)
    assert citation is not None and not citation.found
    assert why.startswith(
        f"[E8] step {step} {screen}-screen shows it, but step 5 post-screen (the anchor) shows otherwise")
    screens.record(5, "post", ScreenView(width=1080, height=2400, elements=_row(True)))
    assert ground(CitationClaim(step=step, screen=screen, **claim), verify, AT_ANCHOR, screens)[1] == ""


def test_a_probe_read_after_a_later_step_began_to_act_does_not_ground_a_checkpoint_verdict(tmp_path):
    item = CheckItem(kind="assert", text="Wi-Fi is on")
    claim = CitationClaim(probe="setting", quote="1")
    in_time, late = (ProbeOutput("setting", "1\n", acted=5, params=WIFI_ON),
                     ProbeOutput("setting", "1\n", acted=6, params=WIFI_ON))
    screens = RecordedScreens(tmp_path)
    assert ground(claim, item, AT_ANCHOR, screens, [in_time])[1] == ""
    for passed in (True, False):
        citation, why = ground(claim, item, AT_ANCHOR, screens, [late], passed=passed)
        assert citation is not None and not citation.found
        assert why.startswith("[E3] probe 'setting' ran after step 6's actions had started: it shows the "
                              "device after the anchor step 5")
    assert ground(claim, item, AT_EXIT, screens, [late])[1] == ""  # the final check judges the end state


def _page(title: str, on: bool) -> ScreenView:
    row = UIElement(index=3, text=title, class_name="android.widget.TextView",
                    bounds=Bounds(left=64, top=310, right=800, bottom=390))
    return ScreenView(width=1080, height=2400, elements=(row, _switch(on)))


@pytest.mark.parametrize("window", [AT_EXIT, AT_ANCHOR])
@pytest.mark.parametrize("claim", [CitationClaim(step=2, screen="pre", element=4, attribute="checked=true"),
                                   CitationClaim(step=2, screen="pre", quote="ON")])
def test_what_an_earlier_screen_shows_must_still_show_in_the_same_element(tmp_path, window, claim):
    when = "end" if window.final else "complete"
    item = CheckItem(kind="assert", text="The Wi-Fi switch reads ON", when=when)
    for title, holds in (("Use Bluetooth", False), ("Wi-Fi", True)):
        screens = RecordedScreens(tmp_path)
        screens.record(2, "pre", _page("Wi-Fi", True))
        screens.record(5, "post", _page(title, True))
        screens.record_final(_page(title, True))
        citation, why = ground(claim, item, window, screens)
        assert citation is not None and citation.found == holds, why
        assert holds or "no longer does" in why


@pytest.mark.parametrize("window", [AT_EXIT, AT_ANCHOR])
def test_a_visual_judgement_of_an_earlier_screen_shows_nothing_about_a_later_one(tmp_path, window):
    when = "end" if window.final else "complete"
    item = CheckItem(kind="assert", text="The switch is drawn in its on colour", when=when, visual=True)
    screens = RecordedScreens(tmp_path)
    for step, which, sha in ((2, "pre", "a"), (5, "pre", "b"), (5, "post", "c")):
        screens.record(step, which, ScreenView(screenshot=sha * 64, width=1080, height=2400))
    screens.record_final(ScreenView(screenshot="d" * 64, width=1080, height=2400))
    citation, why = ground(CitationClaim(step=2, screen="pre", visual=True), item, window, screens)
    assert citation is not None and not citation.found and "no longer does" in why
    now = CitationClaim(screen="final", visual=True) if window.final else \
        CitationClaim(step=5, screen="post", visual=True)
    citation, why = ground(now, item, window, screens)
    assert why == "" and citation is not None and citation.visual



@pytest.mark.parametrize(("on_before", "kind", "held"), [(True, "goal", True), (False, "goal", False),
                                                         (True, "assert", False)])
def test_a_state_the_same_element_showed_before_the_agent_acted_does_not_ground_a_goal(
    tmp_path, on_before, kind, held
):
    item = CheckItem(kind=kind, text="Turn Wi-Fi on", when="end")  # type: ignore[arg-type]
    screens = RecordedScreens(tmp_path)
    screens.record(2, "pre", _page("Wi-Fi", on_before))
    screens.record_final(_page("Wi-Fi", True))
    window = Window(last_step=3, final=True, first_acted=2)
    claim = CitationClaim(screen="final", element=4, attribute="checked=true")
    citation, why = ground(claim, item, window, screens)
    assert citation is not None and citation.found == (not held)
    if held:
        assert why == ("[E7] 'wifi' already showed so on step 2 pre-screen, the first the harness saw of it "
                       "('ON'): the run changed nothing it shows")
    on_the_title = CitationClaim(screen="final", element=3, quote="Wi-Fi")  # a name shows no state
    assert ground(on_the_title, item, window, screens)[1].startswith(
        "[E6] none of the citations shows a state")
