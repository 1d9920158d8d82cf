"""Device farm under xdist (one sim server, one lease per worker, crash relabel, a finished worker's exit)
and pytest-timeout."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from plugin_helpers import ROWS_TESTS, assert_words, check_rows, run_junit

from pytest_artemis.store import list_runs, read_run

pytestmark = pytest.mark.slow


def test_two_workers_lease_two_devices_with_the_same_outcomes(suite):
    suite.makepyfile(test_rows=ROWS_TESTS)
    result, cases = run_junit(suite, "-v", "-n", "2", "--artemis-device=sim:2", subprocess=True)
    names = {case.props["artemis.device"] for case in cases.values()}
    assert {name.rpartition("/")[2] for name in names} == {"emulator-5554", "emulator-5556"}
    assert len({name.rpartition("/")[0] for name in names}) == 1  # one simulated server for both workers
    # Same words, JUnit elements and properties as the run without xdist (device aside).
    for case in cases.values():
        name = case.props["artemis.device"]
        case.props["artemis.device"] = name.replace("/emulator-5556", "/emulator-5554")
    check_rows(result, cases, xdist=True)


def test_a_crashed_worker_is_an_error_naming_the_device_and_others_are_unaffected(suite):
    suite.makepyfile(test_crash='''
        import pytest

        @pytest.mark.goal("Turn on Bluetooth")
        @pytest.mark.verify("PASS: Bluetooth on")
        def test_a(artemis):
            pass

        @pytest.mark.goal("Turn on Bluetooth [die]")
        @pytest.mark.verify("PASS: Bluetooth on")
        def test_dies(artemis):
            pass

        @pytest.mark.goal("Turn on Bluetooth")
        @pytest.mark.verify("PASS: Bluetooth on")
        def test_b(artemis):
            pass

        @pytest.mark.goal("Turn on Bluetooth")
        @pytest.mark.verify("PASS: Bluetooth on")
        def test_c(artemis):
            pass
    ''')
    result, cases = run_junit(suite, "-n", "2", "--artemis-device=sim:2", subprocess=True)
    result.assert_outcomes(passed=3, errors=1)
    dead = cases["test_dies"]
    assert dead.result == "error"
    assert re.search(r"WorkerCrashed on device 127\.0\.0\.1:\d+/emulator-555[46]", dead.message + dead.text)
    result.stdout.fnmatch_lines(["*ERROR test_crash.py::test_dies*"])
    for name in ("test_a", "test_b", "test_c"):
        assert cases[name].result is None and cases[name].props["artemis.outcome"] == "PASSED"
    # The dead worker's journal has no terminal record: it reads back as interrupted, never passed.
    runs = list_runs(Path(suite.path, ".artemis", "test_crash.py__test_dies"))
    assert runs and read_run(runs[0]).execution == "interrupted"
    # The controller renders its page and lists it in the index, with where the journal ends.
    page = (runs[0] / "report.html").read_text()
    assert 'data-outcome="ERROR"' in page and "without a terminal record" in page
    index = Path(suite.path, ".artemis", "index.html").read_text()
    assert '<tr data-outcome="ERROR"' in index and "without a terminal record" in index
    # Its testcase still carries what CI needs: outcome, device, artifacts path, the infra class.
    assert dead.props["artemis.outcome"] == "ERROR"
    assert re.fullmatch(r"127\.0\.0\.1:\d+/emulator-555[46]", dead.props["artemis.device"])
    assert f"WorkerCrashed on device {dead.props['artemis.device']}: " in dead.message  # the one it held
    assert Path(dead.props["artemis.artifacts"]) == runs[0].resolve()
    assert dead.props["artemis.infra"] == "harness/WorkerCrashed"


def test_a_worker_that_ran_out_of_tests_exits_after_its_own_session_while_others_still_run(suite):
    # xdist alone keeps every worker process until the last test is done, then ends them all at once.
    marks = suite.path / "marks"
    marks.mkdir()
    suite.makeconftest(suite.path.joinpath("conftest.py").read_text() + f'''
import atexit
import os
import time
from pathlib import Path

MARKS = Path({str(marks)!r})


def pytest_unconfigure(config):
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker:
        time.sleep(0.3)  # a lease hook releasing its device, say: the exit waits for it
        (MARKS / f"unconfigured-{{worker}}").touch()
        atexit.register((MARKS / f"exited-{{worker}}").touch)
''')
    suite.makepyfile(test_farm='''
        import os
        import time

        from conftest import MARKS

        def test_first_worker_runs_out_of_tests():
            pass

        def test_second_worker_sees_the_first_exit():
            me = os.environ["PYTEST_XDIST_WORKER"]
            for _ in range(600):
                exited = [p.name for p in MARKS.glob("exited-*") if p.name != f"exited-{me}"]
                if exited:
                    break
                time.sleep(0.1)
            assert exited, "the finished worker is still alive"
            other = exited[0].removeprefix("exited-")
            assert (MARKS / f"unconfigured-{other}").exists()
    ''')
    result, _ = run_junit(suite, "-n", "2", "--artemis-device=sim:2", subprocess=True)
    result.assert_outcomes(passed=2)


def test_pytest_timeout_budget_ends_blocked_not_a_crash(suite):
    suite.makepyfile(test_budget='''
        import pytest

        @pytest.mark.goal("Look forever [slow]", max_steps=500)
        @pytest.mark.verify("PASS: found it")
        def test_slow(artemis):
            pass

        def test_other():
            pass
    ''')
    result, cases = run_junit(suite, "--artemis-device=sim", "--timeout=5", subprocess=True)
    assert_words(result, blocked=1, passed=1)
    case = cases["test_slow"]
    assert case.result == "error" and "BLOCKED" in case.message and "time budget" in case.text
    assert case.props["artemis.execution"] == "finished"
    assert "Timeout" not in result.stdout.str()
    assert read_run(case.props["artemis.artifacts"]).execution == "finished"
