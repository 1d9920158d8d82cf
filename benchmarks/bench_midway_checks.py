"""Midway checks on vs off: wall-time ratio of the same scripted run, with a checker of fixed latency.

    python benchmarks/bench_midway_checks.py [--steps 16] [--latency 0.3] [--checker-latency 1.0] [--runs 2]

The task has 4 subgoals, each with one model-judged verify item; the operator marks a subgoal done every
``steps // 4`` turns. With ``RunConfig(midway_checks=True)`` each completion starts a checkpoint that runs
beside the operator; with ``False`` the items are judged from the anchored history at exit. The operator phase
(first step start to last step end, from the journal) isolates what checkpoints cost the operator loop.
Runs alternate on/off so drift on a noisy machine hits both; medians are compared.
"""

from __future__ import annotations

import argparse
import statistics

from simrun import Measured, run_once
from simserver import sim_server

from pytest_artemis.store.reader import read_run

TARGET = 1.03


def operator_phase(m: Measured) -> float:
    """Seconds from the first step's start to the last step's end (the operator's loop, checks beside it)."""
    steps = read_run(m.run_dir).steps
    return steps[-1].finished_at - steps[0].started_at


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=16, help="operator turns per run (default 16)")
    parser.add_argument("--latency", type=float, default=0.3, help="planner/operator latency s (default 0.3)")
    parser.add_argument("--checker-latency", type=float, default=1.0, help="checker latency s (default 1.0)")
    parser.add_argument("--runs", type=int, default=2, help="runs per setting; medians (default 2)")
    parser.add_argument("--in-process-sim", action="store_true", help="serve the sim in this process")
    args = parser.parse_args()
    results: dict[bool, list[Measured]] = {True: [], False: []}
    with sim_server(devices=1, in_process=args.in_process_sim) as server:
        for _ in range(args.runs):
            for midway in (True, False):
                m = run_once(server, steps=args.steps, latency_s=args.latency,
                             checker_latency_s=args.checker_latency, checks=True, midway_checks=midway)
                assert m.outcome.execution == "finished", m.outcome
                results[midway].append(m)
    print(f"{args.steps} steps, 4 verify items, operator latency {args.latency:g} s, "
          f"checker latency {args.checker_latency:g} s, {args.runs} run(s) each, interleaved")
    print(f"{'midway':>6} {'run':>3} {'steps':>5} {'checker calls':>13} {'wall s':>7} "
          f"{'operator s':>10} {'passed':>6} {'unchecked':>9} {'inconcl.':>8}")
    for midway in (True, False):
        for i, m in enumerate(results[midway], 1):
            t = m.outcome.tests
            print(f"{'on' if midway else 'off':>6} {i:>3} {m.outcome.steps:>5} "
                  f"{m.model_calls.get('checker', 0):>13} {m.wall_s:7.2f} {operator_phase(m):10.2f} "
                  f"{t.passed:>6} {t.unchecked:>9} {t.inconclusive:>8}")
    on = statistics.median(m.wall_s for m in results[True])
    off = statistics.median(m.wall_s for m in results[False])
    ratio = on / off
    print(f"median wall: on {on:.2f} s, off {off:.2f} s; ratio on/off {ratio:.3f} "
          f"(target <= {TARGET:.2f}): {'met' if ratio <= TARGET else 'MISSED'}")
    op_on = statistics.median(operator_phase(m) for m in results[True])
    op_off = statistics.median(operator_phase(m) for m in results[False])
    print(f"median operator phase: on {op_on:.2f} s, off {op_off:.2f} s; ratio {op_on / op_off:.3f} "
          "(what checkpoints running beside the operator cost it)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
