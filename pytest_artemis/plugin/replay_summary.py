"""The session's replay section in the terminal: how many runs replayed, fell back, stopped or met stale
recordings (read from each report's ``artemis.replay*`` properties, so it works under xdist too), and
the recordings of tests that no longer exist, when the session saw enough to say so (``orphans``)."""

from __future__ import annotations

from collections import Counter

import pytest

from .options import options_key
from .orphans import CollectionView

_ORDER = ("replayed", "fell-back", "stopped", "live")


class ReplaySummary:
    """Registered on the process that prints the terminal report."""

    def __init__(self, config: pytest.Config) -> None:
        self._config = config
        self._runs: dict[str, tuple[str, str]] = {}
        """Node id → (status, summary line) of its last run with replay on."""
        self._view = CollectionView.of(config)

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.failed:
            self._view.collection_failed()

    def pytest_deselected(self, items: list[pytest.Item]) -> None:
        if items:
            self._view.deselected()

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self._view.finished(session)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        props = {str(entry[0]): str(entry[1]) for entry in report.user_properties}
        if "artemis.replay_status" in props:
            self._runs[report.nodeid] = (props["artemis.replay_status"], props.get("artemis.replay", ""))

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        if not self._runs:
            return
        from pytest_artemis.store.recording import RecordingStore

        counts = Counter(status.split(",")[0] for status, _ in self._runs.values())
        stale = [node for node, (status, _) in self._runs.items() if status.endswith(",stale")]
        orphans = self._view.orphans(RecordingStore(self._config.stash[options_key].recordings).recorded())
        parts = [f"{counts[name]} {name}" for name in _ORDER if counts[name]]
        parts += [f"{len(stale)} with stale recordings"] if stale else []
        parts += [f"{len(orphans)} orphaned recording{'s' * (len(orphans) != 1)}"] if orphans else []
        terminalreporter.write_sep("-", "artemis replay: " + ", ".join(parts))
        for node, (status, line) in self._runs.items():
            if status != "replayed":
                terminalreporter.write_line(f"{node}: {line}")
        for orphan in orphans:
            terminalreporter.write_line(f"{orphan.path}: records {orphan.node_id}, which this session did "
                                        "not collect (deleted or renamed); delete the file (docs/replay.md)")
