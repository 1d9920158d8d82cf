"""Goals no scripted agent was written for, driven by a real model through the relay (session 3).

Honest outcomes, known in advance: delete alarm PASSED, labelled alarm PASSED, dark theme (visual) PASSED,
Bluetooth with a false assertion FAILED (its page has no 'Connected devices'), Play Store BLOCKED (no store
on this phone), airplane on then off PASSED."""

import pytest

from pytest_artemis import probes


@pytest.mark.goal("Delete the 8:30 AM alarm in the Clock app", max_steps=10)
@pytest.mark.assert_("The alarm list no longer shows an 8:30 AM alarm", when="end")
@pytest.mark.assert_("The 9:00 AM alarm is still listed", when="end")
def test_delete_alarm(artemis):
    pass


@pytest.mark.goal("Create a 7:00 AM alarm labelled 'Gym'", max_steps=16)
@pytest.mark.verify("An enabled alarm is set for 07:00", probe=probes.alarm_set("07:00"))
@pytest.mark.assert_("The alarm list shows the label 'Gym' for the 7:00 AM alarm", when="end")
def test_labelled_alarm(artemis):
    pass


@pytest.mark.goal("Turn on Dark theme", max_steps=10)
@pytest.mark.assert_("The Display page is drawn with a dark background after the change", visual=True)
def test_dark_theme_visual(artemis):
    pass


@pytest.mark.goal("Turn on Bluetooth", max_steps=10)
@pytest.mark.verify("Bluetooth is on")
@pytest.mark.assert_("The Bluetooth page lists 'Connected devices'", when="end")
def test_bluetooth_connected_devices(artemis):
    pass


@pytest.mark.goal("Install the Spotify app from the Play Store", max_steps=10)
@pytest.mark.verify("Spotify is installed", probe=probes.package_installed("com.spotify.music"))
def test_install_spotify(artemis):
    pass


@pytest.mark.goal("Turn on Airplane mode, then turn it off again", max_steps=12)
@pytest.mark.assert_("Airplane mode is off at the end", when="end")
def test_airplane_on_then_off(artemis):
    pass
