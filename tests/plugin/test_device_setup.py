"""The device before the run, end to end on the simulated phone through the real adb path: lease → reset →
setup → baseline → run, each setup step recorded and seen by the probes before the first action."""

from __future__ import annotations

import pytest
from plugin_helpers import run_junit

from pytest_artemis.store import read_run

#: An operator that turns Bluetooth off only when it is on (as a person would), and an honest checker
#: that judges the goal by the switch on the final screen.
BLUETOOTH_OFF = '''
import pytest

from pytest_artemis import probes
from pytest_artemis.agents.schemas import OperatorDecision, PlanReply
from pytest_artemis.contracts import Finish, Launch, Tap
from pytest_artemis.models import ModelSet
from pytest_artemis.testing import HonestChecker, ScriptedModel, on_screen

CHECKER = HonestChecker(on_screen("Use Bluetooth", checked=False))


def respond(request):
    if request.role == "planner":
        return PlanReply(plan="- [ ] Turn Bluetooth off\\n")
    if request.role == "checker":
        return CHECKER(request)
    screen = request.screen
    switch = screen.find(resource_id="switch_widget")
    if switch is not None:
        if switch.checked:
            return OperatorDecision(decision="turn it off", actions=[Tap(element=switch.index)])
        done = request.plan.replace("[ ]", "[x]")
        return OperatorDecision(decision="it is off", actions=[Finish()], plan=done)
    row = screen.find("Bluetooth")
    if row is not None and screen.foreground == "com.android.settings":
        return OperatorDecision(decision="open Bluetooth", actions=[Tap(element=row.index)])
    return OperatorDecision(decision="open Settings", actions=[Launch(package="com.android.settings")])


@pytest.fixture
def artemis_model():
    return ModelSet.uniform(ScriptedModel(respond))


@pytest.mark.goal("Turn Bluetooth off")
@pytest.mark.verify("Bluetooth is off", probe=probes.setting("global", "bluetooth_on", equals=False))
@pytest.mark.artemis_setup(settings={"global": {"bluetooth_on": 1}})
def test_with_the_precondition(artemis):
    pass


@pytest.mark.goal("Turn Bluetooth off")
@pytest.mark.verify("Bluetooth is off", probe=probes.setting("global", "bluetooth_on", equals=False))
def test_without_it(artemis):
    pass
'''


def test_turn_bluetooth_off_passes_with_its_precondition_and_is_unchecked_without(pytester: pytest.Pytester):
    pytester.makepyfile(test_bluetooth=BLUETOOTH_OFF)
    result, cases = run_junit(pytester, "--artemis-device=sim", "-p", "no:randomly")
    words = {name: case.props["artemis.outcome"] for name, case in cases.items()}
    assert words == {"test_with_the_precondition": "PASSED", "test_without_it": "UNCHECKED"}, \
        result.stdout.str()
    events = read_run(cases["test_with_the_precondition"].props["artemis.artifacts"]).events
    step = next(e.fields["step"] for e in events if e.kind == "setup_step"
                and e.fields["step"]["action"] == "put_setting")
    assert (step["args"]["key"], step["before"], step["after"]) == ("bluetooth_on", "0", "1")
    assert "settings put global bluetooth_on 1" in step["commands"]


SEEN_BEFORE = '''
import pytest

from pytest_artemis import probes
from pytest_artemis.sim.installer import write_apk
from pytest_artemis.testing import finish, on_screen, scripted_agent


@pytest.fixture
def artemis_model():
    return scripted_agent(finish(), goal=on_screen("No internet"))


@pytest.fixture
def shop(artemis_setup, tmp_path):
    artemis_setup.install(write_apk(tmp_path / "shop.apk", "com.example.shop"))
    artemis_setup.push_file(b"notes", "/sdcard/Download/notes.txt")


@pytest.fixture
def page(artemis_setup):
    artemis_setup.open_url("https://example.com/cart")


@pytest.mark.goal("Look at the page")
@pytest.mark.verify("Bluetooth is on", probe=probes.setting("global", "bluetooth_on", equals=True))
@pytest.mark.verify("The shop app is installed", probe=probes.package_installed("com.example.shop"))
@pytest.mark.verify("Chrome is in front", probe=probes.foreground("com.android.chrome"))
@pytest.mark.artemis_setup(settings={"global": {"bluetooth_on": True}})
def test_setup(artemis, page, shop):  # listed after `artemis`: set up before its run all the same
    assert [s.action for s in artemis.setup.steps] == [
        "isolate", "put_setting", "open_url", "install", "push_file"]
'''


def test_each_setup_step_is_recorded_and_seen_by_the_probes_before_the_first_action(pytester):
    pytester.makepyfile(test_seen=SEEN_BEFORE)
    result, cases = run_junit(pytester, "--artemis-device=sim", "-p", "no:randomly")
    case = cases["test_setup"]
    # what held before the run is no evidence of the run's doing: the items are vacuous (UNCHECKED)
    assert case.props["artemis.outcome"] == "UNCHECKED", result.stdout.str()
    events = read_run(case.props["artemis.artifacts"]).events
    kinds = [e.kind for e in events if e.kind in ("setup_step", "vacuity_baseline", "baseline")]
    assert kinds == ["setup_step"] * 5 + ["vacuity_baseline"] * 3 + ["baseline"]
    held = {e.fields["item"]: e.fields["held"] for e in events if e.kind == "vacuity_baseline"}
    assert held == {"Bluetooth is on": True, "The shop app is installed": True, "Chrome is in front": True}
    steps = {e.fields["step"]["action"]: e.fields["step"] for e in events if e.kind == "setup_step"}
    assert steps["install"]["after"] == "installed com.example.shop"
    assert steps["open_url"]["after"] == "foreground com.android.chrome"
    assert steps["isolate"]["after"] == "foreground com.google.android.apps.nexuslauncher"
    page = (read_run(case.props["artemis.artifacts"]).dir / "report.html").read_text()
    section = page[page.index('id="before-run"'):page.index('id="strip"') if 'id="strip"' in page else None]
    assert "settings put global bluetooth_on 1" in section and "installed com.example.shop" in section


ALARM = '''
import pytest

from pytest_artemis import probes
from pytest_artemis.testing import finish, scripted_agent, tap, launch


@pytest.fixture
def artemis_model():
    return scripted_agent(launch("com.google.android.deskclock"), tap(content_desc="Delete alarm 7:30 AM"),
                          finish())


@pytest.mark.goal("Delete the 7:30 AM alarm")
@pytest.mark.verify("No alarm is set for 7:30 AM",
                    probe=probes.alarm_set("07:30", enabled=False))
@pytest.mark.artemis_setup(alarms=["07:30"])
def test_delete_the_alarm(artemis):
    pass
'''


@pytest.mark.xfail(strict=True, reason="needs branch simapps (the clock's SET_ALARM on_intent)")
def test_delete_the_alarm_the_intent_seeded(pytester: pytest.Pytester):
    pytester.makepyfile(test_alarm=ALARM)
    result, cases = run_junit(pytester, "--artemis-device=sim", "-p", "no:randomly")
    assert cases["test_delete_the_alarm"].props["artemis.outcome"] == "PASSED", result.stdout.str()


def test_a_misspelt_precondition_is_a_collection_error_that_says_what_was_meant(pytester: pytest.Pytester):
    pytester.makepyfile(test_typo='''
        import pytest

        @pytest.mark.artemis_setup(setings={"global": {"bluetooth_on": 1}})
        def test_typo(artemis):
            pass

        @pytest.mark.artemis_setup(settings={"globl": {"bluetooth_on": 1}})
        def test_namespace(artemis):
            pass

        @pytest.mark.artemis_setup(launch="com.android.settings")
        def test_nobody_applies_it():
            pass
    ''')
    result = pytester.runpytest("--artemis-device=sim", "-p", "no:randomly", "--collect-only")
    out = result.stdout.str()
    assert "unknown precondition 'setings' (did you mean 'settings'?)" in out
    assert "namespace 'globl' is not one of system, secure, global (did you mean 'global'?)" in out
    assert "requests neither `artemis` nor `artemis_setup`" in out
    assert result.ret == 2


def test_a_step_the_device_refuses_is_an_error_naming_it(pytester: pytest.Pytester):
    pytester.makepyfile(test_refused='''
        import pytest
        from pytest_artemis.testing import finish, scripted_agent

        @pytest.fixture
        def artemis_model():
            return scripted_agent(finish())

        @pytest.mark.goal("Open the link")
        @pytest.mark.artemis_setup(open_url="shop://cart/42")
        def test_refused(artemis):
            pass
    ''')
    result, cases = run_junit(pytester, "--artemis-device=sim", "-p", "no:randomly")
    message = cases["test_refused"].message
    assert "ERROR: artemis_setup on " in message
    assert "open_url(url='shop://cart/42'): the device refused" in message
    assert "unable to resolve Intent { act=android.intent.action.VIEW dat=shop://cart/... " in message
    assert cases["test_refused"].result == "error"
