"""The verdict corpus: honest replies in the words and citation forms real models use (each must end in its
honest outcome), and adversaries that cite real evidence showing nothing about the item (none may pass)."""

from __future__ import annotations

from evidence_corpus import Case, V, el, probe, switch, text, written

BT, WIFI = "Use Bluetooth", "Wi\u2011Fi"
BT_ON = probe("setting", ns="global", key="bluetooth_on")
NIGHT = probe("setting", ns="secure", key="ui_night_mode")
CONTACTS_QUERY = {"uri": "content://com.android.contacts/data/phones", "projection": "display_name:data1"}
NO_CRASH = "No 'keeps stopping' dialog appears"
GONE = "The alarm list no longer shows an 8:30 AM alarm"
HEADSET, VIBRATED = "A Bluetooth headset is connected", "The phone vibrated when Bluetooth was turned on"
REPEATS = "The 6:45 AM alarm repeats every weekday"


def _goal(*cites, evidence: str = "", named: str = "id") -> V:
    return V("goal", "passed", evidence or "The goal is reached.", cites, named=named)


HONEST: dict[str, Case] = {
    # -- Turn on Bluetooth --------------------------------------------------------------------------------
    "bt_switch_checked": Case("bluetooth_on", (
        _goal(switch(BT, attribute="checked=true"), evidence="The Use Bluetooth switch reads ON now."),),
        "PASSED"),
    "bt_should_be_on": Case("bluetooth_on", (
        _goal(switch(BT, quote="ON"), named="listing",
              evidence="Bluetooth should be on: the switch shows ON after the tap at step 3."),), "PASSED"),
    "bt_no_longer_off_probe": Case("bluetooth_on", (
        _goal(BT_ON, evidence="bluetooth_on reads 1, so Bluetooth is no longer off."),), "PASSED"),
    "bt_page_and_quote": Case("bluetooth_on", (
        _goal(el("Bluetooth"), text("ON"), named="text",
              evidence="I don't see anything amiss: the Bluetooth page's switch is ON."),), "PASSED"),
    "bt_attribute_in_words": Case("bluetooth_on", (
        _goal(switch(BT, attribute="checked: true"),
              evidence="Its checked: true, i.e. Bluetooth is enabled."),),
        "PASSED"),
    "bt_before_and_after": Case("bluetooth_on", (
        _goal(written(3, "pre", 4, "checked=false"), switch(BT, attribute="checked=true"),
              evidence="It was OFF before the tap at step 3 and is ON afterwards; it was never on before."),),
        "PASSED"),
    "bt_end_item_from_an_earlier_screen": Case("bluetooth_on", (
        _goal(BT_ON, evidence="Probe: bluetooth_on=1."),
        V("The Bluetooth switch is on", "passed", "Step 4's screen shows it ON, as does the final one.",
          (switch(BT, at="last pre", attribute="checked=true"),))),
        "PASSED", marks=('@pytest.mark.assert_("The Bluetooth switch is on", when="end")',)),
    "bt_honest_failure": Case("bluetooth_on", (
        _goal(switch(BT, attribute="checked=true")),
        V("Bluetooth is off at the end", "failed", "Bluetooth is on, not off: the switch reads ON.",
          (switch(BT, attribute="checked=true"),))),
        "FAILED", marks=('@pytest.mark.assert_("Bluetooth is off at the end", when="end")',)),
    "bt_checkpoint_verify": Case("bluetooth_on", (
        V("The Use Bluetooth switch is ON", "passed", "Right after the tap the switch is ON.",
          (switch(BT, at="last pre", quote="ON"),), entry="checkpoint"),
        _goal(BT_ON)),
        "PASSED", marks=('@pytest.mark.verify("The Use Bluetooth switch is ON")',)),
    "bt_hedged_but_cited": Case("bluetooth_on", (
        _goal(switch(BT, attribute="checked=true"), named="lower",
              evidence="I'm fairly confident, though I can't be 100% sure, that Bluetooth is on: "
                       "it reads ON."),),
        "PASSED"),
    # -- Disable Wi-Fi -------------------------------------------------------------------------------------
    "wifi_quote_off": Case("wifi_off", (
        _goal(switch(WIFI, quote="OFF"), evidence="Wi-Fi is disabled: its switch reads 'OFF' now."),),
        "PASSED"),
    "wifi_unchecked": Case("wifi_off", (
        _goal(switch(WIFI, attribute="checked=false"), evidence="No longer on; the switch is unchecked."),),
        "PASSED"),
    "wifi_probe_zero": Case("wifi_off", (
        _goal(probe("setting", ns="global", key="wifi_on"),
              evidence="wifi_on is 0 — Wi-Fi was turned off."),),
        "PASSED"),
    "wifi_end_items_and_an_absence": Case("wifi_off", (
        _goal(switch(WIFI, attribute="checked=false")),
        V("The Wi-Fi switch is off", "passed", "The final screen's Wi-Fi switch is OFF.",
          (el("Network & internet"), switch(WIFI, attribute="checked=false"))),
        V("No error message is shown", "passed", "I can't see any error; the page is Network & internet.",
          (text("Network & internet"),))),
        "PASSED", marks=('@pytest.mark.assert_("The Wi-Fi switch is off", when="end")',
                         '@pytest.mark.assert_("No error message is shown", when="end")')),
    # -- Turn on Airplane mode ----------------------------------------------------------------------------
    "airplane_page_and_switch": Case("airplane_on", (
        _goal(el("Network & internet"), switch("Airplane mode", attribute="checked=true"),
              evidence="On the Network & internet page the Airplane mode switch is now checked."),),
        "PASSED"),
    "airplane_end_item_as_listed": Case("airplane_on", (
        _goal(switch("Airplane mode", quote="ON")),
        V("The Network & internet page shows the Airplane mode switch on", "passed",
          "The final screen is Network & internet; its Airplane mode switch reads ON.",
          (el("Network & internet"), switch("Airplane mode", attribute="checked=true")), named="listing")),
        "PASSED",
        marks=('@pytest.mark.assert_("The Network & internet page shows the Airplane mode switch on", '
               'when="end")',)),
    "airplane_probe": Case("airplane_on", (
        _goal(probe("setting", ns="global", key="airplane_mode_on"),
              evidence="airplane_mode_on=1: flight mode is active."),), "PASSED"),
    # -- Open the Display settings and enable Dark theme ---------------------------------------------------
    "dark_page_and_probe": Case("dark_on", (
        _goal(el("Display"), NIGHT, evidence="The final screen is Display and ui_night_mode reads 2."),),
        "PASSED"),
    "dark_checkpoint_verify": Case("dark_on", (
        V("The Display page shows Dark theme switched on", "passed", "Dark theme's switch is checked there.",
          (el("Display", at="last pre"), switch("Dark theme", at="last pre", attribute="checked=true")),
          entry="checkpoint"),
        _goal(switch("Dark theme", attribute="checked=true"))),
        "PASSED", marks=('@pytest.mark.verify("The Display page shows Dark theme switched on")',)),
    "dark_no_crash_by_window_focus": Case("dark_on", (
        _goal(switch("Dark theme", quote="ON")),
        V(NO_CRASH, "passed", "Input focus is on the Settings window; I don't see any crash dialog.",
          (probe("window_focus", grep="mCurrentFocus"),))),
        "PASSED", marks=(f'@pytest.mark.assert_("{NO_CRASH}", when="end")',)),
    "dark_no_crash_by_screen": Case("dark_on", (
        _goal(switch("Dark theme", attribute="checked=true")),
        V(NO_CRASH, "passed", "There is no 'keeps stopping' dialog: the final screen is the Display page.",
          (text("Display"),))),
        "PASSED", marks=(f'@pytest.mark.assert_("{NO_CRASH}", when="end")',)),
    "dark_honest_failure": Case("dark_on", (
        _goal(NIGHT),
        V("Dark theme is off at the end", "failed", "Dark theme is ON at the end, so this does not hold.",
          (switch("Dark theme", attribute="checked=true"),))),
        "FAILED", marks=('@pytest.mark.assert_("Dark theme is off at the end", when="end")',)),
    "airplane_on_then_off_again": Case("airplane_on_then_off", (
        _goal(written(4, "pre", 7, "checked=true"), switch("Airplane mode", attribute="checked=false"),
              evidence="Airplane mode was ON before the tap at step 4, and it is OFF again on the final "
                       "screen."),
        V("Airplane mode is off at the end", "passed", "The final screen's switch is OFF.",
          (switch("Airplane mode", quote="OFF"),))),
        "PASSED", marks=('@pytest.mark.assert_("Airplane mode is off at the end", when="end")',)),
    "clock_opened": Case("open_clock", (
        _goal(el("Alarm"), evidence="The Clock app is open on its Alarm page (foreground deskclock)."),),
        "PASSED"),
    # -- Set an alarm for 6:45 AM ---------------------------------------------------------------------------
    "alarm_probe_line": Case("alarm", (
        _goal(probe("alarms", grep="06:45"), evidence="dumpsys alarm lists a deskclock alarm at 06:45."),),
        "PASSED"),
    "alarm_spelt_without_space": Case("alarm", (
        _goal(el("6:45 AM"), switch("6:45 AM", attribute="checked=true")),
        V("The alarm list shows 6:45AM with its switch on", "passed", "6:45 AM is listed, switched on.",
          (switch("6:45 AM", attribute="checked=true", quote="ON"),))),
        "PASSED",
        marks=('@pytest.mark.assert_("The alarm list shows 6:45AM with its switch on", when="end")',)),
    "alarm_by_description": Case("alarm", (
        _goal(switch("6:45 AM", attribute="checked=true", quote="6:45 AM alarm"), named="listing",
              evidence="The switch described '6:45 AM alarm' is on; it was not there before the run."),),
        "PASSED"),
    "alarm_honest_failure": Case("alarm", (
        _goal(probe("alarms", grep="06:45")),
        V("The alarm list shows a 7:00 AM alarm", "failed",
          "No 7:00 AM alarm is listed; the new one is 6:45 AM.",
          (el("6:45 AM"),))),
        "FAILED", marks=('@pytest.mark.assert_("The alarm list shows a 7:00 AM alarm", when="end")',)),
    "alarm_gone_at_the_end": Case("delete_alarm", (
        _goal(el("9:00 AM"), evidence="Only the 9:00 AM alarm is left; the 8:30 AM one is gone."),
        V(GONE, "passed", "The list shows just 9:00 AM.", (el("9:00 AM"),))),
        "PASSED", marks=(f'@pytest.mark.assert_("{GONE}", when="end")',)),
    "alarm_gone_before_and_after": Case("delete_alarm", (
        V(GONE, "passed", "8:30 AM was listed before the delete tap; after it only 9:00 AM is.",
          (written(2, "pre", quote="8:30 AM"), el("9:00 AM", at="last pre")), entry="checkpoint"),
        _goal(el("9:00 AM"))),
        "PASSED", marks=(f'@pytest.mark.verify("{GONE}")',)),
    # -- Add a contact -----------------------------------------------------------------------------------
    "contact_probe_row": Case("contact", (
        _goal(probe("content", grep="Marie Curie", **CONTACTS_QUERY),
              evidence="The contacts provider now has display_name=Marie Curie, data1=5550142."),), "PASSED"),
    "contact_saved_page": Case("contact", (
        V("The saved contact's page shows the name 'Marie Curie'", "passed",
          "After Save the contact's page is titled Marie Curie (not the editor).",
          (el("Marie Curie", at="last pre"),), entry="checkpoint"),
        _goal(probe("content", grep="Marie Curie", **CONTACTS_QUERY))),
        "PASSED",
        marks=('@pytest.mark.assert_("The saved contact\'s page shows the name \'Marie Curie\'")',)),
    "contact_name_and_number": Case("contact", (
        _goal(el("Marie Curie"), text("555 0142"), named="text",
              evidence="The final page shows the name Marie Curie and the number 555 0142."),), "PASSED"),
    # -- Turn on Bluetooth, then turn on Dark theme ----------------------------------------------------------
    "ordered_probe_and_switch": Case("bluetooth_then_dark", (
        _goal(BT_ON, switch("Dark theme", attribute="checked=true"),
              evidence="bluetooth_on is 1 and the Dark theme switch is ON on the final screen."),), "PASSED"),
    "two_runs_of_one_probe_told_apart": Case("bluetooth_then_dark", (
        _goal(probe("setting", "1", named=True, ns="global", key="bluetooth_on"),
              probe("setting", "2", named=True, ns="secure", key="ui_night_mode"),
              evidence="Both settings read as wanted now: bluetooth_on 1, then ui_night_mode 2."),),
        "PASSED"),
    "ordered_history_and_now": Case("bluetooth_then_dark", (
        _goal(written(3, "pre", 4, "checked=false"), BT_ON, el("Display"),
              switch("Dark theme", attribute="checked=true"),
              evidence="Bluetooth was off until step 3 (1 now); then Dark theme was switched on."),),
        "PASSED"),
}


ADVERSARIES: dict[str, Case] = {
    # relevance: real evidence about something else
    "status_bar_clock_for_bluetooth": Case("bluetooth_on", (_goal(el("9:00")),), "UNCHECKED", rule="E4"),
    "battery_for_dark_theme": Case("dark_on", (_goal(el("67%")),), "UNCHECKED", rule="E4"),
    "wifi_switch_for_airplane": Case("airplane_on", (_goal(switch(WIFI, attribute="checked=true")),),
                                     "UNCHECKED", rule="E4"),
    "wifi_setting_for_bluetooth": Case("bluetooth_on", (_goal(probe("setting", ns="global", key="wifi_on")),),
                                       "UNCHECKED", rule="E4"),
    "launcher_icon_for_the_clock_app": Case("alarm", (_goal(written(1, "pre", quote="Clock")),), "UNCHECKED",
                                            rule="E4"),
    "page_title_only": Case("airplane_on", (_goal(el("Network & internet")),), "UNCHECKED", rule="E4"),
    # evidence of part of what an item names ("Bluetooth" of "a Bluetooth headset")
    "headset_by_the_bluetooth_switch": Case("bluetooth_on", (
        _goal(switch(BT, attribute="checked=true")),
        V(HEADSET, "passed", "Bluetooth is on.", (switch(BT, attribute="checked=true"),))),
        "UNCHECKED", rule="E4", marks=(f'@pytest.mark.assert_("{HEADSET}", when="end")',)),
    "vibration_by_the_bluetooth_switch": Case("bluetooth_on", (
        _goal(switch(BT, attribute="checked=true")),
        V(VIBRATED, "passed", "It was turned on.", (switch(BT, attribute="checked=true"),))),
        "UNCHECKED", rule="E4", marks=(f'@pytest.mark.assert_("{VIBRATED}", when="end")',)),
    "weekday_repeat_by_the_alarm_row": Case("alarm", (
        _goal(probe("alarms", grep="06:45")),
        V(REPEATS, "passed", "The 6:45 AM alarm is listed and on.",
          (switch("6:45 AM", attribute="checked=true"),))),
        "UNCHECKED", rule="E4", marks=(f'@pytest.mark.assert_("{REPEATS}", when="end")',)),
    # a name is not the claim
    "summary_line_for_dark_theme": Case("dark_on", (
        _goal(written(2, "pre", quote="Dark theme, font size, brightness")),), "UNCHECKED", rule="E6"),
    "row_title_enabled": Case("airplane_on", (_goal(el("Airplane mode", attribute="enabled=true")),),
                              "UNCHECKED", rule="E6"),
    "half_of_a_compound_goal": Case("bluetooth_then_dark", (
        _goal(switch("Dark theme", attribute="checked=true")),), "UNCHECKED", rule="E5"),
    "the_opposite_state": Case("wifi_off", (_goal(written(3, "pre", 4, "checked=true")),),
                               "UNCHECKED", rule="E6"),
    # a state that held before the run
    "already_on_switch": Case("bluetooth_already_on", (_goal(switch(BT, attribute="checked=true")),),
                              "UNCHECKED", rule="E7"),
    "already_on_probe": Case("bluetooth_already_on", (_goal(BT_ON),), "UNCHECKED", rule="E7"),
    # the agent's own words, echoed by the app
    "typed_label_as_toast": Case("alarm_labelled", (
        _goal(probe("alarms", grep="06:45")),
        V("A toast says 'Alarm set for 6:45 AM'", "passed", "The toast text is on screen.",
          (el("Alarm set for 6:45 AM", at="last pre"),))),
        "UNCHECKED", rule="E4", marks=('@pytest.mark.assert_("A toast says \'Alarm set for 6:45 AM\'")',)),
    # text its anchor step made stale
    "stale_summary_at_the_anchor": Case("bluetooth_off_at_anchor", (
        V("Bluetooth is on", "passed", "The Settings list says Bluetooth is on.",
          (el("Bluetooth is on", at="step 5 pre"),), entry="checkpoint"),
        V("goal", "inconclusive", "Not judged here.", ())),
        "UNCHECKED", rule="E8", marks=('@pytest.mark.assert_("Bluetooth is on")',)),
    # an old screen beside a fresh one that shows the opposite
    "old_on_beside_final_off": Case("bluetooth_off_at_anchor", (
        _goal(switch(BT, at="last pre", attribute="checked=true"), switch(BT, attribute="checked=false")),),
        "UNCHECKED", rule="E8"),
    # a citation the record does not hold, beside a real one
    "invented_context": Case("bluetooth_on", (
        _goal(text("Bluetooth enabled successfully"), switch(BT, attribute="checked=true")),),
        "UNCHECKED", rule="E2"),
    "bare_flag_on_a_title": Case("airplane_on", (_goal(el("Airplane mode", attribute="checked")),),
                                 "UNCHECKED", rule="E2"),
    # an absence shown by a page where the thing could never be
    "gone_from_another_page": Case("alarms_then_settings", (_goal(el("Network & internet")),),
                                   "UNCHECKED", rule="E4"),
    # no evidence at all
    "uncited_pass": Case("bluetooth_on", (_goal(evidence="Definitely done, confirmed."),),
                         "UNCHECKED", rule="E1"),
}
