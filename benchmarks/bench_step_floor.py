"""A step at the floor: this tree beside the previous release, in one run.

    python benchmarks/bench_step_floor.py [--previous REV] [--steps N] [--rounds N]
                                          [--no-device] [--no-examples]

(a) the harness's work per step: overhead (wall − device − model, the step's critical path) and the
    harness process's CPU (every thread: the run, the model JPEG, the background screenshot writer);
(b) device calls per step and the bytes they move, counted by a relay in front of the simulated phone
    (``byterelay.py``), which serves ``screencap`` as real Android does: raw frames and PNG. This tree runs
    twice: on a phone whose raw frames it reads, and on one whose display is 10-bit HDR (RGBA_1010102),
    where it falls back to PNG; the previous release always asks for PNG;
(c) model calls and tokens per example test: ``pytest examples/ --artemis-device=sim`` with its scripted
    demo model, metered by ``model_meter.py`` (calls per role; the checker's requests, characters and
    tokens per test) — re-run it after a change to what the checker is asked.

Each release runs in its own process (``stepcost.py``) with its own code on ``PYTHONPATH``; the previous
release is ``git archive REV`` unpacked in a temporary directory. Rounds interleave the variants; medians
are printed. The phones run in one child process of this tree (``python -m pytest_artemis.sim``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

from byterelay import ByteRelay, Counts
from rawfloor import raw_exec
from simserver import SimAddress, sim_server
from userenv import env, pytest_argv

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent
PREVIOUS = "1a06dc2"
"""The last commit whose screenshots crossed adb as PNG (the release before raw frames)."""
TARGET_MS = 10.0


def previous_tree(rev: str, into: Path) -> Path:
    """The files of ``rev`` (``git archive``), unpacked under ``into``."""
    tree = into / f"artemis-{rev}"
    tree.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, check=True)
    return tree


def _tree_env(tree: Path) -> dict[str, str]:
    return {**env(), "PYTHONPATH": os.pathsep.join([str(tree), str(HERE)])}


def step_cost(tree: Path, relay: ByteRelay, sim: SimAddress, steps: int) -> tuple[dict, Counts]:
    """A timed run of ``tree``'s harness, and what crossed the relay in its counted run."""
    argv = [sys.executable, str(HERE / "stepcost.py"), "--tree", str(tree), "--port", str(sim.port),
            "--relay-port", str(relay.port), "--serial", sim.serials[0], "--steps", str(steps),
            "--sim-pid", str(sim.pid)]
    relay.reset()
    proc = subprocess.run(argv, env=_tree_env(tree), capture_output=True, text=True, timeout=600)
    counts = relay.reset()
    if proc.returncode != 0:
        raise RuntimeError(f"{tree}: stepcost failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1]), counts


def _per_step(rows: list[tuple[dict, Counts]]) -> dict[str, float]:
    """Medians over rounds of the per-step figures."""
    def timed(fn) -> float:  # type: ignore[no-untyped-def]
        return statistics.median(fn(m) / m["steps"] * 1000 for m, _ in rows)

    def counted(fn) -> float:  # type: ignore[no-untyped-def]
        return statistics.median(fn(c) / m["counted_steps"] for m, c in rows)

    return {
        "wall": timed(lambda m: m["wall_s"]),
        "device": timed(lambda m: m["device_s"]),
        "overhead": timed(lambda m: m["wall_s"] - m["device_s"] - m["model_s"]),
        "cpu": timed(lambda m: m["cpu_s"]),
        "phone_cpu": timed(lambda m: m["phone_cpu_s"]),
        "calls": counted(lambda c: sum(c.calls.values())),
        "down_kb": counted(lambda c: sum(c.down.values()) / 1024),
        "up_kb": counted(lambda c: sum(c.up.values()) / 1024),
        "shots": counted(lambda c: c.calls["screencap"] + c.calls["screencap -p"]),
        "shot_kb": counted(lambda c: (c.down["screencap"] + c.down["screencap -p"]) / 1024),
    }


def device_part(trees: dict[str, Path], steps: int, rounds: int) -> None:
    variants = [("previous release", trees["previous"], "RGBA_8888"),
                ("this tree, raw frames", trees["this"], "RGBA_8888"),
                ("this tree, HDR display (PNG)", trees["this"], "RGBA_1010102")]
    rows: dict[str, list[tuple[dict, Counts]]] = defaultdict(list)
    kinds: dict[str, Counter[str]] = defaultdict(Counter)
    with sim_server(devices=1) as sim:
        serial = sim.serials[0]
        relay = ByteRelay((sim.host, sim.port))
        try:
            for round_ in range(rounds):  # each round starts with another variant: the load drifts
                for name, tree, display in variants[round_ % 3:] + variants[:round_ % 3]:
                    raw_exec(sim.host, sim.port, serial, f"simctl fault screencap-raw {display}")
                    measured, counts = step_cost(tree, relay, sim, steps)
                    rows[name].append((measured, counts))
                    kinds[name] = counts.calls
        finally:
            relay.close()
    print(f"(a, b) {steps} steps per run, every step a new screen, instant model, {rounds} round(s), "
          "medians per step; the phone in a child process, behind a counting relay")
    print(f"{'':<30} {'wall ms':>8} {'device ms':>9} {'overhead ms':>11} {'CPU ms':>7} {'phone CPU':>9} "
          f"{'calls':>6} {'KiB down':>9} {'KiB up':>7} {'shots':>6} {'KiB/shot':>9}")
    figures = {name: _per_step(r) for name, r in rows.items()}
    for name, f in figures.items():
        print(f"{name:<30} {f['wall']:8.1f} {f['device']:9.1f} {f['overhead']:11.1f} {f['cpu']:7.1f} "
              f"{f['phone_cpu']:9.1f} {f['calls']:6.2f} {f['down_kb']:9.1f} {f['up_kb']:7.2f} "
              f"{f['shots']:6.2f} {f['shot_kb'] / max(f['shots'], 1e-9):9.1f}")
    for name in figures:
        calls = ", ".join(f"{k} {v}" for k, v in sorted(kinds[name].items()))
        print(f"  {name}: calls of the last run: {calls}")
    now = figures["this tree, raw frames"]["overhead"]
    print(f"harness overhead per step, this tree (raw frames): {now:.1f} ms (target <= {TARGET_MS:g} ms: "
          f"{'met' if now <= TARGET_MS else 'MISSED'}); previous release "
          f"{figures['previous release']['overhead']:.1f} ms")


def meter_examples(tree: Path, out: Path) -> tuple[list[dict], dict[str, str]]:
    """The metered requests of one examples session of ``tree`` and each test's outcome word."""
    meter, junit = out / "meter.jsonl", out / "junit.xml"
    argv = pytest_argv("examples/", "--artemis-device=sim", "-p", "model_meter", f"--junitxml={junit}",
                       f"--artemis-artifacts={out / 'artifacts'}", "-q")
    clean = {k: v for k, v in _tree_env(tree).items() if not k.startswith("ARTEMIS_")}
    proc = subprocess.run(argv, cwd=tree, env={**clean, "ARTEMIS_METER_OUT": str(meter)},
                          capture_output=True, text=True, timeout=1200)
    if not junit.exists():
        raise RuntimeError(f"{tree}: the examples did not run:\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
    sys.path.insert(0, str(ROOT))
    from pytest_artemis.junit import read_properties

    words = {node.rpartition("::")[2]: props.get("artemis.outcome", "?")
             for node, props in read_properties(junit).items()}
    lines = [json.loads(line) for line in meter.read_text(encoding="utf-8").splitlines()]
    return lines, words


def _per_test(lines: list[dict]) -> dict[str, dict[str, int]]:
    tests: dict[str, dict[str, int]] = defaultdict(Counter)
    for line in lines:
        figures = tests[line["test"]]
        if "call" in line:
            figures[f"calls:{line['call']}"] += 1
        elif line["role"] == "checker":
            figures["checker requests"] += 1
            figures["checker chars"] += line["chars"] + line["schema_chars"]
            figures["checker tokens"] += line["tokens"]
    return tests


def model_part(trees: dict[str, Path]) -> None:
    metered = {}
    with tempfile.TemporaryDirectory(prefix="artemis-meter-") as tmp:
        for name, tree in trees.items():
            out = Path(tmp) / name
            out.mkdir()
            metered[name] = meter_examples(tree, out)
    print("\n(c) pytest examples/ --artemis-device=sim (scripted demo model), per test: outcome, model calls "
          "by role (planner/operator/checker), checker requests, characters (text + reply schema) and tokens")
    print(f"{'test':<30} {'release':<9} {'outcome':<10} {'plan/op/chk':>11} {'chk reqs':>8} {'chk chars':>9} "
          f"{'chk tokens':>10}")
    totals: dict[str, Counter[str]] = defaultdict(Counter)
    per = {name: _per_test(lines) for name, (lines, _) in metered.items()}
    for test in sorted(set().union(*(p.keys() for p in per.values())) - {""}):
        for name in trees:
            f, word = per[name].get(test, Counter()), metered[name][1].get(test, "?")
            calls = "/".join(str(f.get(f"calls:{r}", 0)) for r in ("planner", "operator", "checker"))
            print(f"{test:<30} {name:<9} {word:<10} {calls:>11} {f.get('checker requests', 0):8d} "
                  f"{f.get('checker chars', 0):9d} {f.get('checker tokens', 0):10d}")
            totals[name].update(f)
            totals[name]["tests"] += 1
    for name, t in totals.items():
        n = max(t["tests"], 1)
        calls = sum(v for k, v in t.items() if k.startswith("calls:"))
        print(f"{name}: {t['tests']} tests, per test {calls / n:.1f} model calls "
              f"({t['calls:checker'] / n:.1f} checker), checker {t['checker requests'] / n:.1f} requests, "
              f"{t['checker chars'] / n:.0f} chars, {t['checker tokens'] / n:.0f} tokens")
    same = all(metered["previous"][1].get(t) == w for t, w in metered["this"][1].items())
    print(f"outcomes {'identical' if same else 'CHANGED'} between the releases")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--previous", default=PREVIOUS,
                        help=f"the release to compare with (default {PREVIOUS})")
    parser.add_argument("--steps", type=int, default=20, help="operator turns per run (default 20)")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each variant (default 3)")
    parser.add_argument("--device", action=argparse.BooleanOptionalAction, default=True,
                        help="(a) and (b): the steps on the simulated phone (default on)")
    parser.add_argument("--examples", action=argparse.BooleanOptionalAction, default=True,
                        help="(c): the examples' model calls (default on)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="artemis-previous-") as tmp:
        trees = {"previous": previous_tree(args.previous, Path(tmp)), "this": ROOT}
        print(f"previous release: {args.previous}; this tree: {ROOT}; load average "
              f"{os.getloadavg()[0]:.1f}")
        if args.device:
            device_part(trees, args.steps, args.rounds)
        if args.examples:
            model_part(trees)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
