"""What xdist's ``--dist load`` and ``--dist worksteal`` allow for whole tests of given lengths (a model).

    python benchmarks/split_model.py [--lengths 10.8,8.6,...] [--trials 3000] [--seed 1]

Replays the scheduling rules of pytest-xdist 3.8 on test lengths: ``load`` hands each worker two tests,
then one more each time it finishes one (a worker must know its next test before it starts one), in
collection order; ``worksteal`` splits the tests into equal contiguous blocks and, when a worker is down
to one test, takes half of the busiest worker's tests beyond the two it holds. ``greedy`` (the next test
to whichever worker is free, which xdist's protocol cannot do) and longest-first (lengths known in
advance) are the bounds. Prints sum of lengths / busiest worker (the split's ceiling on the speed-up) for
the given test lengths (``bench_xdist.py`` prints its ``-n 1`` ones), then the mean and 10th percentile
over random test sets: lengths drawn independently of collection order, and lengths that come in
modules of four similar tests (log-normal across modules).
"""

from __future__ import annotations

import argparse
import heapq
import random
import statistics
from collections.abc import Callable

Schedule = Callable[[list[float], int], float]


def run_queues(lengths: list[float], workers: int, queues: dict[int, list[int]], pending: list[int],
               refill: Callable[[dict[int, list[int]], list[int], int], None]) -> float:
    """Workers run their queues in order; ``refill`` tops the queues up each time a test ends. Returns the
    time the busiest worker is done."""
    ends = dict.fromkeys(range(workers), 0.0)
    events: list[tuple[float, int]] = []
    running: set[int] = set()
    now = 0.0
    while True:
        for w in range(workers):
            if w not in running and queues[w]:
                heapq.heappush(events, (now + lengths[queues[w][0]], w))
                running.add(w)
        if not events:
            return max(ends.values())
        now, w = heapq.heappop(events)
        running.discard(w)
        queues[w].pop(0)
        ends[w] = now
        refill(queues, pending, w)


def load(lengths: list[float], workers: int) -> float:
    """``--dist load``: round robin when there are fewer than two tests per worker; else a chunk of
    max(2, tests per worker // 4) each; then a worker down to one test (tests of 0.1 s or more) is filled
    up to max(2, pending // workers // 2)."""
    pending = list(range(len(lengths)))
    queues: dict[int, list[int]] = {w: [] for w in range(workers)}
    if len(pending) < 2 * workers:
        for i, test in enumerate(pending):
            queues[i % workers].append(test)
        pending = []
    else:
        chunk = max(2, len(pending) // workers // 4)
        for w in range(workers):
            queues[w], pending = pending[:chunk], pending[chunk:]

    def refill(queues: dict[int, list[int]], pending: list[int], w: int) -> None:
        high = max(2, len(pending) // workers // 2)
        if pending and len(queues[w]) < 2:
            send = high - len(queues[w])
            queues[w] += pending[:send]
            del pending[:send]

    return run_queues(lengths, workers, queues, pending, refill)


def worksteal(lengths: list[float], workers: int) -> float:
    """``--dist worksteal``: equal contiguous blocks; a worker down to one test takes half of the busiest
    worker's tests beyond the two it holds (none left to take: it finishes)."""
    pending = list(range(len(lengths)))
    queues: dict[int, list[int]] = {w: [] for w in range(workers)}
    for i, w in enumerate(range(workers)):
        share = len(pending) // (workers - i)
        queues[w], pending = pending[:share], pending[share:]
    done: set[int] = set()

    def refill(queues: dict[int, list[int]], pending: list[int], w: int) -> None:
        idle = [v for v in range(workers) if v not in done and len(queues[v]) < 2]
        if not idle:
            return
        source = max((v for v in range(workers) if v not in done), key=lambda v: len(queues[v]))
        take = min(len(queues[source]) // 2, max(0, len(queues[source]) - 2))
        if take == 0:
            done.update(idle)
            return
        stolen, queues[source] = queues[source][-take:], queues[source][:-take]
        for i, v in enumerate(idle):
            share = len(stolen) // (len(idle) - i)
            queues[v] += stolen[:share]
            stolen = stolen[share:]

    return run_queues(lengths, workers, queues, pending, refill)


def greedy(lengths: list[float], workers: int) -> float:
    """The next test to whichever worker is free first (no test held in advance)."""
    ends = [0.0] * workers
    for length in lengths:
        ends[ends.index(min(ends))] += length
    return max(ends)


def longest_first(lengths: list[float], workers: int) -> float:
    """Greedy over the tests sorted longest first: what known lengths would allow."""
    return greedy(sorted(lengths, reverse=True), workers)


SCHEDULES: dict[str, Schedule] = {"load": load, "worksteal": worksteal, "greedy": greedy,
                                  "longest first": longest_first}


def ceilings(lengths: list[float], workers: int) -> dict[str, float]:
    """Sum of lengths / the busiest worker, per schedule."""
    return {name: sum(lengths) / schedule(lengths, workers) for name, schedule in SCHEDULES.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lengths", help="test lengths in collection order, comma-separated: their ceilings")
    parser.add_argument("--trials", type=int, default=3000, help="random test sets per case (default 3000)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    names = list(SCHEDULES)
    if args.lengths:
        lengths = [float(x) for x in args.lengths.split(",")]
        print(f"{len(lengths)} given tests: " + "; ".join(
            f"-n {w} " + ", ".join(f"{k} {v:.2f}x" for k, v in ceilings(lengths, w).items()) for w in (2, 4)))
    cases: dict[str, Callable[[int], list[float]]] = {
        "independent of order": lambda n: [rng.uniform(6.5, 11.5) for _ in range(n)],
        "modules of 4": lambda n: [base * rng.uniform(0.8, 1.2) for base in
                                   (rng.lognormvariate(2.2, 0.5) for _ in range(n // 4)) for _ in range(4)],
    }
    print(f"{'lengths':<22} {'tests':>5} {'-n':>3}  " + "  ".join(f"{k:>22}" for k in names))
    for label, draw in cases.items():
        for tests in (8, 16, 32):
            for workers in (2, 4):
                runs = [ceilings(draw(tests), workers) for _ in range(args.trials)]
                cells = []
                for name in names:
                    values = sorted(run[name] for run in runs)
                    cells.append(f"{statistics.mean(values):.2f}x (p10 {values[len(values) // 10]:.2f}x)")
                print(f"{label:<22} {tests:>5} {workers:>3}  " + "  ".join(f"{c:>22}" for c in cells))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
