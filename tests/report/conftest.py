"""Fixtures for report tests: a realistic run journal written through the real RunJournal."""

from __future__ import annotations

from pathlib import Path

import pytest
from report_fixtures import build_run


@pytest.fixture
def alarm_run(tmp_path: Path) -> Path:
    """A closed five-step alarm run (outcome UNCHECKED) under ``tmp_path/artifacts``."""
    return build_run(tmp_path / "artifacts")
