"""Your own test, offline: turn on Airplane mode, scripted by what a user sees (walkthrough: README.md)."""

import pytest

from pytest_artemis import configured_models, probes
from pytest_artemis.testing import finish, on_screen, scripted_agent, tap

SETTINGS = "com.android.settings"


@pytest.fixture
def artemis_model(pytestconfig):
    """A real model when one is configured (--artemis-model=…), else this script of what to tap."""
    return configured_models(pytestconfig) or scripted_agent(
        tap("Settings"),
        tap("Network & internet", done="Network & internet"),
        tap("Airplane mode"),
        finish("Airplane mode is on"),
        plan=["Open Network & internet in Settings", "Turn on Airplane mode"],
        goal=on_screen("Airplane mode", checked=True),
    )


@pytest.fixture
def fresh_settings(artemis_device):
    """Start from the Settings home page whatever an earlier test left open, and leave Airplane mode
    off for the tests after this one (the phone keeps its state for the whole session)."""
    artemis_device.stop(SETTINGS)
    yield
    artemis_device.check(["settings", "put", "global", "airplane_mode_on", "0"])
    artemis_device.stop(SETTINGS)


@pytest.mark.goal("Turn on Airplane mode in Settings")
@pytest.mark.verify("Airplane mode is on", probe=probes.setting("global", "airplane_mode_on", equals=True))
@pytest.mark.assert_("The Network & internet page lists 'Airplane mode'", when="end")
@pytest.mark.assert_("No app crashed", probe=probes.no_error_dialog(), when="end")
def test_airplane_mode(fresh_settings, artemis):
    """Passes: the probe reads airplane_mode_on=1 and the final screen shows the switch on."""
    assert artemis.outcome.task.status == "completed"
