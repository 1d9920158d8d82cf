"""The operator part's goals: what the candidate must reach on the simulated phone, read back by probes.

They are the four goals of the recorded real-model session ``tests/real_model/sessions/run1`` (same
words, same declared checks, same step budgets, in the same order), so that session can be replayed
through the kit and scored. Whether a goal was reached is read from the phone by its ``success`` probes
after the run; the model's ``finish``, its ticks and every verdict of the run are never evidence of it.
Each goal changes the fresh phone's state (the probes fail before the run), or the goal is void.
"""

from __future__ import annotations

from dataclasses import dataclass

from pytest_artemis import probes
from pytest_artemis.contracts import CheckItem, ProbeCheck
from pytest_artemis.testing import Step, finish, tap, type_text


@dataclass(frozen=True)
class OperatorGoal:
    """One goal, the checks a test would declare for it, and the probes that say it was reached."""

    name: str
    goal: str
    max_steps: int
    checks: tuple[CheckItem, ...]
    success: tuple[ProbeCheck, ...]
    subgoals: tuple[str, ...]
    """The plan the built-in scripted planner writes."""
    route: tuple[Step, ...]
    """The path the built-in scripted operators walk (each step found on the screen of its turn)."""


def _verify(text: str, probe: ProbeCheck) -> CheckItem:
    return CheckItem(kind="verify", text=text, probe=probe)


def _assert(text: str, when: str = "complete") -> CheckItem:
    return CheckItem(kind="assert", text=text, when="end" if when == "end" else "complete")


CONTACT = probes.contact_exists(name="Marie Curie", phone="5550142")
ALARM = probes.alarm_set("06:45")
BLUETOOTH = probes.setting("global", "bluetooth_on", equals="1")
DARK = probes.setting("secure", "ui_night_mode", equals="2")
WIFI_OFF = probes.setting("global", "wifi_on", equals=False)

GOALS: tuple[OperatorGoal, ...] = (
    OperatorGoal(
        "new-contact", "Add a new contact named Marie Curie with the phone number 555 0142", 14,
        (_verify("A contact Marie Curie with phone 5550142 exists", CONTACT),
         _assert("The saved contact's page shows the name 'Marie Curie'")),
        (CONTACT,),
        ("Open the Contacts app", "Fill in Marie Curie and 555 0142", "Save the contact"),
        (tap("Contacts", done="Contacts"), tap("Create contact"),
         type_text("Marie", resource_id="first_name"), type_text("Curie", resource_id="last_name"),
         type_text("5550142", resource_id="phone_number", done="Fill in"),
         tap(resource_id="editor_menu_save_button", done="Save"), finish("Marie Curie is saved"))),
    OperatorGoal(
        "alarm-645", "Set an alarm for 6:45 AM in the Clock app", 14,
        (_verify("An enabled alarm is set for 06:45", ALARM),
         _assert("The alarm list shows 6:45 AM with its switch on", when="end")),
        (ALARM,),
        ("Open the Clock app", "Enter 6:45 AM in a new alarm", "Save the 6:45 AM alarm"),
        (tap("Clock", done="Clock"), tap(content_desc="Add alarm"),
         type_text("6", resource_id="material_hour_text_input"),
         type_text("45", resource_id="material_minute_text_input"), tap("AM", done="Enter"),
         tap("OK", done="Save"), finish("the 6:45 AM alarm is on"))),
    OperatorGoal(
        "bluetooth-then-dark", "Turn on Bluetooth, then open the Display settings and turn on Dark theme", 14,
        (_verify("Bluetooth is on", BLUETOOTH), _verify("Dark theme is on", DARK),
         _assert("No 'keeps stopping' dialog appears", when="end")),
        (BLUETOOTH, DARK),
        ("Turn on Bluetooth", "Open the Display settings", "Turn on Dark theme"),
        (tap("Settings"), tap("Bluetooth"), tap("Use Bluetooth", done="Turn on Bluetooth"),
         tap(content_desc="Navigate up"), tap("Display", done="Display"),
         tap("Dark theme", done="Dark theme"), finish("Bluetooth and Dark theme are on"))),
    OperatorGoal(
        "wifi-off", "Turn off Wi-Fi in Settings", 10,
        (_verify("Wi-Fi is off", WIFI_OFF),
         _assert("The Network & internet page shows the Wi-Fi switch off", when="end")),
        (WIFI_OFF,),
        ("Open Network & internet", "Turn off Wi-Fi"),
        (tap("Settings"), tap("Network & internet", done="Network"), tap("Wi-Fi", done="Turn off"),
         finish("Wi-Fi is off"))),
)
"""The operator part's goals, in the order they run."""


def goal_named(text: str) -> OperatorGoal | None:
    """The built-in goal with this text (the scripted planner and operators follow it), or None."""
    return next((g for g in GOALS if g.goal == text), None)
