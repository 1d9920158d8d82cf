"""``--artemis-order=longest-first``: the last session's durations order the next one, also under xdist."""

from __future__ import annotations

import re

import pytest

TESTS = '''
import time

def test_short():
    time.sleep(0.05)

def test_long():
    time.sleep(0.6)

def test_medium():
    time.sleep(0.3)
'''
ORDER = ("-p", "cacheprovider", "--artemis-order=longest-first")  # pytester's runs keep the cache on


def ran(result: pytest.RunResult) -> list[str]:
    """The tests in the order ``-v`` reported them."""
    return re.findall(r"::(test_\w+) PASSED", result.stdout.str())


@pytest.mark.slow
def test_the_next_session_runs_the_longest_tests_first_and_new_ones_before_them(pytester: pytest.Pytester):
    pytester.makepyfile(test_lengths=TESTS)
    first = pytester.runpytest_subprocess("-v", *ORDER)
    assert ran(first) == ["test_short", "test_long", "test_medium"]  # nothing timed yet: pytest's order
    assert ran(pytester.runpytest_subprocess("-v", *ORDER)) == ["test_long", "test_medium", "test_short"]
    pytester.makepyfile(test_lengths=TESTS + "\n\ndef test_new():\n    pass\n")
    assert ran(pytester.runpytest_subprocess("-v", *ORDER))[0] == "test_new"


@pytest.mark.slow
def test_without_the_option_the_order_is_pytests_and_nothing_is_kept(pytester: pytest.Pytester):
    pytester.makepyfile(test_lengths=TESTS)
    for _ in range(2):
        assert ran(pytester.runpytest_subprocess("-v", "-p", "cacheprovider")) == \
            ["test_short", "test_long", "test_medium"]
    assert not list(pytester.path.rglob(".pytest_cache/v/artemis/durations"))


@pytest.mark.slow  # two xdist workers: the end-to-end matrix CI runs with -m slow
def test_xdist_workers_agree_on_the_order_and_the_controller_keeps_the_durations(pytester: pytest.Pytester):
    pytester.makepyfile(test_lengths=TESTS)
    first = pytester.runpytest_subprocess("-n", "2", *ORDER)
    first.assert_outcomes(passed=3)
    durations = pytester.path / ".pytest_cache" / "v" / "artemis" / "durations"
    assert durations.exists()
    second = pytester.runpytest_subprocess("-n", "2", "-v", *ORDER)
    second.assert_outcomes(passed=3)  # xdist refuses workers that collected different orders
    assert "Different tests were collected" not in second.stdout.str() + second.stderr.str()
