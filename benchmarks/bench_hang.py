"""A model provider that accepts connections and never answers: time to the first ERROR, and for 20 tests.

    python benchmarks/bench_hang.py [--tests 20] [--cap 900]

A loopback server accepts every connection, reads the request and never replies (the way a provider stalls
behind a proxy). A temporary project of ``--tests`` goal-marked tests runs against it on the simulated
phone with default settings (``--artemis-model=openai/… --artemis-api-base=http://127.0.0.1:PORT/v1``) in a
user's environment (``userenv.py``), ``-v`` output streamed and time-stamped. Reported: seconds to the first
test reported ERROR, and the whole session's wall time. A session still running at ``--cap`` seconds is
stopped; its time is then projected from the tests finished so far, and labelled so.

Targets (the CI issue's fail-fast): the first ERROR within a minute; after it, the session stops calling
the provider, so the whole session costs at most a few hung tests (<= 4 x the first ERROR).
"""

from __future__ import annotations

import argparse
import contextlib
import re
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from userenv import describe, env, pytest_argv

FIRST_TARGET_S, SESSION_TARGET_X = 60.0, 4.0
_RESULT = re.compile(r"::(test_\w+) (PASSED|FAILED|ERROR|BLOCKED|UNCHECKED|XFAIL|SKIPPED)")

TEST = '''
@pytest.mark.goal("Open the Settings app", app="com.android.settings")
@pytest.mark.verify("Settings is shown")
def test_hang_{n}(artemis):
    pass
'''


@contextlib.contextmanager
def hanging_server() -> Iterator[int]:
    """A TCP port whose connections are accepted, read, and never answered until the block ends."""
    listener = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            held.append(conn)  # kept open and unanswered: the client waits for its own timeout

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1]
    finally:
        stop.set()
        listener.close()
        for conn in held:
            conn.close()


def run_session(root: Path, port: int, cap: float) -> tuple[float | None, float, int, bool, str]:
    """(first ERROR s, wall s, tests reported, capped?, last line) of one streamed session."""
    argv = pytest_argv("-v", "--artemis-device=sim", "--artemis-model=openai/hanging-provider",
                       f"--artemis-api-base=http://127.0.0.1:{port}/v1", "--artemis-api-key=sk-bench-hang",
                       f"--artemis-artifacts={root / 'artifacts'}")
    started = time.perf_counter()
    first: float | None = None
    reported, last = 0, ""
    proc = subprocess.Popen(argv, cwd=root, env=env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    timer = threading.Timer(cap, proc.kill)
    timer.start()
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            found = _RESULT.search(line)
            if found:
                reported += 1
                if first is None and found.group(2) == "ERROR":
                    first = time.perf_counter() - started
            if line.strip():
                last = line.strip()
        proc.wait()
    finally:
        timer.cancel()
    wall = time.perf_counter() - started
    return first, wall, reported, wall >= cap, last


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tests", type=int, default=20, help="goal-marked tests (default 20)")
    parser.add_argument("--cap", type=float, default=900.0, help="stop the session after s (default 900)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="artemis-bench-hang-") as tmp, hanging_server() as port:
        root = Path(tmp)
        (root / "pytest.ini").write_text("[pytest]\n")
        (root / "test_hang.py").write_text("import pytest\n" + "".join(TEST.format(n=n)
                                                                      for n in range(args.tests)))
        header = describe()
        first, wall, reported, capped, last = run_session(root, port, args.cap)
    print(f"{args.tests} goal-marked tests, a provider that never answers, default settings, "
          "--artemis-device=sim")
    print(header)
    print(f"last line: {last}")
    session = wall if not capped else (wall / max(reported, 1) * args.tests)
    label = "20-test session" if args.tests == 20 else f"{args.tests}-test session"
    if capped:
        label += f" (stopped at {args.cap:g} s after {reported} tests; projected)"
    print(f"{'measure':<62} {'value':>9} {'target':>10}  verdict")
    if first is None:
        print(f"{'time to the first ERROR':<62} {'> ' + format(wall, '.0f') + 's':>9} {'<= 60 s':>10}  MISSED"
              f"  (no test finished within the {args.cap:g} s cap)")
        return 0
    print(f"{'time to the first ERROR':<62} {first:8.1f}s {'<= ' + format(FIRST_TARGET_S, 'g') + ' s':>10}  "
          f"{'met' if first <= FIRST_TARGET_S else 'MISSED'}")
    ratio = session / first
    print(f"{label:<62} {session:8.1f}s")
    print(f"{'session / first ERROR':<62} {ratio:8.2f}x {'<= ' + format(SESSION_TARGET_X, 'g') + 'x':>10}  "
          f"{'met' if ratio <= SESSION_TARGET_X and not capped else 'MISSED'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
