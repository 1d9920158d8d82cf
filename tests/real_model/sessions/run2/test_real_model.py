"""Goals no scripted agent was written for, driven by a real model through the relay (session 2).

Honest outcomes, known in advance: airplane PASSED, dark theme PASSED, wifi+bluetooth PASSED, alarm with
toast PASSED, contact order FAILED (the list is alphabetical, so the new contact is not first), NFC
BLOCKED (the simulated phone has no NFC setting)."""

import pytest

from pytest_artemis import probes


@pytest.mark.goal("Turn on Airplane mode", max_steps=10)
@pytest.mark.verify("Airplane mode is on", probe=probes.setting("global", "airplane_mode_on", equals="1"))
@pytest.mark.assert_("The Network & internet page shows the Airplane mode switch on", when="end")
def test_airplane_on(artemis):
    pass


@pytest.mark.goal("Open the Display settings and enable Dark theme", max_steps=10)
@pytest.mark.verify("The Display page shows Dark theme switched on")
@pytest.mark.assert_("No 'keeps stopping' dialog appears", when="end")
def test_dark_theme_model_judged(artemis):
    pass


@pytest.mark.goal("Switch Wi-Fi off and Bluetooth on", max_steps=14)
@pytest.mark.assert_("Wi-Fi is off and Bluetooth is on at the end of the run", when="end")
def test_wifi_off_bluetooth_on(artemis):
    pass


@pytest.mark.goal("Create an alarm for 5:15 PM in the Clock app", max_steps=14)
@pytest.mark.verify("An enabled alarm is set for 17:15", probe=probes.alarm_set("17:15"))
@pytest.mark.assert_("A toast confirms the alarm right after it is saved")
def test_alarm_with_toast(artemis):
    pass


@pytest.mark.goal("Add a contact named Rosalind Franklin with phone 555 0199, "
                  "then return to the contact list",
                  max_steps=16)
@pytest.mark.verify("A contact Rosalind Franklin with phone 5550199 exists",
                    probe=probes.contact_exists(name="Rosalind Franklin", phone="5550199"))
@pytest.mark.assert_("The contact list shows 'Rosalind Franklin' as its first contact, above 'Ada Lovelace'",
                     when="end")
def test_contact_first_in_list(artemis):
    pass


@pytest.mark.goal("Turn on NFC in Settings", max_steps=10)
@pytest.mark.verify("NFC is on")
def test_nfc_on(artemis):
    pass
