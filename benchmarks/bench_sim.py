"""Latency of the simulator through the real adbutils client.

    ADBUTILS_ADB_PATH=/bin/true python benchmarks/bench_sim.py [--iterations 50]

Prints median and p90 for adbutils' own ``screenshot()`` and ``dump_hierarchy()``,
for ``AdbDevice.screenshot()``/``hierarchy()`` (the project's path: one ``exec:``
connection each, no ``host:version``, no close sleep) and for the bare
one-connection ``exec:`` service, on an unchanged screen (served from the render
cache) and on a screen changed before every call (re-rendered). adbutils' own
calls open two connections per call (``host:version`` first) and sleep 10 ms in
each ``close()``.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import time

os.environ.setdefault("ADBUTILS_ADB_PATH", "/bin/true")

import adbutils  # noqa: E402  (must see ADBUTILS_ADB_PATH first)

from pytest_artemis.device import AdbDevice  # noqa: E402
from pytest_artemis.sim import SimServer  # noqa: E402


def _stats(samples: list[float]) -> str:
    ms = sorted(s * 1000 for s in samples)
    p90 = ms[min(len(ms) - 1, int(len(ms) * 0.9))]
    return f"median {statistics.median(ms):6.1f} ms   p90 {p90:6.1f} ms"


def _timed(fn, n: int, before=None) -> list[float]:
    out = []
    for i in range(n):
        if before:
            before(i)
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def _raw_exec(server: SimServer, cmd: str) -> None:
    with socket.create_connection((server.host, server.port)) as s:
        for req in ("host:transport:emulator-5554", f"exec:{cmd}"):
            s.sendall(f"{len(req):04x}{req}".encode())
            assert s.recv(4, socket.MSG_WAITALL) == b"OKAY"
        while s.recv(1 << 20):
            pass


def main() -> None:
    """Run the benchmark and print a table."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--iterations", type=int, default=50)
    n = parser.parse_args().iterations
    with SimServer(devices=1) as server:
        d = adbutils.AdbClient(host=server.host, port=server.port).device("emulator-5554")
        d.app_start("com.android.settings", ".Settings")
        d.screenshot(error_ok=False)

        def change(i: int) -> None:
            # Act through ADB, as an agent does before observing.
            d.shell(f"settings put global bluetooth_on {i % 2}")

        ours = AdbDevice("emulator-5554", host=server.host, port=server.port)
        rows = [
            ("adbutils screenshot, unchanged", _timed(lambda: d.screenshot(error_ok=False), n)),
            ("adbutils screenshot, changed", _timed(lambda: d.screenshot(error_ok=False), n, change)),
            ("AdbDevice.screenshot, unchanged", _timed(ours.screenshot, n)),
            ("AdbDevice.screenshot, changed", _timed(ours.screenshot, n, change)),
            ("raw exec:screencap -p, unchanged", _timed(lambda: _raw_exec(server, "screencap -p"), n)),
            ("raw exec:screencap -p, changed", _timed(lambda: _raw_exec(server, "screencap -p"), n, change)),
            ("adbutils dump_hierarchy, changed", _timed(d.dump_hierarchy, n, change)),
            ("AdbDevice.hierarchy, changed", _timed(ours.hierarchy, n, change)),
            ("raw exec:uiautomator dump /dev/tty, changed",
             _timed(lambda: _raw_exec(server, "uiautomator dump /dev/tty"), n, change)),
        ]
    print(f"{n} iterations, 1080x2400")
    for name, samples in rows:
        print(f"{name:<44} {_stats(samples)}")


if __name__ == "__main__":
    main()
