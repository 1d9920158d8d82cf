"""``-n 1`` vs ``-n 2`` vs ``-n 4`` with a model that answers after a realistic 1-3 s: speed-up against 0.9·N.

    python benchmarks/bench_xdist.py [--tests 8] [--turns 2] [--min-latency 1] [--max-latency 3] [--runs 1]
                                     [--dist load,worksteal,load+longest-first]

Writes a temporary project: a conftest overriding ``artemis_model`` with a ``ScriptedModel`` whose every
reply sleeps 1-3 s (drawn from a hash of the test, the role and the turn, so every setting waits the same
model time per test), and N tests marked ``goal`` + ``verify`` whose operator sets a new brightness level
every turn on the simulated phone. Each setting runs as a subprocess on ``--artemis-device=sim:4`` in a
user's environment (``userenv.py``: the dev-only plugins off; the loaded ones are printed), settings
alternating within each round. The same sessions on N trivial tests give a session's fixed cost. Each
test records its xdist worker, so the busiest worker's summed test time shows what the split of whole
tests over workers allows at best, apart from any session cost. Every session has its own ``--basetemp``,
so none pays for deleting another process's pytest temp dirs. ``-n 2`` and ``-n 4`` run once per xdist
``--dist`` mode given (default ``load``, xdist's own default and the headline, ``worksteal``, and
``load+longest-first``: ``load`` with ``--artemis-order=longest-first``, ordered by the durations the
``-n 1`` session of the same round kept in the project's pytest cache); the trivial sessions use ``load``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
import textwrap
import time
import xml.etree.ElementTree as ET
from pathlib import Path

from userenv import describe, env, pytest_argv

WORKERS = (1, 2, 4)
TARGET_SHARE = 0.9
HEADLINE_DIST = "load"  # what `-n N` does without `--dist`

CONFTEST = '''
import asyncio
import hashlib
import os

import pytest

from pytest_artemis.agents.schemas import OperatorDecision, PlanReply
from pytest_artemis.contracts import Tap
from pytest_artemis.models import ModelSet
from pytest_artemis.testing import HonestChecker, ScriptedModel, on_screen

CHECKER = HonestChecker(goal=on_screen("Brightness level"))

LOW, HIGH = float(os.environ["BENCH_MIN_LATENCY"]), float(os.environ["BENCH_MAX_LATENCY"])
TURNS = int(os.environ["BENCH_TURNS"])


def latency(request):
    key = f"{os.environ.get('PYTEST_CURRENT_TEST', '')}|{request.role}|{request.turn}|{len(request.history)}"
    fraction = int.from_bytes(hashlib.sha256(key.encode()).digest()[:4], "big") / 2**32
    return LOW + (HIGH - LOW) * fraction


def operate(request):
    screen = request.screen
    slider = screen.find(resource_id="seekbar")
    if slider is None:
        return OperatorDecision(decision="open Display", actions=[Tap(element=screen.find("Display").index)])
    b = slider.bounds
    x = b.left + round((b.right - b.left) * (0.1 + 0.8 * ((request.turn * 0.6180339887) % 1)))
    plan = request.plan.replace("- [ ]", "- [x]") if request.turn >= TURNS else None
    return OperatorDecision(decision="new brightness", actions=[Tap(x=x, y=(b.top + b.bottom) // 2)],
                            plan=plan)


async def respond(request):
    await asyncio.sleep(latency(request))
    if request.role == "planner":
        return PlanReply(plan="- [ ] Try brightness levels\\n")
    if request.role == "operator":
        return operate(request)
    return CHECKER(request)  # every verdict cites a recorded screen, as a real checker's must


@pytest.fixture
def artemis_model():
    return ModelSet.uniform(ScriptedModel(respond))


@pytest.fixture(autouse=True)
def _worker(record_property):
    record_property("bench.worker", os.environ.get("PYTEST_XDIST_WORKER", "main"))
'''

TEST = '''
@pytest.mark.goal("Try brightness levels on the Display page", app="com.android.settings")
@pytest.mark.verify("'Brightness level' is shown")
def test_brightness_{n}(artemis):
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


Result = tuple[float, float, float, str, list[float]]


def run_pytest(root: Path, workers: int, dist: str, args: argparse.Namespace, n: int) -> Result:
    """(wall s, summed test time s, the busiest worker's summed test time s, last summary line, each
    test's time in collection order) of one subprocess session."""
    dist, _, order = dist.partition("+")
    tag = f"{workers}-{dist}-{order or 'collected'}-{n}"
    junit = root / f"junit-{tag}.xml"
    variables = {**env(), "BENCH_MIN_LATENCY": str(args.min_latency),
                 "BENCH_MAX_LATENCY": str(args.max_latency), "BENCH_TURNS": str(args.turns)}
    # Its own --basetemp: by default a session's end deletes the oldest of the shared numbered temp dirs
    # (pytest keeps 3), whoever made them; one of another suite's, thousands of files, took 2.8 s here.
    # -n 1 keeps each test's duration in the project's pytest cache, for the sessions ordered by them.
    ordering = ("--artemis-order=longest-first",) if order or workers == 1 else ()
    argv = pytest_argv("-q", "-n", str(workers), f"--dist={dist}", *ordering, "--artemis-device=sim:4",
                       f"--artemis-artifacts={root / f'artifacts-{tag}'}", f"--junitxml={junit}",
                       f"--basetemp={root / f'basetemp-{tag}'}", cache=bool(ordering))
    started = time.perf_counter()
    proc = subprocess.run(argv, cwd=root, env=variables, capture_output=True, text=True, timeout=1800)
    wall = time.perf_counter() - started
    summary = (proc.stdout.strip().splitlines() or ["(no output)"])[-1]
    if proc.returncode != 0:
        print(proc.stdout[-3000:], proc.stderr[-2000:], sep="\n")
        raise SystemExit(f"pytest -n {workers} --dist={dist} failed ({proc.returncode}): {summary}")
    busy: dict[str, float] = {}
    lengths = []
    for case in ET.parse(junit).getroot().iter("testcase"):
        lengths.append(float(case.get("time", 0)))
        worker = next((p.get("value", "") for p in case.iter("property")
                       if p.get("name") == "bench.worker"), "")
        busy[worker] = busy.get(worker, 0.0) + float(case.get("time", 0))
    return wall, sum(busy.values()), max(busy.values(), default=0.0), summary, lengths


def settings(dists: list[str]) -> list[tuple[int, str]]:
    """``-n 1`` once (one worker has nothing to split), every other worker count once per ``--dist``."""
    return [(1, HEADLINE_DIST)] + [(workers, dist) for workers in WORKERS[1:] for dist in dists]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tests", type=int, default=8, help="generated tests (default 8)")
    parser.add_argument("--turns", type=int, default=2, help="operator turns per test (default 2)")
    parser.add_argument("--min-latency", type=float, default=1.0, help="shortest model reply s (default 1)")
    parser.add_argument("--max-latency", type=float, default=3.0, help="longest model reply s (default 3)")
    parser.add_argument("--runs", type=int, default=1, help="rounds of all settings; medians (default 1)")
    parser.add_argument("--dist", default=f"{HEADLINE_DIST},worksteal,{HEADLINE_DIST}+longest-first",
                        help=f"xdist --dist modes for -n 2 and -n 4, comma-separated; `+longest-first` adds "
                             f"--artemis-order=longest-first (the -n 1 session's durations) (default "
                             f"{HEADLINE_DIST},worksteal,{HEADLINE_DIST}+longest-first; the first is the "
                             f"headline)")
    args = parser.parse_args()
    dists = args.dist.split(",")
    measured = settings(dists)
    rows: dict[tuple[int, str], list[Result]] = {k: [] for k in measured}
    empty: dict[int, list[Result]] = {k: [] for k in WORKERS}
    with tempfile.TemporaryDirectory(prefix="artemis-bench-xdist-") as tmp:
        root = Path(tmp)
        make_project(root, args.tests)
        header = describe()
        for n in range(args.runs):
            for workers, dist in measured:
                rows[workers, dist].append(run_pytest(root / "bench", workers, dist, args, n))
            for workers in WORKERS:
                empty[workers].append(run_pytest(root / "empty", workers, HEADLINE_DIST, args, n))
    print(f"{args.tests} tests x {args.turns} operator turns, model latency {args.min_latency:g}-"
          f"{args.max_latency:g} s/call, --artemis-device=sim:4, {os.cpu_count()} CPU cores, "
          f"{args.runs} round(s)")
    print(header)
    print(f"{'project':<8} {'-n':>3} {'--dist':>18} {'wall s':>7} {'sum of test times s':>19} "
          f"{'busiest worker s':>16}  summary")
    lines = [("bench", workers, dist, row) for (workers, dist), table in rows.items() for row in table]
    lines += [("empty", workers, HEADLINE_DIST, row) for workers, table in empty.items() for row in table]
    for project, workers, dist, (wall, summed, busiest, summary, _) in lines:
        print(f"{project:<8} {workers:>3} {dist:>18} {wall:7.2f} {summed:19.2f} {busiest:16.2f}  {summary}")
    one = statistics.median(r[0] for r in rows[1, HEADLINE_DIST])
    tests_one = statistics.median(r[1] for r in rows[1, HEADLINE_DIST])
    print(f"{'measure (median)':<53} {'value':>7} {'target':>8}  verdict")
    for workers, dist in measured[1:]:
        speedup = one / statistics.median(r[0] for r in rows[workers, dist])
        target = TARGET_SHARE * workers
        headline = " (headline)" if dist == dists[0] else ""
        print(f"{f'speed-up -n {workers} --dist={dist} vs -n 1':<53} {speedup:6.2f}x "
              f"{'>= ' + format(target, 'g'):>8}  {'met' if speedup >= target else 'MISSED'}{headline}")
    for workers, dist in measured:
        wall, busiest = (statistics.median(r[k] for r in rows[workers, dist]) for k in (0, 2))
        print(f"-n {workers} --dist={dist}: the busiest worker's tests took {busiest:.2f} s of the "
              f"{wall:.2f} s wall ({wall - busiest:.2f} s outside them: session start and end, scheduling); "
              f"-n 1 test time / busiest worker = {tests_one / busiest:.2f}x (the split's ceiling)")
    lengths = ",".join(f"{t:.2f}" for t in rows[1, HEADLINE_DIST][0][4])
    print(f"-n 1 test times in collection order (round 1; split_model.py --lengths): {lengths}")
    fixed = ", ".join(f"-n {k} {statistics.median(r[0] for r in empty[k]):.2f} s" for k in WORKERS)
    print(f"session fixed cost (trivial tests): {fixed}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
