"""Report cost: render time of a 200-step run page and a 500-test index, page weight, open time.

    python benchmarks/bench_report.py [--steps 200] [--tests 500] [--repeats 5]

A real scripted run of N steps on the simulated phone (Settings, checkpoints on) writes the journal; the
run page is rendered from it (median of repeats) and set against the run's own wall time — the plugin
renders it after the run ends, so it adds nothing to the run itself. The index is rendered for M entries
built from that journal. Page weight: the HTML and the screenshots it references. Open time: headless
Chromium dumping the DOM of the page vs of ``about:blank`` (when Chromium is installed).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from simrun import run_once
from simserver import sim_server

from pytest_artemis.report import IndexEntry, render_index, render_run_report
from pytest_artemis.store import read_run

CHROMIUM = shutil.which("chromium")


def _median(fn: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def _open_s(url: str, profile: Path) -> float:
    argv = [str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={profile}",
            "--dump-dom", url]
    started = time.perf_counter()
    subprocess.run(argv, capture_output=True, timeout=120, check=True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--tests", type=int, default=500)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="artemis-bench-report-"))
    with sim_server(in_process=False) as server:
        measured = run_once(server, steps=args.steps, latency_s=0.0, checks=True, subgoals=10, root=root)
    run_dir = measured.run_dir
    record = read_run(run_dir)
    page_s = _median(lambda: render_run_report(run_dir, root=root), args.repeats)
    entries = [
        IndexEntry.from_record(record, root, nodeid=f"tests/test_suite.py::test_case_{n:03d}")
        for n in range(args.tests)
    ]
    entry_s = _median(lambda: IndexEntry.from_record(read_run(run_dir), root), args.repeats)
    index_s = _median(lambda: render_index(root, entries), args.repeats)
    html = (run_dir / "report.html").stat().st_size
    shots = {s for step in record.steps for s in (step.pre_screen, step.post_screen) if s}
    shot_bytes = sum(record.screen_path(s).stat().st_size for s in shots)
    index_bytes = (root / "index.html").stat().st_size
    print(f"run: {len(record.steps)} steps, {len(record.verdicts)} verdicts, wall {measured.wall_s:.2f} s")
    print(f"{'measure':46} {'value':>12}")
    print(f"{'run page render (median)':46} {page_s * 1000:>9.1f} ms")
    print(f"{'  as a share of the run it reports':46} {page_s / measured.wall_s:>11.2%}")
    print(f"{'  added inside run_task':46} {'0 (after)':>12}")
    print(f"{'read journal + index entry, per test':46} {entry_s * 1000:>9.1f} ms")
    print(f"{f'index render, {args.tests} tests (median)':46} {index_s * 1000:>9.1f} ms")
    print(f"{'run page HTML':46} {html / 1024:>9.1f} KiB")
    print(f"{f'  + {len(shots)} screenshots it references':46} {shot_bytes / 1024:>9.1f} KiB")
    print(f"{'index HTML':46} {index_bytes / 1024:>9.1f} KiB")
    if CHROMIUM:
        with tempfile.TemporaryDirectory() as profile:
            blank = statistics.median(_open_s("about:blank", Path(profile)) for _ in range(3))
            run_open = statistics.median(_open_s((run_dir / "report.html").as_uri(), Path(profile))
                                         for _ in range(3))
            index_open = statistics.median(_open_s((root / "index.html").as_uri(), Path(profile))
                                           for _ in range(3))
        print(f"{'Chromium open, about:blank (baseline)':46} {blank:>10.2f} s")
        print(f"{'Chromium open, run page (minus baseline)':46} {run_open - blank:>10.2f} s")
        print(f"{'Chromium open, index (minus baseline)':46} {index_open - blank:>10.2f} s")
    shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
