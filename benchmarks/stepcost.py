"""One tree's cost per step, measured in its own process: ``bench_step_floor.py`` runs it per release.

    PYTHONPATH=TREE python benchmarks/stepcost.py --tree TREE --port P --relay-port R --serial S --steps N

Imports ``simrun`` from ``TREE/benchmarks`` (the release's own scripted run: the operator sets the
brightness slider to a new level every turn, so every step is a new screen), warms up with a short run,
times N steps against the phone behind ``--port`` and then runs N more steps through the counting relay
behind ``--relay-port`` (counted, not timed: forwarding costs the relay CPU and time). Prints one JSON line:
steps, wall, device and model seconds and the process's CPU seconds of the timed run (every thread: the
run, its JPEG and screenshot writer threads, and the journal's close), and the phones' process's CPU
seconds meanwhile (``--sim-pid``: the device's side of the same steps).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path


def process_cpu(pid: int) -> float:
    """CPU seconds (user + system, every thread) another process has used so far (0 without a pid)."""
    if not pid:
        return 0.0
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tree", type=Path, required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--relay-port", type=int, required=True)
    parser.add_argument("--serial", required=True)
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--sim-pid", type=int, default=0, help="the phones' process, to read its CPU time")
    args = parser.parse_args()
    sys.path.insert(0, str(args.tree / "benchmarks"))
    from simrun import run_once
    from simserver import SimAddress

    import pytest_artemis

    where = Path(pytest_artemis.__file__).resolve()
    assert where.is_relative_to(args.tree.resolve()), f"{where} is not the tree measured"
    phone = SimAddress(args.host, args.port, [args.serial])
    run_once(phone, steps=3, latency_s=0.0, midway_checks=False)  # imports, fonts, first-call caches
    cpu, phone_cpu = time.process_time(), process_cpu(args.sim_pid)
    m = run_once(phone, steps=args.steps, latency_s=0.0, midway_checks=False)
    cpu, phone_cpu = time.process_time() - cpu, process_cpu(args.sim_pid) - phone_cpu
    counted = run_once(SimAddress(args.host, args.relay_port, [args.serial]), steps=args.steps, latency_s=0.0,
                       midway_checks=False)
    assert m.outcome.execution == counted.outcome.execution == "finished", m.outcome
    print(json.dumps({"steps": m.outcome.steps, "wall_s": m.wall_s, "device_s": m.device_s,
                      "model_s": m.model_s, "cpu_s": cpu, "phone_cpu_s": phone_cpu,
                      "counted_steps": counted.outcome.steps}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
