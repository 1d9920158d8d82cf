"""Static HTML run reports: ``report.html`` per run and ``index.html`` per session, offline and local."""

from pytest_artemis.contracts import OUTCOME_WORDS, OutcomeWord, outcome_word

from .index_page import render_index
from .run_page import REPORT_FILE, render_run_report
from .words import IndexEntry

__all__ = [
    "OUTCOME_WORDS",
    "REPORT_FILE",
    "IndexEntry",
    "OutcomeWord",
    "outcome_word",
    "render_index",
    "render_run_report",
]
