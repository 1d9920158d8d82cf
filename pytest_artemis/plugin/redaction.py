"""Redaction of what pytest prints and writes: no report (a test's failure, a collection error, a timeout
traceback, captured sections) carries a secret — the API key or a secret-looking environment value."""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING

import pytest

from .options import options_key

if TYPE_CHECKING:
    from pytest_artemis.store import Redactor

redactor_key = pytest.StashKey["Redactor"]()


def session_redactor(config: pytest.Config) -> Redactor:
    """The session's redactor: secret-looking environment values and the configured API key."""
    if redactor_key not in config.stash:
        from pytest_artemis.store.redact import Redactor

        redactor = Redactor.from_environment()
        options = config.stash.get(options_key, None)
        if options is not None:
            redactor.add(options.api_key)
        config.stash[redactor_key] = redactor
    return config.stash[redactor_key]


def redact_report(config: pytest.Config, report: pytest.TestReport | pytest.CollectReport) -> None:
    """Replace a failed report's longrepr and sections by their redacted text when they hold a secret.

    Only reports that carry text are read (a passing test costs nothing); the rich longrepr is kept
    unless a secret is in it, then it becomes its redacted plain text.
    """
    if report.longrepr is None and not report.sections:
        return
    redactor = session_redactor(config)
    if not len(redactor):
        return
    if report.longrepr is not None:
        text = str(report.longrepr)
        clean = redactor.redact(text)
        if clean != text:
            report.longrepr = clean
    report.sections = [(title, redactor.redact(content)) for title, content in report.sections]


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    redact_report(item.config, report)
    return report


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_make_collect_report(
    collector: pytest.Collector,
) -> Generator[None, pytest.CollectReport, pytest.CollectReport]:
    report = yield
    redact_report(collector.config, report)
    return report
