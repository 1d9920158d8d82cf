"""``--artemis-order=longest-first``: the session's tests ordered by their last duration, longest first.

pytest-xdist hands tests out in collection order, each worker one test ahead, so a long test collected
last can keep one device busy while the others sit idle. Started first, long tests leave the short ones
to fill the gaps (the longest-processing-time rule). With the option on, each test's duration (setup,
call and teardown) is kept in pytest's cache under ``artemis/durations`` at the end of every session
that ran it — by the controller under xdist, from its workers' reports; the first such session has
nothing to order by yet. Every process of a session reads the same cache
when it collects, so xdist's workers agree on the order. Tests without a duration (new ones) go first;
equal ones keep pytest's order. With the cache plugin off (``-p no:cacheprovider``) durations are
neither read nor written and the order stays pytest's.
"""

from __future__ import annotations

import math

import pytest

from .options import options_key

DURATIONS_KEY = "artemis/durations"


def _durations(config: pytest.Config) -> dict[str, float]:
    cache = getattr(config, "cache", None)
    stored = cache.get(DURATIONS_KEY, {}) if cache is not None else {}
    if not isinstance(stored, dict):
        return {}
    return {k: float(v) for k, v in stored.items() if isinstance(k, str) and isinstance(v, (int, float))}


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Longest first by the cached durations, when ``--artemis-order=longest-first``."""
    if config.stash[options_key].order != "longest-first":
        return
    durations = _durations(config)
    items.sort(key=lambda item: -durations.get(item.nodeid, math.inf))


class DurationKeeper:
    """Sums each test's phase durations from the reports this process sees; keeps them in pytest's cache
    at the session's end (the controller's under xdist: the workers' reports reach it)."""

    def __init__(self, config: pytest.Config) -> None:
        self._config = config
        self._seen: dict[str, float] = {}

    @classmethod
    def register(cls, config: pytest.Config) -> None:
        """Keep durations in this process when ordering by them and not an xdist worker."""
        if config.stash[options_key].order == "longest-first" and not hasattr(config, "workerinput"):
            config.pluginmanager.register(cls(config), "artemis.durations")

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self._seen[report.nodeid] = self._seen.get(report.nodeid, 0.0) + report.duration

    def pytest_sessionfinish(self) -> None:
        cache = getattr(self._config, "cache", None)
        if cache is None or not self._seen:
            return
        kept = {nodeid: round(seconds, 3) for nodeid, seconds in self._seen.items()}
        cache.set(DURATIONS_KEY, {**_durations(self._config), **kept})
