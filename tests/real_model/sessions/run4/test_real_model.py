"""Goals no scripted agent was written for, driven by a real model through the relay (session 4, the prompts
at the end of the wave).

Honest outcomes: 8:30 alarm on PASSED, Hedy Lamarr PASSED, Dark theme and Airplane mode PASSED, alarm count
FAILED (three alarms are listed), Battery Saver BLOCKED (the simulated phone has none), 9:00 alarm deleted
PASSED."""

import pytest

from pytest_artemis import probes


@pytest.mark.goal("Turn on the 8:30 AM alarm in the Clock app", max_steps=10)
@pytest.mark.verify("An enabled alarm is set for 08:30", probe=probes.alarm_set("08:30"))
@pytest.mark.assert_("The 8:30 AM alarm's switch is on", when="end")
def test_enable_alarm(artemis):
    pass


@pytest.mark.goal("Add a contact named Hedy Lamarr with phone 555 0177", max_steps=16)
@pytest.mark.assert_("The saved contact's page shows the number 555 0177")
def test_hedy_lamarr(artemis):
    pass


@pytest.mark.goal("Turn on Dark theme and Airplane mode", max_steps=14)
@pytest.mark.assert_("Dark theme and Airplane mode are both on at the end", when="end")
def test_dark_and_airplane(artemis):
    pass


@pytest.mark.goal("Set an alarm for 7:15 AM", max_steps=14)
@pytest.mark.verify("An enabled alarm is set for 07:15", probe=probes.alarm_set("07:15"))
@pytest.mark.assert_("The alarm list shows exactly two alarms", when="end")
def test_alarm_count(artemis):
    pass


@pytest.mark.goal("Turn on Battery Saver in Settings", max_steps=10)
@pytest.mark.verify("Battery Saver is on")
def test_battery_saver(artemis):
    pass


@pytest.mark.goal("Delete the 9:00 AM alarm", max_steps=10)
@pytest.mark.assert_("No alarm at 9:00 AM is listed", when="end")
def test_delete_nine(artemis):
    pass
