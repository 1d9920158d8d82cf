"""Grounding at the final check: a pass of the goal or an ``end`` item rests on the state at exit."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_artemis.agents.schemas import CitationClaim
from pytest_artemis.contracts import Bounds, CheckItem, ScreenView, UIElement
from pytest_artemis.engine.grounding import Window, ground
from pytest_artemis.engine.screens import RecordedScreens

GOAL = CheckItem(kind="goal", text="Turn Wi-Fi on", when="end")
END_ASSERT = CheckItem(kind="assert", text="The Wi-Fi switch reads ON", when="end")
AT_EXIT = Window(last_step=3, final=True, first_acted=1)


def _switch(on: bool) -> UIElement:
    return UIElement(index=4, text="ON" if on else "OFF", class_name="android.widget.Switch", checkable=True,
                     checked=on, bounds=Bounds(left=900, top=300, right=1000, bottom=400))


def _screens(tmp_path: Path, *, on_at_exit: bool | None) -> RecordedScreens:
    screens = RecordedScreens(tmp_path)
    screens.record(2, "pre", ScreenView(width=1080, height=2400, elements=(_switch(True),)))
    if on_at_exit is not None:
        screens.record_final(ScreenView(width=1080, height=2400, elements=(_switch(on_at_exit),)))
    return screens


CLAIMS = [CitationClaim(step=2, screen="pre", quote="ON"),
          CitationClaim(step=2, screen="pre", element=4, attribute="checked=true")]


@pytest.mark.parametrize("item", [GOAL, END_ASSERT])
@pytest.mark.parametrize("claim", CLAIMS)
def test_an_earlier_screen_whose_state_is_gone_at_exit_does_not_ground_a_pass(tmp_path, item, claim):
    citation, why = ground(claim, item, AT_EXIT, _screens(tmp_path, on_at_exit=False))
    assert citation is not None and not citation.found
    assert why.startswith("step 2 pre-screen shows it, but the final screen no longer does")


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
