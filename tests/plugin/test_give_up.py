"""The operator's ``give_up``: the run ends BLOCKED with its reason first, and nobody is sent back."""

from __future__ import annotations

from plugin_helpers import assert_words, run_junit

from pytest_artemis.report.reasons import reason
from pytest_artemis.store import read_run

GIVE_UP_TESTS = '''
import pytest

from pytest_artemis import probes
from pytest_artemis.testing import finish, give_up, scripted_agent, tap

STEPS = {
    "gives_up": (tap("Settings", done="Open Settings"), give_up("This phone has no Bluetooth page")),
    "finishes": (tap("Settings", done="Open Settings"), finish("Bluetooth is on")),
}


@pytest.fixture
def artemis_model(request):
    return scripted_agent(*STEPS[request.node.name.removeprefix("test_")],
                          plan=["Open Settings", "Turn on Bluetooth"])


@pytest.mark.goal("Turn on Bluetooth", max_steps=8)
@pytest.mark.verify("Bluetooth is on", probe=probes.setting("global", "bluetooth_on", equals="1"))
def test_gives_up(artemis):
    pass


@pytest.mark.goal("Turn on Bluetooth", max_steps=8)
@pytest.mark.verify("Bluetooth is on", probe=probes.setting("global", "bluetooth_on", equals="1"))
def test_finishes(artemis):
    pass
'''


def test_give_up_ends_the_run_blocked_with_its_reason_and_no_repair_rounds(pytester):
    pytester.makepyfile(test_unreachable=GIVE_UP_TESTS)
    result, cases = run_junit(pytester, "-v", "--artemis-device=sim")
    assert_words(result, blocked=2)
    gave_up = cases["test_gives_up"]
    assert gave_up.result == "error"
    # The operator's reason is the cause, said first and once; the unmet criterion follows.
    assert gave_up.message.startswith("BLOCKED: the operator gave up: This phone has no Bluetooth page; "
                                      "unmet: 'Bluetooth is on'"), gave_up.message
    assert gave_up.text.count("This phone has no Bluetooth page") == 1, gave_up.text  # said once
    assert "task blocked: the plan still has 1 open subgoal: 'Turn on Bluetooth'" in gave_up.text
    assert gave_up.props["artemis.steps"] == "2"
    # An item nothing was observed for says why, live and in the verdict list, never an empty evidence.
    result.stdout.fnmatch_lines(["*[[]artemis[]] UNCHECKED verify 'Bluetooth is on': its subgoal was *"])
    assert "(settlement): its subgoal was never marked done: no recorded evidence" in result.stdout.str()
    record = read_run(gave_up.props["artemis.artifacts"])
    assert [s.turn for s in record.steps] == ["act", "act"] and "gave_up" in record.steps[-1].flags
    kinds = [e.kind for e in record.events]
    assert "final_send_back" not in kinds and "final_check_cut_short" not in kinds
    # The final check still ran and recorded what the run needs: the goal and the unmet criterion.
    assert {v.kind for v in record.verdicts} >= {"goal", "verify"}
    assert record.outcome is not None and record.outcome.stop_reason.startswith("the operator gave up: ")
    # The report's banner leads with the operator's reason, at the step that gave up.
    why = reason(record, "BLOCKED")
    assert why.headline.startswith("blocked: the operator gave up: This phone has no Bluetooth page")
    assert (why.grounds[0].label, why.grounds[0].step) == ("the operator gave up", 2)
    assert [g.text for g in why.grounds[1:]] == ["Bluetooth is on"]
    # The same run ending in a finish claim is sent back to repair the unmet criterion.
    finished = read_run(cases["test_finishes"].props["artemis.artifacts"])
    assert [e.kind for e in finished.events].count("final_send_back") >= 1
    assert any(s.turn == "final_repair" for s in finished.steps)
