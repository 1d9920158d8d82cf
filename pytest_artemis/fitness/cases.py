"""The checker cases: runs of the simulated phone, driven by a script (no model), whose items' honest verdicts
are known in advance.

Each case starts from a fresh phone (plus its ``setup`` commands), runs the same scripted path every time and
then judges its goal and items in one final check. An item's truth is known from the path and the phone's
state: ``true`` and ``false`` items are settled by what the run's recorded screens show (the final screen
shows the switch, the list, the page), ``unsettled`` ones by nothing the run records (a vibration, a sync, a
look). ``confirm`` reads the phone after the run: a case whose phone did not end where its truth says is
void (a simulator or harness fault), never scored against the model.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pytest_artemis.contracts import CheckItem
from pytest_artemis.sim import Alarm, PhoneState
from pytest_artemis.testing import Step, finish, tap, type_text

from .schema import Truth

CLOCK = "com.google.android.deskclock"


@dataclass(frozen=True)
class Claim:
    """An item with its honest value and how that value is known."""

    text: str
    truth: Truth
    why: str
    kind: str = "assert"

    def item(self) -> CheckItem:
        """The check item, judged once at the end of the run (so one request judges the whole case)."""
        return CheckItem(kind="verify" if self.kind == "verify" else "assert", when="end", text=self.text)


@dataclass(frozen=True)
class CheckerCase:
    """A goal, the scripted path that is walked for it, and its items with their truth."""

    name: str
    goal: str
    goal_truth: Truth
    goal_why: str
    steps: tuple[Step, ...]
    claims: tuple[Claim, ...]
    confirm: Callable[[PhoneState], bool]
    """The phone's state after the run agrees with the truths (else the case is void)."""
    setup: tuple[tuple[str, ...], ...] = ()
    """Shell commands run on the fresh phone before the run (the state the goal changes)."""

    def items(self) -> tuple[CheckItem, ...]:
        return tuple(c.item() for c in self.claims)

    def truth_of(self, text: str) -> Claim:
        """The claim behind an item text (the goal's included)."""
        if text == self.goal:
            return Claim(self.goal, self.goal_truth, self.goal_why, kind="goal")
        return next(c for c in self.claims if c.text == text)


def _setting(state: PhoneState, ns: str, key: str) -> str | None:
    return state.settings.get(ns, {}).get(key)


WIFI_OFF = (("settings", "put", "global", "wifi_on", "0"),)
NETWORK = (tap("Settings"), tap("Network & internet"))

CASES: tuple[CheckerCase, ...] = (
    CheckerCase(
        "wifi-off", "Turn off Wi-Fi in Settings",
        "true", "the final screen shows the Wi-Fi switch OFF, ON before",
        (*NETWORK, tap("Wi-Fi"), finish("Wi-Fi is off")),
        (Claim("The Network & internet page shows the Wi-Fi switch off", "true",
               "the final screen is that page, its Wi-Fi switch not checked"),),
        lambda s: _setting(s, "global", "wifi_on") == "0"),
    CheckerCase(
        "wifi-on", "Turn on Wi-Fi in Settings",
        "true", "the final screen shows the Wi-Fi switch ON, OFF before",
        (*NETWORK, tap("Wi-Fi"), finish("Wi-Fi is on")),
        (Claim("The Wi-Fi switch is on", "true", "the final screen's Wi-Fi switch is checked"),
         Claim("Airplane mode is on", "false", "the final screen's Airplane mode switch is not checked"),
         Claim("The phone vibrated when Wi-Fi was turned on", "unsettled",
               "nothing the run records shows a vibration")),
        lambda s: _setting(s, "global", "wifi_on") == "1"
        and _setting(s, "global", "airplane_mode_on") == "0",
        setup=WIFI_OFF),
    CheckerCase(
        "wifi-undone", "Turn on Wi-Fi in Settings",
        "false", "the switch was turned on, then off again: the final screen shows it OFF",
        (*NETWORK, tap("Wi-Fi"), tap("Wi-Fi"), finish("Wi-Fi is on")),
        (Claim("Wi-Fi is on", "false", "the final screen's Wi-Fi switch is not checked", kind="verify"),
         Claim("Airplane mode is off", "true", "the final screen's Airplane mode switch is not checked")),
        lambda s: _setting(s, "global", "wifi_on") == "0",
        setup=WIFI_OFF),
    CheckerCase(
        "bluetooth", "Turn on Bluetooth in Settings",
        "true", "the final screen shows Use Bluetooth ON, OFF before",
        (tap("Settings"), tap("Bluetooth"), tap("Use Bluetooth"), finish("Bluetooth is on")),
        (Claim("Use Bluetooth is on", "true", "the final screen's Use Bluetooth switch is checked"),
         Claim("A Bluetooth headset is connected", "unsettled",
               "no screen lists a paired or connected device")),
        lambda s: _setting(s, "global", "bluetooth_on") == "1"),
    CheckerCase(
        "dark-theme", "Turn on Dark theme in the Display settings",
        "true", "the final screen shows Dark theme ON, OFF before",
        (tap("Settings"), tap("Display"), tap("Dark theme"), finish("Dark theme is on")),
        (Claim("Dark theme is on", "true", "the final screen's Dark theme switch is checked"),
         Claim("The screen looks darker", "unsettled",
               "a look, which no recorded text shows (the item does not accept a visual judgement)")),
        lambda s: _setting(s, "secure", "ui_night_mode") == "2"),
    CheckerCase(
        "alarm", "Create an alarm for 7:30 AM in the Clock app",
        "true", "the final alarm list shows 7:30 AM, which the fresh phone did not have",
        (tap("Clock"), tap(content_desc="Add alarm"), type_text("7", resource_id="material_hour_text_input"),
         type_text("30", resource_id="material_minute_text_input"), tap("AM"), tap("OK"),
         finish("7:30 AM alarm created")),
        (Claim("The alarm list shows 7:30 AM", "true", "the final alarm list has a 7:30 AM row"),
         Claim("The alarm list shows 6:15 AM", "false", "the final alarm list is 7:30, 8:30 and 9:00 AM"),
         Claim("The 7:30 AM alarm repeats every weekday", "unsettled",
               "no screen shows the alarm's repeat days"),
         Claim("The 8:30 AM alarm is switched off", "true",
               "the final list's 8:30 AM switch is not checked")),
        lambda s: Alarm(7, 30, True) in s.alarms and Alarm(8, 30, False) in s.alarms
        and not any((a.hour, a.minute) == (6, 15) for a in s.alarms)),
    CheckerCase(
        "contact", "Add a contact named Marie Curie with the number 555 0142",
        "true", "the final screen is the saved contact's page: Marie Curie, 5550142",
        (tap("Contacts"), tap("Create contact"), type_text("Marie", resource_id="first_name"),
         type_text("Curie", resource_id="last_name"), type_text("5550142", resource_id="phone_number"),
         tap(resource_id="editor_menu_save_button"), finish("contact saved")),
        (Claim("The contact page shows 'Marie Curie'", "true", "the saved contact's page shows the name"),
         Claim("The contact page shows the number 555 0199", "false", "the page shows 5550142"),
         Claim("The contact was synced to the Google account", "unsettled",
               "no screen shows an account or a sync")),
        lambda s: any(c.display_name == "Marie Curie" and c.phone == "5550142" for c in s.contacts)),
    CheckerCase(
        "airplane-not-done", "Turn on Airplane mode in Settings",
        "false", "the operator stopped on the Network & internet page: its Airplane mode switch is OFF",
        (*NETWORK, finish("Airplane mode is on")),
        (Claim("Airplane mode is on", "false", "the final screen's Airplane mode switch is not checked",
               kind="verify"),
         Claim("The Wi-Fi switch is on", "true", "the final screen's Wi-Fi switch is checked"),
         Claim("No 'keeps stopping' dialog appears", "true", "no screen the check is served shows a dialog")),
        lambda s: _setting(s, "global", "airplane_mode_on") == "0" and s.dialog is None),
    CheckerCase(
        "crash-recovered", "Create an alarm for 8:15 AM in the Clock app",
        "false", "Clock crashed on the way; the final alarm list is 8:30 and 9:00 AM only",
        (tap("Clock"), tap(content_desc="Add alarm"), tap("Close app"), tap("Clock"),
         finish("alarm created")),
        (Claim("No 'keeps stopping' dialog is showing", "true",
               "the dialog was closed: the final screen is the alarm list"),
         Claim("The 8:30 AM alarm is listed", "true", "the final alarm list has an 8:30 AM row"),
         Claim("The crash report was sent to the developer", "unsettled",
               "nothing the run records shows a report being sent")),
        lambda s: s.dialog is None and not any((a.hour, a.minute) == (8, 15) for a in s.alarms),
        setup=(("simctl", "fault", "crash", CLOCK, "2"),)),
)
"""The checker part's cases, in the order they run (``docs/fitness.md`` lists them, generated from here)."""
