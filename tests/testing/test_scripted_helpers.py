"""The scripted agent: steps resolved against each turn's screen, subgoal ticks, an honest checker."""

from __future__ import annotations

import html

import pytest

from pytest_artemis.contracts import Bounds, CheckItem, EvidenceScreen, ScreenView, Tap, UIElement
from pytest_artemis.models import RequestContext
from pytest_artemis.testing import (
    CitationClaim,
    HonestChecker,
    ScriptedRequest,
    finish,
    on_screen,
    press,
    tap,
    type_text,
)
from pytest_artemis.testing.agent import ScriptedOperator, tick
from pytest_artemis.testing.checker import quotes


def element(index: int, text: str = "", **fields: object) -> UIElement:
    return UIElement(index=index, text=text, bounds=Bounds(left=0, top=index * 100, right=1080,
                                                           bottom=index * 100 + 90), **fields)


SETTINGS = ScreenView(width=1080, height=2400, foreground="com.android.settings", elements=(
    element(0, "Network & internet settings"),
    element(1, "Network & internet", resource_id="android:id/title"),
    element(2, "Wi\u2011Fi", resource_id="android:id/title"),
    element(3, "", content_desc="Navigate up"),
))


def request(role: str, *, plan: str = "", screen: ScreenView | None = SETTINGS, checks=(), screens=(),
            entry=None, judged_at=None) -> ScriptedRequest:
    from pydantic import BaseModel

    context = RequestContext(goal="g", plan=plan, screen=screen, checks=tuple(checks),
                             screens=tuple(screens), entry=entry, judged_at=judged_at or {})
    return ScriptedRequest(role, BaseModel, (), context)  # type: ignore[arg-type]


def test_a_label_matches_exactly_before_it_matches_a_part():
    assert tap("network & internet").resolve(SETTINGS) == [Tap(element=1)]
    assert tap("Wi-Fi").resolve(SETTINGS) == [Tap(element=2)]  # Android's non-breaking hyphen
    assert tap(content_desc="navigate").resolve(SETTINGS) == [Tap(element=3)]
    assert tap(resource_id="title").resolve(SETTINGS) == [Tap(element=1)]


def test_a_step_that_is_not_on_screen_says_what_the_screen_shows():
    why = tap("Airplane mode").resolve(SETTINGS)
    assert why == ("tap('Airplane mode'): no element 'Airplane mode' on this screen (com.android.settings "
                   "shows 'Network & internet settings', 'Network & internet', 'Wi\u2011Fi', 'Navigate up')")


def test_bad_steps_fail_where_they_are_written():
    with pytest.raises(TypeError):
        tap()
    with pytest.raises(ValueError):
        press("VOLUME_UP")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        type_text("")


def test_ticks_match_a_part_of_the_subgoal_and_say_when_nothing_matches():
    plan = "- [ ] Open Network & internet\n- [ ] Turn on Airplane mode\n"
    ticked, note = tick(plan, "airplane")
    assert ticked is not None and "- [x] Turn on Airplane mode" in ticked and "- [ ] Open Network" in ticked
    assert note == "; marks 'Turn on Airplane mode' done"
    assert tick(plan, "Bluetooth") == (None, "; done='Bluetooth' matches no open subgoal (open: "
                                             "'Open Network & internet'; 'Turn on Airplane mode')")


def test_the_operator_waits_for_a_missing_element_then_gives_up_without_ticking():
    operator = ScriptedOperator([tap("Airplane mode", done="airplane"), finish()], patience=2)
    plan = "- [ ] Turn on Airplane mode\n"
    first = operator(request("operator", plan=plan))
    assert first.actions[0].kind == "wait" and "no element 'Airplane mode'" in first.decision
    second = operator(request("operator", plan=plan))
    assert second.actions[0].kind == "finish" and second.plan is None
    assert second.decision.startswith("giving up after 2 turns: tap('Airplane mode')")


def test_the_operator_runs_the_script_in_order_and_finish_marks_what_is_left():
    operator = ScriptedOperator([tap("Network & internet", done="network"), finish("done")])
    plan = "- [ ] Open Network & internet\n- [ ] Turn on Airplane mode\n"
    first = operator(request("operator", plan=plan))
    assert first.actions == [Tap(element=1)] and "- [x] Open Network & internet" in (first.plan or "")
    last = operator(request("operator", plan=first.plan or ""))
    assert last.actions[0].kind == "finish" and "- [ ]" not in (last.plan or "")
    beyond = operator(request("operator", plan=last.plan or ""))
    assert beyond.actions[0].kind == "finish"
    assert beyond.decision.startswith("no scripted step left (2 given)")


def item(text: str, kind: str = "assert") -> CheckItem:
    return CheckItem(kind=kind, text=text)  # type: ignore[arg-type]


def test_the_honest_checker_cites_the_recorded_screen_or_says_why_not():
    screens = [EvidenceScreen(step=2, screen="post", view=SETTINGS)]
    report = HonestChecker()(request("checker", checks=[
        item("The page lists 'Network & internet'"),
        item("The page lists 'Airplane mode'"),
        item("The page looks tidy"),
        item("No 'keeps stopping' dialog appears"),
    ], screens=screens, entry="checkpoint"))
    listed, missing, vague, absence = report.verdicts
    assert (listed.status, listed.evidence) == (
        "passed", "step 2 post-screen shows 'Network & internet settings' (element 0)")
    cited = CitationClaim(step=2, screen="post", element=0, quote="Network & internet settings")
    assert listed.citation == cited
    assert missing.status == "failed" and missing.evidence.startswith(
        "no recorded screen shows 'Airplane mode'; step 2 post-screen: com.android.settings shows")
    assert missing.citation == cited
    assert (vague.status, vague.citation) == ("inconclusive", None)
    assert "quotes no on-screen text" in vague.evidence
    assert absence.status == "inconclusive" and "only be judged on the final screen" in absence.evidence


def test_an_absence_is_judged_on_the_final_screen():
    final = [EvidenceScreen(step=None, screen="final", view=SETTINGS)]
    absent, present = HonestChecker()(request("checker", checks=[
        item("No 'keeps stopping' dialog appears", "assert"), item("No 'Wi-Fi' row is shown")],
        screens=final, entry="final")).verdicts
    assert absent.status == "passed" and absent.citation is not None and absent.citation.screen == "final"
    assert present.status == "failed" and present.citation == CitationClaim(screen="final", element=2,
                                                                             quote="Wi\u2011Fi")


def test_an_item_judged_at_its_anchor_step_is_judged_from_that_step_and_earlier_only():
    """A final check judging a replayed run's last checkpoint: the final screen is in the request for the
    goal, but shows nothing about the state when the item's subgoal was marked done."""
    empty = ScreenView(width=1080, height=2400, elements=(element(0, "Loading"),))
    screens = [EvidenceScreen(step=2, screen="post", view=empty), EvidenceScreen(step=3, screen="post",
                                                                                  view=SETTINGS),
               EvidenceScreen(step=None, screen="final", view=SETTINGS)]
    held, later = item("The page lists 'Network & internet'"), item("The page lists 'Network & internet' now")
    at_anchor, at_end = HonestChecker()(request("checker", checks=[held, later], screens=screens,
                                                entry="final", judged_at={held.key: 2})).verdicts
    assert at_anchor.status == "failed" and at_anchor.citation == CitationClaim(step=2, screen="post",
                                                                                element=0, quote="Loading")
    assert at_end.status == "passed" and at_end.citation is not None and at_end.citation.screen == "final"


def test_text_read_by_ocr_matches_whatever_its_spacing_and_hierarchy_text_as_written():
    toast = ScreenView(width=1080, height=2400, elements=(
        element(0, "Alarm"), element(1, "Alarm set for 7:30AM", source="ocr")))
    screens = [EvidenceScreen(step=3, screen="post", view=toast)]
    read, spaced = HonestChecker()(request("checker", checks=[
        item("A toast says 'Alarm set for 7:30 AM'"), item("The list shows 'Al arm'")],
        screens=screens, entry="checkpoint")).verdicts
    assert read.status == "passed"
    assert read.citation == CitationClaim(step=3, screen="post", element=1, quote="Alarm set for 7:30AM")
    assert spaced.status == "passed" and spaced.citation is not None and spaced.citation.element == 1
    hierarchy_only = ScreenView(width=1080, height=2400, elements=(element(0, "Alarm set for 7:30AM"),))
    verdict = HonestChecker()(request("checker", checks=[item("A toast says 'Alarm set for 7:30 AM'")],
                                      screens=[EvidenceScreen(step=3, screen="post", view=hierarchy_only)],
                                      entry="checkpoint")).verdicts[0]
    assert verdict.status == "failed"


def switch_screen(on: bool) -> ScreenView:
    return ScreenView(width=1080, height=2400, foreground="com.android.settings", elements=(
        element(0, "Airplane mode", resource_id="android:id/title"),
        UIElement(index=1, text="ON" if on else "OFF", checkable=True, checked=on,
                  bounds=Bounds(left=900, top=10, right=1000, bottom=80)),
    ))


@pytest.mark.parametrize(("on", "status"), [(True, "passed"), (False, "failed")])
def test_the_goal_is_judged_on_the_final_screen_against_its_expectation(on, status):
    goal = CheckItem(kind="goal", text="Turn on Airplane mode", when="end")
    final = EvidenceScreen(step=None, screen="final", view=switch_screen(on))
    checker = HonestChecker(on_screen("Airplane mode", checked=True))
    verdict = checker(request("checker", checks=[goal], screens=[final], entry="final")).verdicts[0]
    state = "true" if on else "false"
    assert verdict.status == status
    assert verdict.citation == CitationClaim(screen="final", element=1, attribute=f"checked={state}")
    earlier = EvidenceScreen(step=3, screen="post", view=switch_screen(True))
    assert checker(request("checker", checks=[goal], screens=[earlier], entry="final")).verdicts[0].status \
        == "inconclusive"


def test_without_an_expectation_the_goal_is_not_judged():
    goal = CheckItem(kind="goal", text="Turn on Airplane mode", when="end")
    final = EvidenceScreen(step=None, screen="final", view=switch_screen(True))
    verdict = HonestChecker()(request("checker", checks=[goal], screens=[final], entry="final")).verdicts[0]
    assert verdict.status == "inconclusive" and "goal=on_screen(...)" in verdict.evidence


def test_the_honest_checker_judges_nothing_without_a_recorded_screen():
    report = HonestChecker()(request("checker", checks=[item("Shows 'Wi-Fi'")], entry="checkpoint"))
    assert report.verdicts[0].status == "inconclusive"


def test_quotes():
    text = "A toast says 'Alarm set' and \u201cSaved\u201d, it's \"done\""
    assert quotes(text) == ("Alarm set", "Saved", "done")


AIRPLANE_TEST = '''
import pytest
from pytest_artemis import probes
from pytest_artemis.testing import finish, on_screen, scripted_agent, tap


@pytest.fixture
def artemis_model():
    return scripted_agent(tap("Settings"), tap("Network & internet", done="network"), tap("{label}"),
                          finish(), plan=["Open Network & internet", "Turn on Airplane mode"],
                          goal=on_screen("Airplane mode", checked=True))


@pytest.mark.goal("Turn on Airplane mode in Settings")
@pytest.mark.verify("Airplane mode is on", probe=probes.setting("global", "airplane_mode_on", equals=True))
def test_airplane_mode(artemis):
    assert [s.decision for s in artemis.steps][:3] == [
        "tap('Settings')", "tap('Network & internet'); marks 'Open Network & internet' done",
        "tap('{label}')"]
'''


def test_a_scripted_airplane_run_passes_from_any_directory(pytester):
    """Nothing here depends on the examples: a test file in a sub-directory of a fresh project."""
    test_file = pytester.mkdir("elsewhere") / "test_air.py"
    test_file.write_text(AIRPLANE_TEST.format(label="Airplane mode"))
    result = pytester.runpytest_subprocess("elsewhere", "--artemis-device=sim", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)


def test_a_run_that_does_not_converge_says_which_subgoals_are_open(pytester):
    pytester.makepyfile(test_air=AIRPLANE_TEST.format(label="Flight mode"))
    result = pytester.runpytest_subprocess("--artemis-device=sim", "-p", "no:cacheprovider")
    assert result.parseoutcomes() == {"blocked": 1}
    # The cause first: the agent's last word says what it could not find and what the screen showed.
    result.stdout.fnmatch_lines([
        "BLOCKED: the agent's last word: \"giving up after * turns: tap('Flight mode'): "
        "no element 'Flight mode' on this screen (com.android.settings shows *'Airplane mode'*)\" "
        "(finish claimed, after * steps)",
        "task blocked: *; the plan still has 1 open subgoal: 'Turn on Airplane mode'",
    ])
    # The banner leads with the same cause, and shows no probe command for the item nobody probed.
    report = next(pytester.path.glob(".artemis/*/*/report.html")).read_text(encoding="utf-8")
    banner = html.unescape(report.split('id="banner"', 1)[1].split('id="goal"', 1)[0])
    assert "the agent's last word: \"giving up after" in banner
    assert "settings get" not in banner and "probe-cmd" not in banner
