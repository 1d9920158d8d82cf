"""Recorded real-model sessions (``README.md``): each suite runs again on the simulated phone, every model
request answered through a local relay with the reply the model gave at the same place of its recording;
each test must end in its honest outcome (``honest.json``)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pytest_artemis.junit import read_properties

HERE = Path(__file__).parent
SESSIONS = sorted(p for p in (HERE / "sessions").iterdir() if (p / "honest.json").exists())


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _listening(port: int, deadline: float) -> None:
    while time.monotonic() < deadline:
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise TimeoutError(f"the relay on port {port} never listened")


def _start(session: Path, work: Path) -> tuple[subprocess.Popen[bytes], subprocess.Popen[bytes]]:
    """The relay answering from the session's transcript, and the session's suite run against it."""
    work.mkdir(parents=True)
    for suite_file in [*session.glob("*.py"), *session.glob("*.ini")]:
        shutil.copy(suite_file, work)
    (work / "relay").mkdir()
    port = _free_port()
    relay = subprocess.Popen([sys.executable, str(HERE / "relay_server.py"), str(work / "relay"), str(port),
                              str(session / "transcript")],
                             stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    _listening(port, time.monotonic() + 10)
    env = {**os.environ, "RELAY_BASE": f"http://127.0.0.1:{port}/v1", "LITELLM_OFFLINE_MODE": "true"}
    suite = subprocess.Popen([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                              "--artemis-device=sim", "--junitxml=junit.xml"], cwd=work, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return relay, suite


@pytest.mark.slow
def test_every_recorded_session_ends_each_test_in_its_honest_outcome(tmp_path):
    running = {s.name: (s, *_start(s, tmp_path / s.name)) for s in SESSIONS}  # side by side: 2 cores
    wrong: dict[str, object] = {}
    try:
        for name, (session, _, suite) in running.items():
            out, _ = suite.communicate(timeout=900)
            outcomes = {nodeid.rpartition("::")[2]: props["artemis.outcome"]
                        for nodeid, props in read_properties(tmp_path / name / "junit.xml").items()}
            honest = json.loads((session / "honest.json").read_text())
            if outcomes != honest:
                wrong[name] = (outcomes, honest, out.decode(errors="replace")[-3000:])
            unmatched = tmp_path / name / "relay" / "unmatched.log"
            if unmatched.exists():  # a request the recording has no reply for is a change the model never saw
                print(f"{name}: {unmatched.read_text()}")
    finally:
        for _, relay, suite in running.values():
            for process in (suite, relay):
                process.kill()
                process.wait()
    assert not wrong, wrong
