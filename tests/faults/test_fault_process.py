"""Process and input faults: a worker killed with SIGKILL, a torn journal, probe injection in markers."""

from __future__ import annotations

from pathlib import Path

import pytest
from fault_harness import run_matrix
from fault_scripts import SERVERS

from pytest_artemis.report import render_run_report
from pytest_artemis.store import list_runs, read_run

KILLED = '''
import os
import signal

import pytest
from fault_scripts import SETTINGS, bluetooth_decision, verdicts
from pytest_artemis.agents.schemas import PlanReply


def respond(request, device):
    if request.role == "planner":
        return PlanReply(plan="- [ ] Turn on Bluetooth\\n")
    if request.role == "operator":
        if "[kill]" in request.goal and request.turn == 2:
            os.kill(os.getpid(), signal.SIGKILL)
        return bluetooth_decision(request)
    return verdicts(request, "passed", "the Bluetooth switch reads ON")


def bluetooth_test(goal):
    @pytest.mark.goal(goal, app=SETTINGS)
    @pytest.mark.verify("Bluetooth is on")
    def test(artemis):
        pass
    return test


test_a, test_killed, test_b, test_c = map(bluetooth_test, ["Turn on Bluetooth", "Turn on Bluetooth [kill]",
                                                           "Turn on Bluetooth", "Turn on Bluetooth"])
'''


@pytest.mark.slow
def test_a_worker_killed_by_sigkill_is_an_error_and_others_are_unaffected(project):
    project.makepyfile(test_killed=KILLED)
    # Each test turns Bluetooth on from off (a test after another on the same phone starts from a reset).
    matrix = run_matrix(project, "-n", "2", "--artemis-device=sim:2", "--artemis-reset=full", subprocess=True)
    matrix.result.assert_outcomes(passed=3, errors=1)
    dead = matrix.cases["test_killed"]
    assert dead.result == "error" and "ERROR: infrastructure failure (harness) WorkerCrashed" in dead.message
    assert "/emulator-555" in dead.message and "on device 127.0.0.1:" in dead.message
    assert "reads back as interrupted" in dead.message
    matrix.result.stdout.fnmatch_lines(["*ERROR test_killed.py::test_killed*"])
    for name in ("test_a", "test_b", "test_c"):
        assert matrix.cases[name].result is None and matrix.cases[name].props["artemis.outcome"] == "PASSED"
    (run,) = list_runs(Path(project.path, ".artemis", "test_killed.py__test_killed"))
    record = read_run(run)
    assert record.execution == "interrupted" and record.outcome is None and record.terminal is None
    assert [s.step for s in record.steps] == [1]  # what happened before the kill is kept


PASSING = '''
import pytest
from fault_scripts import SETTINGS, bluetooth_decision, verdicts
from pytest_artemis import probes
from pytest_artemis.agents.schemas import PlanReply


def respond(request, device):
    if request.role == "planner":
        return PlanReply(plan="- [ ] Turn on Bluetooth\\n")
    if request.role == "operator":
        return bluetooth_decision(request)
    return verdicts(request, "passed", "the step 2 post screenshot shows the switch reading ON")


@pytest.mark.goal("Turn on Bluetooth", app=SETTINGS)
@pytest.mark.verify("Bluetooth is on", probe=probes.setting("global", "bluetooth_on", equals=True))
def test_bluetooth(artemis):
    pass
'''


def test_a_torn_last_journal_line_still_renders_with_a_notice(project):
    project.makepyfile(test_torn=PASSING)
    matrix = run_matrix(project)
    matrix.expect("test_bluetooth", "PASSED")
    run_dir = Path(matrix.cases["test_bluetooth"].props["artemis.artifacts"])
    steps = run_dir / "steps.jsonl"
    whole = len(read_run(run_dir).steps)
    with steps.open("ab") as handle:  # a write cut short by a crash: half a record, no newline
        handle.write(b'{"step": 99, "turn": "act", "pre_screen": "0f3a')
    record = read_run(run_dir)
    assert len(record.steps) == whole
    assert any("steps.jsonl: torn last line" in n for n in record.notices)
    html = render_run_report(run_dir).read_text(encoding="utf-8")
    assert "torn last line" in html and 'class="notice"' in html
    assert f"Steps ({whole})" in html and "Bluetooth is on" in html


INJECTIONS = {
    "semicolon": {"ns": "global", "key": "wifi_on; settings put global wifi_on 0"},
    "subshell": {"ns": "global", "key": "$(settings put global wifi_on 0)"},
    "backticks": {"ns": "global", "key": "`settings put global wifi_on 0`"},
    "pipe": {"ns": "global", "key": "wifi_on | sh"},
    "settings_put": {"ns": "put global", "key": "wifi_on"},
    "extra_param": {"ns": "global", "key": "wifi_on", "value": "0"},
}


def _injection_module() -> str:
    lines = ["import pytest", "from pytest_artemis.contracts import ProbeCheck, ProbeSpec", ""]
    for name, params in INJECTIONS.items():
        lines += [
            "",
            "@pytest.mark.goal('Turn off Wi-Fi')",
            f"@pytest.mark.verify('Wi-Fi is off', probe=ProbeCheck(probe=ProbeSpec(kind='setting', "
            f"params={params!r}), name='setting_equals', args={{'equals': '0'}}))",
            f"def test_{name}(artemis):",
            "    pass",
        ]
    lines += ["", "", "@pytest.mark.goal('Turn off Wi-Fi')",
              "@pytest.mark.verify('Wi-Fi is off', probe=ProbeCheck(probe=ProbeSpec(kind='settings put', "
              "params={'ns': 'global', 'key': 'wifi_on'}), name='setting_equals', args={'equals': '0'}))",
              "def test_unknown_kind(artemis):", "    pass", ""]
    return "\n".join(lines)


def test_probe_injection_in_markers_is_a_collection_error_naming_the_test(project):
    project.makepyfile(test_inject=_injection_module())
    matrix = run_matrix(project)
    assert matrix.result.ret == pytest.ExitCode.INTERRUPTED
    names = [*INJECTIONS, "unknown_kind"]
    reasons = {"pipe": "shell metacharacters", "extra_param": "unknown parameter(s) value",
               "unknown_kind": "unknown probe kind 'settings put'"}
    matrix.result.stdout.fnmatch_lines_random(
        [f"artemis marker error: test_inject.py::test_{name}: *{reasons.get(name, 'metacharacters')}*"
         for name in names] + [f"ERROR test_inject.py::test_{name}" for name in names])
    for name in names:
        case = matrix.cases[f"test_{name}"]
        assert case.result == "error" and f"test_inject.py::test_{name}:" in case.text
    assert not SERVERS  # nothing ran: no phone was even started
