"""The end of the terminal report: UNCHECKED in the short summary, our words counted, the index path.

* The default short summary (``-r fE``) lists failures and errors only; UNCHECKED tests (xfailed to
  pytest) are added to it with their reasons, without also listing plain xfails the user did not ask
  for. The lines of artemis tests keep their reason at any width (``short_lines``).
* The final line counts BLOCKED and UNCHECKED as such (``1 failed, 2 passed, 1 blocked, 1 unchecked``)
  instead of hiding them among errors and xfails. The counts are moved only after every section that
  reads pytest's categories has been written.
* ``--lf`` reruns UNCHECKED tests: pytest's last-failed cache forgets xfailed tests, but an UNCHECKED
  test did not pass.
* The session ends with the path of the session's ``index.html``.
"""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path

import pytest

from .junit import report_word_of
from .short_lines import ShortLines

index_path_key = pytest.StashKey[Path]()
"""The session index written by this process (set by the reports plugin)."""

_MOVED = {"BLOCKED": ("error", "failed"), "UNCHECKED": ("xfailed",)}


def _is_unchecked(report: object) -> bool:
    return isinstance(report, pytest.TestReport) and report_word_of(report) == "UNCHECKED"


class TerminalSummary:
    """Registered as a plugin on the process that prints the terminal report."""

    def __init__(self, config: pytest.Config) -> None:
        self._config = config
        self._hidden: list[object] = []
        self._added_x = False
        self._lines: ShortLines | None = None

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        """Runs between pytest's own sections and its short summary: let the short summary show
        UNCHECKED tests (and only those among xfails, unless the user asked for ``-rx``)."""
        xfailed = terminalreporter.stats.get("xfailed", [])
        unchecked = [r for r in xfailed if _is_unchecked(r)]
        chars = terminalreporter.reportchars
        if unchecked and chars and not any(c in chars for c in "xaA"):
            self._hidden = [r for r in xfailed if not _is_unchecked(r)]
            terminalreporter.stats["xfailed"] = unchecked
            terminalreporter.reportchars = chars + "x"
            self._added_x = True
        self._lines = ShortLines.take(terminalreporter)

    @pytest.hookimpl(wrapper=True, tryfirst=True, specname="pytest_terminal_summary")
    def pytest_terminal_summary_outer(
        self, terminalreporter: pytest.TerminalReporter
    ) -> Generator[None, None, None]:
        """Outermost: after the short summary, restore what was hidden and count our words."""
        try:
            return (yield)
        finally:
            if self._lines is not None:
                self._lines.write(terminalreporter)
                self._lines = None
            stats = terminalreporter.stats
            if self._added_x:
                terminalreporter.reportchars = terminalreporter.reportchars.replace("x", "", 1)
                stats["xfailed"] = stats.get("xfailed", []) + self._hidden
                self._hidden, self._added_x = [], False
            if _count_words(stats):
                # The final line lists only the categories known when its colour was last computed
                # (recomputed by pytest only after the last item: not after -x stopped the session).
                terminalreporter._set_main_color()
            index = self._config.stash.get(index_path_key, None)
            if index is not None:
                terminalreporter.write_sep("-", f"artemis report: {index}")

    @pytest.hookimpl(trylast=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """After the last-failed plugin forgot an xfailed test: remember an UNCHECKED one."""
        if report.when != "call" or not _is_unchecked(report):
            return
        lastfailed = self._config.pluginmanager.get_plugin("lfplugin")
        if lastfailed is not None:
            lastfailed.lastfailed[report.nodeid] = True


def _count_words(stats: dict[str, list[object]]) -> bool:
    """Move BLOCKED and UNCHECKED reports into categories of their own for the final line.

    An emptied ``error``/``failed`` category is kept (empty lists are not counted) so the line stays
    red when something did not pass. True when anything moved.
    """
    moved = False
    for word, categories in _MOVED.items():
        for category in categories:
            reports = stats.get(category, [])
            mine = [r for r in reports if isinstance(r, pytest.TestReport) and report_word_of(r) == word]
            if mine:
                stats[category] = [r for r in reports if r not in mine]
                stats.setdefault(word.lower(), []).extend(mine)
                moved = True
    return moved
