"""Recorded real-model sessions (``README.md``): each suite runs again on the simulated phone, every model
request answered through a local relay with the reply the model gave at the same place of its recording;
each test must end in its honest outcome (``honest.json``)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from contextlib import ExitStack
from pathlib import Path

import pytest
from relay_process import HERE, replaying

from pytest_artemis.junit import read_properties

SESSIONS = sorted(p for p in (HERE / "sessions").iterdir() if (p / "honest.json").exists())


def _start(session: Path, work: Path, relays: ExitStack) -> subprocess.Popen[bytes]:
    """The session's suite, run against a relay answering from its transcript."""
    work.mkdir(parents=True)
    for suite_file in [*session.glob("*.py"), *session.glob("*.ini")]:
        shutil.copy(suite_file, work)
    (work / "relay").mkdir()
    api_base = relays.enter_context(replaying(session / "transcript", work / "relay"))
    env = {**os.environ, "RELAY_BASE": api_base, "LITELLM_OFFLINE_MODE": "true"}
    return subprocess.Popen([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                             "--artemis-device=sim", "--junitxml=junit.xml"], cwd=work, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


@pytest.mark.slow
def test_every_recorded_session_ends_each_test_in_its_honest_outcome(tmp_path):
    wrong: dict[str, object] = {}
    with ExitStack() as relays:
        running = {s.name: (s, _start(s, tmp_path / s.name, relays)) for s in SESSIONS}  # side by side
        try:
            for name, (session, suite) in running.items():
                out, _ = suite.communicate(timeout=900)
                outcomes = {nodeid.rpartition("::")[2]: props["artemis.outcome"]
                            for nodeid, props in read_properties(tmp_path / name / "junit.xml").items()}
                honest = json.loads((session / "honest.json").read_text())
                if outcomes != honest:
                    wrong[name] = (outcomes, honest, out.decode(errors="replace")[-3000:])
                unmatched = tmp_path / name / "relay" / "unmatched.log"
                if unmatched.exists():  # a request the recording has no reply for: a change it never saw
                    print(f"{name}: {unmatched.read_text()}")
        finally:
            for _, suite in running.values():
                suite.kill()
                suite.wait()
    assert not wrong, wrong
