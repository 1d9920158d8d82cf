"""``python -m pytest_artemis.sim --devices 2 --port 5038``: serve simulated
phones until SIGINT/SIGTERM."""

from __future__ import annotations

import argparse
import signal
import sys
import threading

from .server import SimServer


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, start the server, print its address and serials, wait for a signal."""
    parser = argparse.ArgumentParser(prog="python -m pytest_artemis.sim",
                                     description="Simulated Android phones behind an ADB server.")
    parser.add_argument("--devices", type=int, default=1, help="number of phones (default 1)")
    parser.add_argument("--host", default="127.0.0.1", help="bind address (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=5037, help="port (0 = ephemeral; default 5037)")
    parser.add_argument("--seed", type=int, default=0, help="determinism seed (default 0)")
    parser.add_argument("--width", type=int, default=1080)
    parser.add_argument("--height", type=int, default=2400)
    args = parser.parse_args(argv)
    server = SimServer(devices=args.devices, seed=args.seed, host=args.host, port=args.port,
                       width=args.width, height=args.height)
    done = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: done.set())
    with server:
        print(f"pytest-artemis sim: ADB server on {server.address}", flush=True)
        for serial in server.serials:
            print(f"{serial}\tdevice", flush=True)
        done.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
