"""Harness overhead per step: wall time minus device time minus (known) model time, on the simulated phone.

    python benchmarks/bench_overhead.py [--steps 20] [--latency 0.5] [--runs 2] [--in-process-sim] [--profile]

A scripted model whose every reply is ``await asyncio.sleep(latency)`` drives the simulated phone
(SimServer, in a separate process by default, as a real phone would be) through ``run_task`` for N steps.
Device time is the wall time spent inside Device calls (a timing proxy around ``AdbDevice``: it includes
the client-side PNG decode and hierarchy parse). Overhead = wall − device − model, per step and as a share
of wall time. The breakdown table times each per-step harness part in isolation on a real captured screen;
``--profile`` adds a cProfile of the event-loop thread (top functions by own time).
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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from simrun import Measured, run_once
from simserver import sim_server

from pytest_artemis.contracts import ActionResult, Scroll, StepRecord
from pytest_artemis.device import AdbDevice
from pytest_artemis.device.hierarchy import parse_hierarchy
from pytest_artemis.device.perception import Screen, meaningful, model_jpeg
from pytest_artemis.store.journal import RunHeader, RunJournal

TARGET_MS, TARGET_SHARE = 15.0, 2.0


def _ms(fn: Callable[[], object], repeat: int = 20) -> float:
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples) * 1000


def breakdown(device: AdbDevice, *, image_max_side: int = 1280) -> list[tuple[str, float, int]]:
    """(part, ms per call, calls per step) for the per-step harness CPU work, timed in isolation."""
    from PIL import Image

    capture = device.screenshot()
    hierarchy = device.hierarchy()
    screen = Screen(view=_view(device, capture, hierarchy), capture=capture, hierarchy_xml=hierarchy.xml)
    root = Path(tempfile.mkdtemp(prefix="artemis-bench-breakdown-"))
    journal = RunJournal.create(root, RunHeader(run_id="breakdown", goal="g", device=device.serial))
    step = StepRecord(step=1, turn="act", pre_screen=capture.sha256, post_screen=capture.sha256,
                      hierarchy="x.xml", foreground="com.android.settings", decision="scroll the list",
                      actions=(Scroll(direction="down"),),
                      results=(ActionResult(action=Scroll(direction="down"), ok=True, detail="scroll down"),),
                      plan_version=1, started_at=time.time(), finished_at=time.time())

    def verify_png() -> None:
        with Image.open(io.BytesIO(capture.png)) as img:
            img.verify()

    def fresh_model_image() -> None:
        # a new content hash each call, so the JPEG cache is bypassed and the real work is timed
        model_jpeg(capture.png, str(next(counter)), image_max_side)

    counter = iter(range(10**9))
    return [
        ("PNG CRC check (AdbDevice.screenshot)", _ms(verify_png), 2),
        ("sha256 of the PNG (Capture + put_screen)", _ms(lambda: hashlib.sha256(capture.png).digest()), 4),
        ("parse_hierarchy (AdbDevice.hierarchy)", _ms(lambda: parse_hierarchy(hierarchy.xml)), 1),
        ("meaningful() + ScreenView (perceive)", _ms(lambda: _view(device, capture, hierarchy, app="x")), 1),
        ("model JPEG, uncached (PNG decode+reduce+JPEG)", _ms(fresh_model_image), 1),
        ("Screen.prompt_listing", _ms(screen.prompt_listing), 1),
        ("journal.put_screen, new file (hash+write)",
         _ms(lambda: journal.put_screen(capture.png + next(counter).to_bytes(8, "big"))), 2),
        ("journal.put_blob(xml), new file (redact+hash+write)",
         _ms(lambda: journal.put_blob(hierarchy.xml + str(next(counter)), "xml")), 1),
        ("journal.append_step", _ms(lambda: journal.append_step(step)), 1),
    ]


def _view(device: AdbDevice, capture, hierarchy, app: str | None = None):  # type: ignore[no-untyped-def]
    from pytest_artemis.contracts import ScreenView

    return ScreenView(screenshot=capture.sha256, width=capture.width, height=capture.height,
                      foreground=app or device.current_app(), elements=meaningful(hierarchy.elements))


def _table(rows: list[Measured], title: str) -> tuple[float, float]:
    """Print one row per run; returns the median overhead (ms/step, % of wall)."""
    print(f"-- {title}")
    print(f"{'run':>3} {'steps':>5} {'calls':>5} {'wall s':>7} {'device s':>8} {'model s':>7} "
          f"{'overhead s':>10} {'ms/step':>7} {'% wall':>6}")
    per_step, share = [], []
    for i, m in enumerate(rows, 1):
        steps = m.outcome.steps
        per_step.append(m.overhead_s / steps * 1000)
        share.append(m.overhead_s / m.wall_s * 100)
        print(f"{i:>3} {steps:>5} {sum(m.model_calls.values()):>5} {m.wall_s:7.2f} {m.device_s:8.2f} "
              f"{m.model_s:7.2f} {m.overhead_s:10.3f} {per_step[-1]:7.1f} {share[-1]:6.2f}")
    return statistics.median(per_step), statistics.median(share)


@contextmanager
def _stub_model_image(active: bool) -> Iterator[None]:
    """Counterfactual: replace the per-step JPEG (decode, resize, encode) by a constant image."""
    if not active:
        yield
        return
    fixed = b"\xff\xd8\xff\xd9"
    original = Screen.model_image
    Screen.model_image = lambda self, max_side=1280: fixed  # type: ignore[method-assign]
    try:
        yield
    finally:
        Screen.model_image = original  # type: ignore[method-assign]


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
    parser.add_argument("--latency", type=float, default=0.5, help="model reply latency in s (default 0.5)")
    parser.add_argument("--runs", type=int, default=2, help="runs; the median is reported (default 2)")
    parser.add_argument("--in-process-sim", action="store_true", help="serve the sim in this process")
    parser.add_argument("--profile", action="store_true", help="cProfile the event-loop thread of run 1")
    args = parser.parse_args()
    rows: list[Measured] = []
    stubbed_rows: list[Measured] = []
    report = None
    with sim_server(devices=1, in_process=args.in_process_sim) as server:
        for _ in range(args.runs):
            for stubbed in (False, True):
                with _stub_model_image(stubbed):
                    m = run_once(server, steps=args.steps, latency_s=args.latency, midway_checks=False)
                assert m.outcome.execution == "finished", m.outcome
                (stubbed_rows if stubbed else rows).append(m)
        if args.profile:  # an extra run: the profiler's own cost stays out of the figures above
            wrap, report_fn = profiled(25)
            run_once(server, steps=args.steps, latency_s=args.latency, midway_checks=False, wrap=wrap)
            report = report_fn()
        parts = breakdown(AdbDevice(server.serials[0], host=server.host, port=server.port))
    print(f"{args.steps} steps, model latency {args.latency:g} s/call, {args.runs} run(s), "
          f"sim {'in process' if args.in_process_sim else 'in a separate process'}")
    ms, pct = _table(rows, "as shipped")
    stub_ms, stub_pct = _table(stubbed_rows, "Screen.model_image stubbed (returns a fixed JPEG)")
    device_ms = statistics.median(m.device_s / m.outcome.steps * 1000 for m in rows)
    print(f"device calls per run: {rows[0].device_calls}; device time {device_ms:.0f} ms/step")
    print(f"overhead {ms:.1f} ms/step (target <= {TARGET_MS:g}): {'met' if ms <= TARGET_MS else 'MISSED'}; "
          f"{pct:.2f} % of wall (target <= {TARGET_SHARE:g} %): {'met' if pct <= TARGET_SHARE else 'MISSED'}")
    print(f"without the model image: {stub_ms:.1f} ms/step, {stub_pct:.2f} % of wall "
          f"(the JPEG costs {ms - stub_ms:.1f} ms/step)")
    print("\nper-step harness CPU, each part timed in isolation (median of 20):")
    print(f"{'part':<52} {'ms/call':>7} {'x/step':>6} {'ms/step':>7}")
    for name, cost, count in parts:
        print(f"{name:<52} {cost:7.2f} {count:>6} {cost * count:7.2f}")
    outside = sum(c * k for name, c, k in parts if not name.startswith(("PNG full", "parse_hier")))
    print(f"{'sum outside device calls':<52} {'':>7} {'':>6} {outside:7.2f}")
    if report:
        print("\ncProfile of the event-loop thread (device calls and perceive run in worker threads):")
        print(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
