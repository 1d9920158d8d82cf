"""Alarms in the Clock app: a probe reads the alarm from the device; the checker reads the screen."""

import pytest

from pytest_artemis import probes


# DEMONSTRATION: PASSED. The probe finds the alarm, the checker reads the toast in the screenshot of
# the step that saved it, and the final screen shows no crash dialog.
@pytest.mark.goal("Create an alarm for 7:30 AM in the Clock app")
@pytest.mark.verify("The alarm list has a 7:30 AM alarm that is switched on", probe=probes.alarm_set("07:30"))
@pytest.mark.assert_("A toast says 'Alarm set for 7:30 AM' right after saving")
@pytest.mark.assert_("No 'keeps stopping' dialog appears", when="end")
def test_create_alarm(artemis):
    """DEMONSTRATION of PASSED: every check holds, each backed by recorded evidence."""
    assert artemis.outcome.task.status == "completed"
