"""``-n 1`` vs ``-n 4`` on ``--artemis-device=sim:4`` for 8 generated tests: wall times and speed-up.

    python benchmarks/bench_xdist.py [--tests 8] [--turns 6] [--latency 0.5] [--runs 1]

Writes a temporary project: a conftest overriding ``artemis_model`` with a ``ScriptedModel`` whose every
reply sleeps a fixed latency (``asyncio.sleep``), and N tests marked ``goal`` + ``verify`` whose operator
scrolls the Settings list for ``--turns`` turns. Each setting runs as a subprocess
``python -m pytest -p no:cacheprovider -q -n K --artemis-device=sim:4`` (runs alternate -n 1 / -n 4); the
JUnit file gives the summed test time. The same sessions on N trivial tests (same conftest and device
option) give the fixed cost of a session (interpreter, plugin and worker start-up, the sim).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
import xml.etree.ElementTree as ET
from pathlib import Path

TARGET = 3.6

CONFTEST = '''
import asyncio
import os

import pytest

from pytest_artemis.agents.schemas import CheckReport, ModelVerdict, OperatorDecision, PlanReply
from pytest_artemis.contracts import Scroll
from pytest_artemis.models import ModelSet
from pytest_artemis.testing import ScriptedModel

LATENCY = float(os.environ["BENCH_LATENCY"])
TURNS = int(os.environ["BENCH_TURNS"])


async def respond(request):
    await asyncio.sleep(LATENCY)
    if request.role == "planner":
        return PlanReply(plan="- [ ] Review the settings list\\n")
    if request.role == "operator":
        if request.turn >= TURNS:
            return OperatorDecision(decision="reviewed", actions=[Scroll(direction="up")],
                                    plan=request.plan.replace("- [ ]", "- [x]").replace("- [/]", "- [x]"))
        direction = "down" if request.turn % 2 else "up"
        return OperatorDecision(decision="scroll", actions=[Scroll(direction=direction)])
    return CheckReport(verdicts=[ModelVerdict(item=item.text, status="passed",
                                              evidence="the step screenshots show the list scrolled")
                                 for item in request.checks])


@pytest.fixture
def artemis_model():
    return ModelSet.uniform(ScriptedModel(respond))
'''

TEST = '''
@pytest.mark.goal("Review the Settings list", app="com.android.settings")
@pytest.mark.verify("The settings list scrolled")
def test_review_{n}(artemis):
    assert artemis.outcome.task.status == "completed"
'''


def make_project(root: Path, tests: int) -> None:
    """The benchmark project (``bench/``), and beside it (``empty/``) the same number of trivial tests."""
    for project, test in ((root / "bench", TEST), (root / "empty", "\ndef test_empty_{n}():\n    pass\n")):
        project.mkdir(exist_ok=True)
        (project / "pytest.ini").write_text("[pytest]\n")
        (project / "conftest.py").write_text(CONFTEST)
        body = "import pytest\n" + "".join(test.format(n=n) for n in range(tests))
        (project / "test_bench.py").write_text(textwrap.dedent(body))


def run_pytest(root: Path, workers: int, latency: float, turns: int, n: int) -> tuple[float, float, str]:
    """(wall s, summed test time s, last summary line) of one subprocess session."""
    junit = root / f"junit-{workers}-{n}.xml"
    env = {**os.environ, "BENCH_LATENCY": str(latency), "BENCH_TURNS": str(turns),
           "ADBUTILS_ADB_PATH": "/bin/true", "LITELLM_OFFLINE_MODE": "true"}
    argv = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-n", str(workers),
            "--artemis-device=sim:4", f"--artemis-artifacts={root / f'artifacts-{workers}-{n}'}",
            f"--junitxml={junit}"]
    started = time.perf_counter()
    proc = subprocess.run(argv, cwd=root, env=env, capture_output=True, text=True, timeout=600)
    wall = time.perf_counter() - started
    summary = (proc.stdout.strip().splitlines() or ["(no output)"])[-1]
    if proc.returncode != 0:
        print(proc.stdout[-3000:], proc.stderr[-2000:], sep="\n")
        raise SystemExit(f"pytest -n {workers} failed ({proc.returncode}): {summary}")
    summed = sum(float(tc.get("time", 0)) for tc in ET.parse(junit).getroot().iter("testcase"))
    return wall, summed, summary


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tests", type=int, default=8, help="generated tests (default 8)")
    parser.add_argument("--turns", type=int, default=6, help="operator turns per test (default 6)")
    parser.add_argument("--latency", type=float, default=0.5, help="model reply latency s (default 0.5)")
    parser.add_argument("--runs", type=int, default=1, help="sessions per setting; medians (default 1)")
    args = parser.parse_args()
    rows: dict[int, list[tuple[float, float, str]]] = {1: [], 4: []}
    empty: dict[int, list[tuple[float, float, str]]] = {1: [], 4: []}
    with tempfile.TemporaryDirectory(prefix="artemis-bench-xdist-") as tmp:
        root = Path(tmp)
        make_project(root, args.tests)
        for n in range(args.runs):
            for workers in (1, 4):
                rows[workers].append(run_pytest(root / "bench", workers, args.latency, args.turns, n))
                empty[workers].append(run_pytest(root / "empty", workers, args.latency, args.turns, n))
    print(f"{args.tests} tests x {args.turns} operator turns, model latency {args.latency:g} s/call, "
          f"--artemis-device=sim:4, {os.cpu_count()} CPU cores, {args.runs} session(s) per setting")
    print(f"{'project':<8} {'-n':>3} {'wall s':>7} {'sum of test times s':>19}  summary")
    for name, table in (("bench", rows), ("empty", empty)):
        for workers in (1, 4):
            for wall, summed, summary in table[workers]:
                print(f"{name:<8} {workers:>3} {wall:7.2f} {summed:19.2f}  {summary}")
    one, four = (statistics.median(r[0] for r in rows[k]) for k in (1, 4))
    fixed1, fixed4 = (statistics.median(r[0] for r in empty[k]) for k in (1, 4))
    inflation = statistics.median(r[1] for r in rows[4]) / statistics.median(r[1] for r in rows[1])
    speedup = one / four
    print(f"session fixed cost (empty project): -n 1 {fixed1:.2f} s, -n 4 {fixed4:.2f} s; "
          f"per-test time under -n 4 vs -n 1: x{inflation:.2f}")
    print(f"speed-up without the fixed cost: {(one - fixed1) / (four - fixed4):.2f}x")
    print(f"speed-up -n 4 vs -n 1: {speedup:.2f}x (target >= {TARGET}x): "
          f"{'met' if speedup >= TARGET else 'MISSED'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
