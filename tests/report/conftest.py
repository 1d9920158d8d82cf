"""Fixtures for report tests: one real session on the simulated phone, shared by every xdist worker."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from filelock import FileLock
from sim_session import SimSession, build_session


@pytest.fixture(scope="session")
def sim_session(tmp_path_factory: pytest.TempPathFactory) -> SimSession:
    """The report suite's real runs, built once per pytest session (the first worker builds, the rest read).

    Each test must treat the artifacts as read-only, except through :func:`session_copy`.
    """
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return build_session(tmp_path_factory.mktemp("sim-session"))
    # Under xdist every worker's basetemp sits in the session's own directory: share the build there.
    shared = tmp_path_factory.getbasetemp().parent / "artemis-report-sim-session"
    with FileLock(f"{shared}.lock"):
        ready = shared / "ready"
        if not ready.exists():
            if shared.exists():
                shutil.rmtree(shared)
            session = build_session(shared)
            ready.write_text("ok")
            return session
    return SimSession.load(shared)


@pytest.fixture
def session_copy(sim_session: SimSession, tmp_path: Path) -> SimSession:
    """A private copy of the real session's artifacts, for tests that re-render or damage them."""
    return sim_session.copy_to(tmp_path / "session")
