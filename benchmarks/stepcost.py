"""One tree's cost per step, measured in its own process: ``bench_step_floor.py`` runs it per release.

    PYTHONPATH=TREE python benchmarks/stepcost.py --tree TREE --port P --relay-port R --serial S --steps N

Imports ``simrun`` from ``TREE/benchmarks`` (the release's own scripted run: the operator sets the
brightness slider to a new level every turn, so every step is a new screen), warms up with a short run,
times N steps against the phone behind ``--port`` and then runs N more steps through the counting relay
behind ``--relay-port`` (counted, not timed: forwarding costs the relay CPU and time). Prints one JSON line:
steps, wall, device and model seconds and the process's CPU seconds of the timed run (every thread: the
run, its JPEG and screenshot writer threads, and the journal's close).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tree", type=Path, required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--relay-port", type=int, required=True)
    parser.add_argument("--serial", required=True)
    parser.add_argument("--steps", type=int, default=20)
    args = parser.parse_args()
    sys.path.insert(0, str(args.tree / "benchmarks"))
    from simrun import run_once
    from simserver import SimAddress

    import pytest_artemis

    where = Path(pytest_artemis.__file__).resolve()
    assert where.is_relative_to(args.tree.resolve()), f"{where} is not the tree measured"
    phone = SimAddress(args.host, args.port, [args.serial])
    run_once(phone, steps=3, latency_s=0.0, midway_checks=False)  # imports, fonts, first-call caches
    cpu = time.process_time()
    m = run_once(phone, steps=args.steps, latency_s=0.0, midway_checks=False)
    cpu = time.process_time() - cpu
    counted = run_once(SimAddress(args.host, args.relay_port, [args.serial]), steps=args.steps, latency_s=0.0,
                       midway_checks=False)
    assert m.outcome.execution == counted.outcome.execution == "finished", m.outcome
    print(json.dumps({"steps": m.outcome.steps, "wall_s": m.wall_s, "device_s": m.device_s,
                      "model_s": m.model_s, "cpu_s": cpu, "counted_steps": counted.outcome.steps}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
