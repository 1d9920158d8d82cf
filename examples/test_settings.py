"""Settings switches: each change is read back with ``settings get``, never taken on the agent's word."""

import pytest

from pytest_artemis import probes


@pytest.mark.goal("Turn on Dark theme in Settings")
@pytest.mark.verify("Dark theme is on", probe=probes.setting("secure", "ui_night_mode", equals="2"))
@pytest.mark.assert_("The Display page lists 'Dark theme'")
def test_dark_theme_on(artemis):
    """Passes: the probe reads ui_night_mode=2 after the run."""


@pytest.mark.goal("Turn off Wi‑Fi in Settings")
@pytest.mark.verify("Wi‑Fi is off", probe=probes.setting("global", "wifi_on", equals=False))
@pytest.mark.assert_("No 'keeps stopping' dialog appears", when="end")
def test_wifi_off(artemis):
    """Passes: the probe reads wifi_on=0 after the run."""


# DEMONSTRATION: BLOCKED. The simulated phone has no "Extra dim" setting. The demo agent claims
# Finish anyway; the probe-backed verify keeps reading the setting as unset, so the goal is blocked.
@pytest.mark.goal("Turn on Extra dim in Settings", max_steps=6)
@pytest.mark.verify("Extra dim is on",
                    probe=probes.setting("secure", "reduce_bright_colors_activated", equals="1"))
def test_extra_dim_blocked(artemis):
    """DEMONSTRATION of BLOCKED: the agent's "done" is a claim; the probe says the goal was not reached."""


# DEMONSTRATION: UNCHECKED. The brightness change itself is verified by a probe, but "looks darker"
# names nothing the checker can read off a screenshot: it is inconclusive, so the test is UNCHECKED.
@pytest.mark.goal("Set the screen brightness to the minimum")
@pytest.mark.verify("Brightness is at its minimum",
                    probe=probes.setting("system", "screen_brightness", equals="0"))
@pytest.mark.assert_("The screen looks darker")
def test_brightness_unchecked(artemis):
    """DEMONSTRATION of UNCHECKED: an item nobody could confirm is reported, never passed."""
