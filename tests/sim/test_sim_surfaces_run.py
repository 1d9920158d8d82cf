"""The new surfaces in real pytest runs on the simulated phone (``--artemis-device=sim``), read back from
JUnit XML: an agent that turns Bluetooth on from Quick Settings, and agents that meet Clock's permission
dialog."""

from __future__ import annotations

from pytest_artemis.junit import read_properties

CONFTEST = '''
import pytest

from pytest_artemis.models import ModelSet
from pytest_artemis.testing import (
    HonestChecker, OperatorDecision, PlanReply, ScriptedModel, ScriptedOperator, Swipe, finish, launch,
    long_press, on_screen, tap,
)

CLOCK = "com.google.android.deskclock"
SCRIPTS = {
    "test_bluetooth_from_quick_settings": (
        (tap(content_desc="Bluetooth"), long_press(content_desc="Bluetooth", done="Bluetooth"),
         finish()),
        on_screen("Use Bluetooth", checked=True)),
    "test_allows_the_permission": ((launch(CLOCK), tap("Allow", done="Open the Clock app"), finish()),
                                   on_screen("Alarm")),
    "test_leaves_the_dialog_open": ((launch(CLOCK, done="Open the Clock app"), finish()), on_screen("Alarm")),
}


@pytest.fixture
def artemis_model(request):
    steps, goal = SCRIPTS[request.node.name]
    operator, judge = ScriptedOperator(steps), HonestChecker(goal)
    pulled = [request.node.name != "test_bluetooth_from_quick_settings"]

    def respond(req):
        if req.role == "planner":
            return PlanReply(plan="".join(f"- [ ] {s}\\n" for s in req.goal.split(", then ")))
        if req.role != "operator":
            return judge(req)
        if not pulled[0]:
            pulled[0] = True  # a swipe down from the status bar opens the shade
            pull = Swipe(x1=540, y1=20, x2=540, y2=1300)
            return OperatorDecision(decision="pull the shade down", actions=[pull])
        return operator(req)

    return ModelSet.uniform(ScriptedModel(respond))


@pytest.fixture
def asking_clock(artemis_device):
    artemis_device.check(["simctl", "permissions", "ask", CLOCK])
    yield
    artemis_device.check(["simctl", "permissions", "default", CLOCK])
'''

TESTS = '''
import pytest

from pytest_artemis import probes

CLOCK = "com.google.android.deskclock"


@pytest.mark.goal("Turn on Bluetooth", max_steps=8)
@pytest.mark.verify("Bluetooth is on", probe=probes.setting("global", "bluetooth_on", equals="1"))
def test_bluetooth_from_quick_settings(artemis):
    pass


@pytest.mark.goal("Open the Clock app", max_steps=8)
@pytest.mark.verify("The Clock is in front", probe=probes.foreground(CLOCK))
@pytest.mark.assert_("The Clock is in front, no dialog over it", probe=probes.foreground(CLOCK), when="end")
def test_allows_the_permission(asking_clock, artemis):
    granted = artemis.device.check(["dumpsys", "package", CLOCK])
    assert "android.permission.POST_NOTIFICATIONS: granted=true, flags=[ USER_SET|" in granted


@pytest.mark.goal("Open the Clock app", max_steps=6)
@pytest.mark.assert_("The Clock is in front, no dialog over it", probe=probes.foreground(CLOCK), when="end")
def test_leaves_the_dialog_open(asking_clock, artemis):
    pass
'''


def test_quick_settings_and_the_permission_dialog_in_real_runs(pytester):
    pytester.makeconftest(CONFTEST)
    # One phone, tests in order and no reset: the fixture's `simctl permissions ask` (a fresh install: the
    # app stopped, nothing granted) is what each permission test starts from.
    pytester.makepyfile(test_surfaces=TESTS)
    xml = pytester.path / "junit.xml"
    pytester.runpytest("-p", "no:cacheprovider", "--artemis-device=sim", f"--junitxml={xml}")
    outcomes = {nodeid.rpartition("::")[2]: props["artemis.outcome"]
                for nodeid, props in read_properties(xml).items()}
    assert outcomes == {"test_bluetooth_from_quick_settings": "PASSED",
                        "test_allows_the_permission": "PASSED", "test_leaves_the_dialog_open": "FAILED"}
