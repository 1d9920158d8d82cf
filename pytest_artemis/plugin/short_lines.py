"""The short-summary lines of artemis tests: the reason stays readable at any terminal width.

pytest cuts a line to the terminal's width (outside CI and below ``-vv``), so at 80 columns a long node id
leaves room for ``- task blo...``. For an artemis test (a report carrying our word) the line is written
here instead: whole when it fits, else the word and node id on one line and the reason wrapped under it.
Plain tests keep pytest's own lines, which are written first.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass, field

import pytest
from _pytest.compat import running_on_ci
from _pytest.terminal import _get_node_id_with_markup

from .junit import report_word_of

_CATEGORIES = (("failed", "fF", {"red": True}), ("error", "E", {"red": True}),
               ("xfailed", "x", {"yellow": True}))
"""The categories whose artemis lines are taken over: pytest's own order, its ``-r`` letters, colour."""
_SHOWN_BY = {"f": "failed", "F": "failed", "E": "error", "x": "xfailed", "X": "xpassed", "s": "skipped",
             "S": "skipped", "p": "passed", "P": "passed"}
_REASON_LINES = 3
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _ours(report: object) -> bool:
    return isinstance(report, pytest.TestReport) and report_word_of(report) is not None


def _message(report: pytest.TestReport) -> str:
    if report.outcome == "skipped":  # an UNCHECKED test, xfailed: pytest prints its reason whole
        return str(getattr(report, "wasxfail", ""))
    crash = getattr(report.longrepr, "reprcrash", None)
    message = crash.message if crash is not None else str(report.longrepr or "")
    return message.split("\n", 1)[0]


@dataclass
class ShortLines:
    """The artemis reports taken out of pytest's short summary, written after it."""

    taken: list[tuple[pytest.TestReport, dict[str, bool], str]] = field(default_factory=list)
    """Each report, the colour of its word and the category it was taken from."""

    @classmethod
    def take(cls, reporter: pytest.TerminalReporter) -> ShortLines | None:
        """Take the artemis reports out of the categories the short summary shows (None: nothing to do)."""
        chars = reporter.reportchars
        lines = cls()
        for category, letters, markup in _CATEGORIES:
            if not any(c in chars for c in letters):
                continue
            reports = reporter.stats.get(category, [])
            lines.taken += [(r, markup, category) for r in reports if _ours(r)]
            reporter.stats[category] = [r for r in reports if not _ours(r)]
        return lines if lines.taken else None

    def write(self, reporter: pytest.TerminalReporter) -> None:
        """Write the taken lines (with the section's header when pytest wrote none), then put the reports
        back where pytest's categories keep them."""
        if not any(reporter.stats.get(_SHOWN_BY[c]) for c in reporter.reportchars if c in _SHOWN_BY):
            reporter.write_sep("=", "short test summary info", cyan=True, bold=True)
        config = reporter.config
        whole = (running_on_ci() or config.get_verbosity() >= 2) and not config.option.force_short_summary
        width = reporter._tw.fullwidth
        for report, markup, _ in self.taken:
            for line in self._lines(reporter, report, markup, whole, width):
                reporter.write_line(line)
        for report, _, category in self.taken:
            reporter.stats.setdefault(category, []).append(report)

    @staticmethod
    def _lines(reporter: pytest.TerminalReporter, report: pytest.TestReport, markup: dict[str, bool],
               whole: bool, width: int) -> list[str]:
        word = report_word_of(report) or report.outcome.upper()
        if report.outcome == "failed" and report.when != "call" and word == "FAILED":
            word = "ERROR"
        node = _get_node_id_with_markup(reporter._tw, reporter.config, report)  # pytest's own, relative
        coloured = f"{reporter._tw.markup(word, bold=True, **markup)} {node}"
        head = _ANSI.sub("", coloured)
        message = _message(report)
        if not message:
            return [coloured]
        if whole or report.outcome == "skipped" or len(head) + 3 + len(message) <= width:
            return [f"{coloured} - {message}"]
        wrapped = textwrap.wrap(message, width - 5, max_lines=_REASON_LINES, placeholder=" ...")
        return [coloured, *(f"  - {wrapped[0]}",), *(f"    {line}" for line in wrapped[1:])]
