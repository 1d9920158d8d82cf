"""The relay (``relay_server.py``) as a process answering from a recorded transcript, for the tests that
replay real-model sessions."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

HERE = Path(__file__).resolve().parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def replaying(transcript: Path, folder: Path) -> Iterator[str]:
    """The relay answering from ``transcript`` (writing what it is asked to ``folder``), listening: its
    OpenAI-compatible base URL."""
    port = free_port()
    server = subprocess.Popen([sys.executable, str(HERE / "relay_server.py"), str(folder), str(port),
                               str(transcript)], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 10
        while True:
            with socket.socket() as sock:
                if sock.connect_ex(("127.0.0.1", port)) == 0:
                    break
            if time.monotonic() > deadline:
                raise TimeoutError(f"the relay on port {port} never listened")
            time.sleep(0.05)
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        server.kill()
        server.wait()
