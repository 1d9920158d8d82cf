"""Red-team runs (pytester subprocesses on the simulated phone): adversaries that must not read PASSED, each
beside an honest control that keeps its word."""

from __future__ import annotations

import pytest
from fault_harness import run_matrix, statuses

pytestmark = pytest.mark.slow  # the evidence corpus covers these rules in the quick run

SETTINGS = "com.android.settings"
READS_ON = "The Wi-Fi switch reads ON"

MODULE = '''
import pytest
from red_team import {operator}, {checker}, respond_with

respond = respond_with({operator}, {checker})

@pytest.mark.goal("Turn Wi-Fi on in Settings", app="{app}")
{marks}
def test_{name}(artemis):
    pass
'''


def _run(project, cases):
    """One subprocess session over ``cases`` (name: operator, checker, marks, word); each shows its word."""
    for name, (operator, checker, marks, _) in cases.items():
        project.makepyfile(**{f"test_{name}": MODULE.format(operator=operator, checker=checker, marks=marks,
                                                            app=SETTINGS, name=name)})
    matrix = run_matrix(project, "-p", "red_team", subprocess=True)  # its fixtures: a fresh phone per test
    for name, (_, _, _, word) in cases.items():
        matrix.expect(f"test_{name}", word)
    return matrix


def _verdicts(matrix, name, text):
    return [v for v in matrix.journal(f"test_{name}").verdicts if v.item_text == text]


def test_a_failed_assertion_stays_failed_when_its_subgoal_is_done_again(project):
    matrix = _run(project, {
        "assert_passed_after_failing": ("retry", "honest", f'@pytest.mark.assert_("{READS_ON}")', "FAILED"),
        "verify_passed_after_failing": ("retry", "honest", f'@pytest.mark.verify("{READS_ON}")', "PASSED"),
    })
    for name in ("assert_passed_after_failing", "verify_passed_after_failing"):
        assert statuses(matrix.journal(f"test_{name}"), READS_ON) == ["failed", "passed"]


def test_a_checkpoint_pass_rests_on_the_state_at_its_anchor(project):
    marks = f'@pytest.mark.assert_("{READS_ON}")'
    matrix = _run(project, {
        "old_screen_at_checkpoint": ("flicker", "oldest_on", marks, "UNCHECKED"),
        "honest_flicker": ("flicker", "honest", marks, "FAILED"),
    })
    (old,) = _verdicts(matrix, "old_screen_at_checkpoint", READS_ON)
    assert old.status == "inconclusive" and old.anchor_step == 6
    assert "step 4 pre-screen shows it, but step 6 (the anchor) no longer does" in old.reason
    goal = _verdicts(matrix, "old_screen_at_checkpoint", "Turn Wi-Fi on in Settings")
    assert goal[-1].status == "passed"  # Wi-Fi on for good at the end


def test_a_checkpoint_pass_does_not_rest_on_a_state_the_anchor_step_changed(project):
    """The anchor step's pre-screen is served with the checkpoint, but its action turned the switch off:
    the same switch reads OFF on its post-screen, the state when the subgoal was marked done."""
    marks = f'@pytest.mark.assert_("{READS_ON}", subgoal="Turn Wi-Fi on")'
    matrix = _run(project, {
        "state_before_the_anchor_action": ("flip_at_anchor", "anchor_pre", marks, "UNCHECKED"),
        "honest_flip_at_anchor": ("flip_at_anchor", "honest", marks, "FAILED"),
    })
    (stale,) = _verdicts(matrix, "state_before_the_anchor_action", READS_ON)
    assert stale.status == "inconclusive" and stale.anchor_step == 3
    assert "[E8] step 3 pre-screen shows it, but step 3 post-screen (the anchor) shows otherwise" \
        in stale.reason


def test_a_quote_from_a_text_that_says_the_opposite_does_not_pass(project):
    matrix = _run(project, {
        "fragment_of_contrary_text": ("off_on_list", "fragment", "", "UNCHECKED"),
        # "Mobile, Wi-Fi, hotspot" names Wi-Fi but says nothing of its state: no evidence either
        "fragment_naming_it_only": ("on_on_list", "fragment", "", "UNCHECKED"),
    })
    (goal,) = _verdicts(matrix, "fragment_of_contrary_text", "Turn Wi-Fi on in Settings")
    assert goal.status == "inconclusive" and goal.citation is not None and not goal.citation.found
    assert "[E6] the final screen shows 'wifi' 'off', but the item wants it 'on'" in goal.reason
    (named,) = _verdicts(matrix, "fragment_naming_it_only", "Turn Wi-Fi on in Settings")
    assert named.rule == "E6" and "none of the citations shows a state of 'wifi'" in named.reason


def test_an_error_message_from_a_probe_is_not_evidence(project):
    matrix = _run(project, {"error_message_as_probe_output": ("off_on_page", "error_probe", "", "UNCHECKED")})
    (goal,) = _verdicts(matrix, "error_message_as_probe_output", "Turn Wi-Fi on in Settings")
    assert goal.status == "inconclusive"
    assert "probe 'content' gave no readable output (Error while accessing provider" in goal.reason


def test_a_probe_run_after_the_anchor_step_does_not_show_the_state_at_the_anchor(project):
    marks = f'@pytest.mark.assert_("{READS_ON}", subgoal="Turn Wi-Fi on")'
    matrix = _run(project, {"late_probe": ("ticked_late", "late_probe", marks, "UNCHECKED")})
    (late,) = _verdicts(matrix, "late_probe", READS_ON)
    assert late.status == "inconclusive" and late.anchor_step == 3
    assert "probe 'setting' ran after step" in late.reason and "after the anchor step 3" in late.reason


def test_an_earlier_element_still_shown_at_exit_is_the_same_element_not_the_same_index(project):
    matrix = _run(project, {
        "same_index_other_switch": ("wifi_off_bluetooth_on", "same_index", "", "UNCHECKED"),
        "same_index_same_switch": ("wifi_stays_on", "same_index", "", "PASSED"),
    })
    (goal,) = _verdicts(matrix, "same_index_other_switch", "Turn Wi-Fi on in Settings")
    assert goal.status == "inconclusive" and "the final screen no longer does" in goal.reason


def test_an_earlier_quote_still_shown_at_exit_is_in_the_same_element_not_only_the_same_words(project):
    matrix = _run(project, {
        "same_words_other_switch": ("wifi_off_bluetooth_on", "same_quote", "", "UNCHECKED"),
        "same_words_same_switch": ("wifi_stays_on", "same_quote", "", "PASSED"),
    })
    (goal,) = _verdicts(matrix, "same_words_other_switch", "Turn Wi-Fi on in Settings")
    assert goal.status == "inconclusive" and "the final screen no longer does" in goal.reason


NO_DIALOG = "No 'keeps stopping' dialog appears"


def test_an_absence_does_not_pass_on_a_screen_that_shows_what_should_be_absent(project):
    crashing = '@pytest.mark.usefixtures("settings_crash")\n'
    matrix = _run(project, {
        # Settings crashed before Wi-Fi was on: the goal honestly fails (BLOCKED); the absence never passes
        "absence_on_the_dialog": ("tap_then_finish", "newest_label",
                                  crashing + f'@pytest.mark.assert_("{NO_DIALOG}", when="end")', "BLOCKED"),
        "absence_on_a_healthy_screen": ("on_on_list", "newest_label",
                                        f'@pytest.mark.assert_("{NO_DIALOG}", when="end")', "PASSED"),
    })
    absent = _verdicts(matrix, "absence_on_the_dialog", NO_DIALOG)
    assert absent and all(v.status == "inconclusive" and "keeps stopping" in v.reason for v in absent)


def test_a_pass_of_an_item_that_quotes_a_text_must_cite_that_text(project):
    """A real label that has nothing to do with the item ("Settings" for "The list shows 'Display'") is no
    evidence about it; the same checker citing the quoted text passes."""
    toast = "A 'Wi-Fi turned on' message appears"
    matrix = _run(project, {
        "unrelated_label": ("on_on_list", "newest_label", f'@pytest.mark.assert_("{toast}", when="end")',
                            "UNCHECKED"),
        "quoted_label": ("on_on_list", "quoting", '@pytest.mark.assert_("The list shows \'Display\'", '
                                                  'when="end")', "PASSED"),
    })
    (unrelated,) = _verdicts(matrix, "unrelated_label", toast)
    assert unrelated.status == "inconclusive" and unrelated.citation is not None
    assert unrelated.rule == "E4" and "names nothing the item is about" in unrelated.reason
    (quoted,) = _verdicts(matrix, "quoted_label", "The list shows 'Display'")
    assert quoted.status == "passed" and quoted.citation is not None and quoted.citation.found


def test_a_probe_pass_of_an_item_that_quotes_a_text_must_quote_output_holding_that_text(project):
    """Wi-Fi's setting reading "1" shows Wi-Fi is on, not that a 'Wi-Fi turned on' message appeared; the
    same citation passes an item that quotes nothing."""
    toast = "A 'Wi-Fi turned on' message appears"
    matrix = _run(project, {
        "probe_for_a_toast": ("on_on_list", "probe_for_all", f'@pytest.mark.assert_("{toast}", when="end")',
                              "UNCHECKED"),
        "probe_for_a_state": ("on_on_list", "probe_for_all",
                              '@pytest.mark.assert_("Wi-Fi is on", when="end")', "PASSED"),
    })
    (unrelated,) = _verdicts(matrix, "probe_for_a_toast", toast)
    assert unrelated.status == "inconclusive"
    assert unrelated.rule == "E4" and "the cited output of probe 'setting' ('1')" in unrelated.reason
    (state,) = _verdicts(matrix, "probe_for_a_state", "Wi-Fi is on")
    assert state.status == "passed" and state.citation is not None and state.citation.found_in == "probe"


def test_an_absence_does_not_pass_while_a_screen_its_judgement_was_served_shows_it(project):
    crashing = '@pytest.mark.usefixtures("settings_crash")\n'
    matrix = _run(project, {"dialog_closed_at_the_end": (
        "closes_the_crash", "final_label", crashing + f'@pytest.mark.assert_("{NO_DIALOG}", when="end")',
        "BLOCKED")})
    absent, *_ = _verdicts(matrix, "dialog_closed_at_the_end", NO_DIALOG)
    assert absent.status == "inconclusive"
    assert "[E10] step 2 pre-screen shows 'Settings keeps stopping', which the item says does not appear" \
        in absent.reason


def test_a_pass_repeated_in_one_reply_in_other_words_stands_once(project):
    """Two passes of one item citing the same switch agree, whatever their words say: counted once."""
    matrix = _run(project, {
        "double_talk": ("wifi_stays_on", "double_talk", "", "PASSED"),
        "said_twice": ("wifi_stays_on", "said_twice", "", "PASSED"),
    })
    goal = _verdicts(matrix, "double_talk", "Turn Wi-Fi on in Settings")
    assert [v.status for v in goal] == ["passed"]


WIFI_PAGE = "The Wi-Fi page is shown"


def test_a_visual_judgement_of_an_earlier_screen_does_not_show_the_state_at_exit(project):
    marks = f'@pytest.mark.assert_("{WIFI_PAGE}", when="end", visual=True)'
    matrix = _run(project, {
        "visual_of_an_old_screen": ("wifi_stays_on", "old_look", marks, "UNCHECKED"),
        "visual_of_the_final_screen": ("wifi_stays_on", "final_look", marks, "PASSED"),
    })
    (old,) = _verdicts(matrix, "visual_of_an_old_screen", WIFI_PAGE)
    assert old.status == "inconclusive" and "the final screen no longer does" in old.reason


TYPIST = '''
import pytest
from red_team import {operator}, reads_the_field, respond_with

respond = respond_with({operator}, reads_the_field)

@pytest.mark.goal("Create an alarm for 7:30 AM in the Clock app", app="com.google.android.deskclock")
def test_{operator}(artemis):
    pass
'''


def test_what_the_agent_typed_in_parts_or_then_erased_is_still_its_own_input(project):
    for operator in ("split_typist", "erasing_typist"):
        project.makepyfile(**{f"test_{operator}": TYPIST.format(operator=operator)})
    matrix = run_matrix(project, "-p", "red_team", subprocess=True)
    for operator in ("split_typist", "erasing_typist"):
        matrix.expect(f"test_{operator}", "UNCHECKED")
        (goal,) = _verdicts(matrix, operator, "Create an alarm for 7:30 AM in the Clock app")
        assert goal.status == "inconclusive" and "is what the operator typed" in goal.reason



WIFI_OFF = '''
import pytest
from red_team import {operator}, {checker}, respond_with

respond = respond_with({operator}, {checker})

@pytest.mark.goal("Turn Wi-Fi off in Settings", app="com.android.settings")
@pytest.mark.usefixtures("wifi_was_on")
def test_{name}(artemis):
    pass
'''


def test_checked_false_shows_nothing_of_an_element_that_cannot_be_checked(project):
    cases = {"unchecked_text": ("wifi_on_page", "unchecked_text", "UNCHECKED"),
             "unchecked_switch": ("wifi_off_page", "unchecked_switch", "PASSED")}
    for name, (operator, checker, _) in cases.items():
        project.makepyfile(**{f"test_{name}": WIFI_OFF.format(operator=operator, checker=checker, name=name)})
    matrix = run_matrix(project, "-p", "red_team", subprocess=True)
    for name, (_, _, word) in cases.items():
        matrix.expect(f"test_{name}", word)
    (goal,) = _verdicts(matrix, "unchecked_text", "Turn Wi-Fi off in Settings")
    assert goal.status == "inconclusive" and "has no checked state" in goal.reason


def test_a_state_the_same_element_showed_before_the_agent_acted_is_no_evidence_of_the_run(project):
    """Cited by its checked attribute or by the switch's own text ("ON"), a state is a state."""
    page, page_off = (f'@pytest.mark.usefixtures("{f}")' for f in ("on_wifi_page", "on_wifi_page_off"))
    matrix = _run(project, {
        "state_held_before": ("idle_tapper", "honest", page, "UNCHECKED"),
        "state_changed": ("switch_on_from_page", "honest", page_off, "PASSED"),
        "switch_text_held_before": ("idle_tapper", "final_on_quote", page, "UNCHECKED"),
        "switch_text_changed": ("switch_on_from_page", "final_on_quote", page_off, "PASSED"),
    })
    for name in ("state_held_before", "switch_text_held_before"):
        (goal,) = _verdicts(matrix, name, "Turn Wi-Fi on in Settings")
        assert goal.status == "inconclusive" and goal.rule == "E7"
        assert "'wifi' already showed so in the baseline read before the first action" in goal.reason


LYING_REPAIRS = """
import pytest
from red_team import newest_label, respond_with, scripted
from pytest_artemis import probes

respond = respond_with(scripted("wait", "finish"), newest_label)

@pytest.mark.goal("Turn Wi-Fi on in Settings", app="com.android.settings")
@pytest.mark.verify("Wi-Fi is on", probe=probes.setting("global", "wifi_on", equals="1"))
@pytest.mark.usefixtures("on_wifi_page_off")
def test_lying_repairs(artemis):
    pass
"""


def test_final_checks_cut_short_never_let_a_claimed_repair_pass(project):
    """The operator claims "done" after every send-back without touching Wi-Fi, and the checker passes
    whatever it is asked: the rounds that only send the agent back judge nothing, the last one judges,
    and the probe keeps the verify item failed, so the test is BLOCKED, not PASSED."""
    project.makepyfile(test_lying_repairs=LYING_REPAIRS)
    matrix = run_matrix(project, "-p", "red_team", subprocess=True)
    matrix.expect("test_lying_repairs", "BLOCKED")
    record = matrix.journal("test_lying_repairs")
    cut = [e.fields["attempt"] for e in record.events if e.kind == "final_check_cut_short"]
    assert cut == [1, 2]
    assert [v.attempt_id for v in record.verdicts if v.kind == "goal"] == ["final#3"]
    assert statuses(record, "Wi-Fi is on")[-1] == "failed"
