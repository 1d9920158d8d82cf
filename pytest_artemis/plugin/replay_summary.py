"""The session's replay section in the terminal: how many runs replayed, fell back, stopped or met stale
recordings (read from each report's ``artemis.replay*`` properties, so it works under xdist too)."""

from __future__ import annotations

from collections import Counter

import pytest

_ORDER = ("replayed", "fell-back", "stopped", "live")


class ReplaySummary:
    """Registered on the process that prints the terminal report."""

    def __init__(self) -> None:
        self._runs: dict[str, tuple[str, str]] = {}
        """Node id → (status, summary line) of its last run with replay on."""

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        props = {str(entry[0]): str(entry[1]) for entry in report.user_properties}
        if "artemis.replay_status" in props:
            self._runs[report.nodeid] = (props["artemis.replay_status"], props.get("artemis.replay", ""))

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        if not self._runs:
            return
        counts = Counter(status.split(",")[0] for status, _ in self._runs.values())
        stale = [node for node, (status, _) in self._runs.items() if status.endswith(",stale")]
        parts = [f"{counts[name]} {name}" for name in _ORDER if counts[name]]
        parts += [f"{len(stale)} with stale recordings"] if stale else []
        terminalreporter.write_sep("-", "artemis replay: " + ", ".join(parts))
        for node, (status, line) in self._runs.items():
            if status != "replayed":
                terminalreporter.write_line(f"{node}: {line}")
