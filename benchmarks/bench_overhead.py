"""A step on the simulated phone against the raw-protocol floor, measured in the same run; harness overhead.

    python benchmarks/bench_overhead.py [--steps 20] [--runs 5] [--latency 0] [--in-process-sim] [--profile]

A scripted model (every reply ``await asyncio.sleep(latency)``, instant by default) drives the simulated
phone (SimServer, in a separate process by default, as a real phone would be) through ``run_task`` for N
steps; every step shows a new screen. Device time is the wall time inside Device calls (a timing proxy
around ``AdbDevice``: it includes the client's frame check and hash, and the hierarchy parse). After each
run, the run's device calls are replayed as bare ``exec:`` services over plain sockets on a second phone
of the same seed (``rawfloor.py``): the floor. Reported: device time / floor (target <= 1.3), overhead =
wall - device - model per step (target <= 10 ms), and step wall / floor. The breakdown table times each
per-step harness part in isolation on a real captured screen; ``--profile`` adds a cProfile of the
event-loop thread.
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import io
import pstats
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from rawfloor import replay
from simrun import Measured, run_once
from simserver import sim_server

from pytest_artemis.contracts import ActionResult, Scroll, StepRecord
from pytest_artemis.device import AdbDevice, Capture
from pytest_artemis.device.frames import parse_frame
from pytest_artemis.device.hierarchy import parse_hierarchy
from pytest_artemis.device.model_image import model_jpeg
from pytest_artemis.device.perception import Screen, meaningful
from pytest_artemis.store.journal import RunHeader, RunJournal

TARGET_MS, TARGET_FLOOR = 10.0, 1.3


def _ms(fn: Callable[[], object], repeat: int = 20) -> float:
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples) * 1000


def breakdown(device: AdbDevice, *, image_max_side: int = 1280) -> list[tuple[str, float, int]]:
    """(part, ms per call, calls per step) for the per-step harness CPU work, timed in isolation."""
    capture = device.screenshot()
    frame = capture.frame
    assert frame is not None, "the simulated phone serves raw frames"
    raw = bytes(frame.pixels.obj)[:frame.header + len(frame.pixels)]  # the frame as the phone sent it
    hierarchy = device.hierarchy()
    screen = Screen(view=_view(device, capture, hierarchy), capture=capture, hierarchy_xml=hierarchy.xml)
    root = Path(tempfile.mkdtemp(prefix="artemis-bench-breakdown-"))
    journal = RunJournal.create(root, RunHeader(run_id="breakdown", goal="g", device=device.serial))
    step = StepRecord(step=1, turn="act", pre_screen=capture.sha256, post_screen=capture.sha256,
                      hierarchy="x.xml", foreground="com.android.settings", decision="scroll the list",
                      actions=(Scroll(direction="down"),),
                      results=(ActionResult(action=Scroll(direction="down"), ok=True, detail="scroll down"),),
                      plan_version=1, started_at=time.time(), finished_at=time.time())

    def fresh(sha: str) -> Capture:
        # a new content hash each call, so the JPEG cache is bypassed and the real work is timed
        return Capture(width=capture.width, height=capture.height, sha256=sha, frame=frame)

    counter = iter(range(10**9))
    return [
        ("raw frame header check (parse_frame)", _ms(lambda: parse_frame(raw)), 2),
        ("sha256 of the frame (AdbDevice.screenshot)", _ms(lambda: hashlib.sha256(raw).digest()), 2),
        ("parse_hierarchy (AdbDevice.hierarchy)", _ms(lambda: parse_hierarchy(hierarchy.xml)), 1),
        ("meaningful() + ScreenView (perceive)", _ms(lambda: _view(device, capture, hierarchy, app="x")), 1),
        ("model JPEG, uncached (reduce+JPEG of the pixels)",
         _ms(lambda: model_jpeg(fresh(str(next(counter))), image_max_side)), 1),
        ("Screen.prompt_listing", _ms(screen.prompt_listing), 1),
        ("journal.put_screen (hand-over to the writer)", _ms(lambda: journal.put_screen(capture)), 2),
        ("PNG of a new screen (background writer thread)", _ms(frame.png), 1),
        ("journal.put_blob(xml), new file (redact+hash+write)",
         _ms(lambda: journal.put_blob(hierarchy.xml + str(next(counter)), "xml")), 1),
        ("journal.append_step", _ms(lambda: journal.append_step(step)), 1),
    ]


def _view(device: AdbDevice, capture, hierarchy, app: str | None = None):  # type: ignore[no-untyped-def]
    from pytest_artemis.contracts import ScreenView

    return ScreenView(screenshot=capture.sha256, width=capture.width, height=capture.height,
                      foreground=app or device.current_app(), elements=meaningful(hierarchy.elements))


def _table(rows: list[tuple[Measured, float]]) -> tuple[float, float, float, float]:
    """One row per run; returns medians of (device/floor, overhead ms/step, wall/floor, round trips/step)."""
    print(f"{'run':>3} {'steps':>5} {'trips':>5} {'wall s':>7} {'device s':>8} {'floor s':>7} {'model s':>7} "
          f"{'wall ms/step':>12} {'device ms/step':>14} {'floor ms/step':>13} {'overhead ms/step':>16}")
    ratio, over, wall_ratio, trips = [], [], [], []
    for i, (m, floor) in enumerate(rows, 1):
        steps = m.outcome.steps
        calls = sum(m.device_calls.values())
        ratio.append(m.device_s / floor)
        over.append(m.overhead_s / steps * 1000)
        wall_ratio.append(m.wall_s / floor)
        trips.append(calls / steps)
        print(f"{i:>3} {steps:>5} {calls:>5} {m.wall_s:7.2f} {m.device_s:8.2f} {floor:7.2f} {m.model_s:7.2f} "
              f"{m.wall_s / steps * 1000:12.1f} {m.device_s / steps * 1000:14.1f} "
              f"{floor / steps * 1000:13.1f} {over[-1]:16.1f}")
    return (statistics.median(ratio), statistics.median(over), statistics.median(wall_ratio),
            statistics.median(trips))


def profiled(top: int) -> tuple[Callable[[Callable[[], object]], object], Callable[[], str]]:
    profile = cProfile.Profile()

    def wrap(call: Callable[[], object]) -> object:
        return profile.runcall(call)

    def report() -> str:
        out = io.StringIO()
        stats = pstats.Stats(profile, stream=out)
        stats.sort_stats("tottime").print_stats(top)
        return out.getvalue()

    return wrap, report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=20, help="operator turns per run (default 20)")
    parser.add_argument("--latency", type=float, default=0.0, help="model reply latency in s (default 0)")
    parser.add_argument("--runs", type=int, default=5, help="runs; the median is reported (default 5)")
    parser.add_argument("--in-process-sim", action="store_true", help="serve the sim in this process")
    parser.add_argument("--profile", action="store_true", help="cProfile the event loop of an extra run")
    args = parser.parse_args()
    rows: list[tuple[Measured, float]] = []
    report = None
    with sim_server(devices=2, in_process=args.in_process_sim) as server:
        for _ in range(args.runs):
            m = run_once(server, steps=args.steps, latency_s=args.latency, midway_checks=False)
            assert m.outcome.execution == "finished", m.outcome
            # The same calls, bare, on the twin phone (which has walked the same screens so far).
            rows.append((m, replay(server.host, server.port, server.serials[1], m.device_log)))
        if args.profile:  # an extra run: the profiler's own cost stays out of the figures above
            wrap, report_fn = profiled(25)
            run_once(server, steps=args.steps, latency_s=args.latency, midway_checks=False, wrap=wrap)
            report = report_fn()
        parts = breakdown(AdbDevice(server.serials[0], host=server.host, port=server.port))
    print(f"{args.steps} steps, model latency {args.latency:g} s/call, {args.runs} run(s), every step a new "
          f"screen, sim {'in process' if args.in_process_sim else 'in a separate process'}")
    ratio, over, wall_ratio, trips = _table(rows)
    names = ", ".join(f"{name} {count}" for name, count in sorted(rows[0][0].device_calls.items()))
    print(f"device round trips per step: {trips:.2f} (run 1: {names})")
    print(f"{'measure (median of runs)':<44} {'value':>9} {'target':>8}  verdict")
    for label, value, target, unit in (("device time / raw floor", ratio, TARGET_FLOOR, "x"),
                                       ("harness overhead per step", over, TARGET_MS, "ms")):
        print(f"{label:<44} {value:7.2f}{unit:<2} {'<= ' + format(target, 'g'):>8}  "
              f"{'met' if value <= target else 'MISSED'}")
    print(f"{'step wall / raw floor':<44} {wall_ratio:7.2f}x  {'-':>8}  (model latency included)")
    print("\nper-step harness CPU, each part timed in isolation (median of 20):")
    print(f"{'part':<52} {'ms/call':>7} {'x/step':>6} {'ms/step':>7}")
    for name, cost, count in parts:
        print(f"{name:<52} {cost:7.2f} {count:>6} {cost * count:7.2f}")
    inside = ("raw frame", "sha256", "parse_hier", "PNG of")  # inside Device calls, or off the step's path
    outside = sum(c * k for name, c, k in parts if not name.startswith(inside))
    print(f"{'sum on the step path outside device calls':<52} {'':>7} {'':>6} {outside:7.2f}")
    if report:
        print("\ncProfile of the event-loop thread (device calls and perceive run in worker threads):")
        print(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
