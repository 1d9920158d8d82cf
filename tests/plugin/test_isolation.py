"""Isolation by default: the getting-started examples and tests that each expect the home screen pass
together in one session with default options, in any order; a test that finds state an earlier test left
is told which, and by whom."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from plugin_helpers import run_junit

from pytest_artemis.store import read_run

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "docs"))
from doc_blocks import section_files  # noqa: E402

#: Three tests that start from the home screen (their first tap is a launcher icon) and leave their app
#: open on a page of its own for the next test to find.
HOME_TESTS = '''
from pytest_artemis import probes

LAUNCHER = "com.google.android.apps.nexuslauncher"


def starts_at_home(artemis):
    assert artemis.steps[0].foreground == LAUNCHER


@pytest.mark.goal("Open the Bluetooth page of Settings")
@pytest.mark.verify("Settings is in front", probe=probes.foreground("com.android.settings"))
def test_home_then_settings(artemis_setup, artemis):
    starts_at_home(artemis)


@pytest.mark.goal("Open Contacts")
@pytest.mark.verify("Contacts is in front", probe=probes.foreground("com.android.contacts"))
def test_home_then_contacts(artemis):
    starts_at_home(artemis)


@pytest.mark.goal("Open Clock")
@pytest.mark.verify("Clock is in front", probe=probes.foreground("com.google.android.deskclock"))
def test_home_then_clock(artemis):
    starts_at_home(artemis)
'''

HOME_MODELS = '''
import pytest

from pytest_artemis.testing import finish, on_screen, scripted_agent, tap

SCRIPTS = {
    "test_home_then_settings": (tap("Settings"), tap("Bluetooth"), finish()),
    "test_home_then_contacts": (tap("Contacts"), tap("Ada Lovelace"), finish()),
    "test_home_then_clock": (tap("Clock"), tap("Add alarm"), finish()),
}
APPS = {"test_home_then_settings": "Use Bluetooth", "test_home_then_contacts": "+1 555-0100",
        "test_home_then_clock": "Enter time"}


@pytest.fixture
def artemis_model(request):
    name = request.node.name
    if name not in SCRIPTS:
        pytest.fail(f"no script for {name}")
    return scripted_agent(*SCRIPTS[name], goal=on_screen(APPS[name]))
'''

#: Orders the session's tests as ARTEMIS_TEST_ORDER says: reversed, or shuffled with a seed (what
#: pytest-randomly does, for when it is not installed).
ORDERING = '''
import os
import random


def pytest_collection_modifyitems(items):
    order = os.environ.get("ARTEMIS_TEST_ORDER", "")
    if order == "reversed":
        items.reverse()
    elif order.startswith("shuffled:"):
        random.Random(int(order.split(":")[1])).shuffle(items)
'''


def _project(pytester: pytest.Pytester) -> None:
    """The getting-started page's three test files as written, the home-screen tests, one session."""
    for section in ("A first test, offline, in any directory", "What the fixture gives you",
                    "Settings per test"):
        for name, text in section_files("getting-started.md", section).items():
            pytester.path.joinpath(name).write_text(text, encoding="utf-8")
    pytester.path.joinpath("test_home.py").write_text(HOME_MODELS + HOME_TESTS, encoding="utf-8")
    pytester.makeconftest(ORDERING)


ORDERS = ["collected", "reversed", "shuffled:1", "shuffled:7"]


@pytest.mark.parametrize("order", [pytest.param(o, marks=pytest.mark.slow) if o == "shuffled:1" else o
                                   for o in ORDERS])
def test_the_examples_and_home_screen_tests_pass_together_in_any_order(pytester, monkeypatch, order):
    _project(pytester)
    monkeypatch.setenv("ARTEMIS_TEST_ORDER", order)
    result, cases = run_junit(pytester, "--artemis-device=sim", "-p", "no:randomly", subprocess=True)
    words = {name: case.props.get("artemis.outcome") for name, case in cases.items()}
    assert set(words.values()) == {"PASSED"} and len(words) == 6, result.stdout.str()
    assert result.ret == 0


@pytest.mark.skipif(importlib.util.find_spec("pytest_randomly") is None,
                    reason="pytest-randomly not installed")
def test_the_same_session_shuffled_by_pytest_randomly(pytester):
    _project(pytester)
    result, cases = run_junit(pytester, "--artemis-device=sim", "-p", "randomly", "--randomly-seed=3",
                              subprocess=True)
    assert {case.props.get("artemis.outcome") for case in cases.values()} == {"PASSED"}, result.stdout.str()


LEFT_BEHIND = '''
import pytest

from pytest_artemis import probes
from pytest_artemis.testing import finish, on_screen, scripted_agent, tap


@pytest.fixture
def artemis_model(request):
    if request.node.name.startswith("test_1"):
        return scripted_agent(tap("Settings"), tap("Network & internet"), tap("Airplane mode"), finish(),
                              goal=on_screen("Airplane mode", checked=True))
    return scripted_agent(tap("Clock"), finish(), goal=on_screen("Add alarm"))


@pytest.mark.goal("Turn on Airplane mode in Settings")
@pytest.mark.verify("Airplane mode is on", probe=probes.setting("global", "airplane_mode_on", equals=True))
def test_1_turns_airplane_mode_on(artemis):
    pass


@pytest.mark.goal("Open Clock")
@pytest.mark.verify("Clock is in front", probe=probes.foreground("com.google.android.deskclock"))
def test_2_finds_it_on(artemis):
    pass
'''


def test_a_test_is_told_what_an_earlier_test_left_and_by_whom(pytester: pytest.Pytester):
    pytester.makepyfile(test_left=LEFT_BEHIND)
    result, cases = run_junit(pytester, "--artemis-device=sim", "-p", "no:randomly")
    first, second = cases["test_1_turns_airplane_mode_on"], cases["test_2_finds_it_on"]
    assert first.props["artemis.outcome"] == "PASSED" and "artemis.found_changed" not in first.props
    assert second.props["artemis.outcome"] == "PASSED", result.stdout.str()
    changed = second.props["artemis.found_changed"]
    by = "test_left.py::test_1_turns_airplane_mode_on"
    assert f"settings global airplane_mode_on: 0 -> 1 (changed by {by})" in changed
    events = read_run(second.props["artemis.artifacts"]).events
    assert any(e.kind == "found_state" and any("airplane_mode_on" in c for c in e.fields["changes"])
               for e in events)
    isolate = next(e.fields["step"] for e in events if e.kind == "setup_step")
    assert isolate["action"] == "isolate" and "com.android.settings" in isolate["args"]["stopped"]
