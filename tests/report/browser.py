"""Headless Chromium driven over the DevTools protocol on a pipe (no port, no network, no extra package).

Chromium started with ``--remote-debugging-pipe`` reads NUL-terminated JSON commands on fd 3 and writes
replies and events on fd 4. ``Browser.open(url)`` loads a page and records every console error, uncaught
exception and failed load; ``Page.eval(js)`` runs script in the page and returns its JSON value.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--hide-scrollbars",
    "--allow-file-access-from-files",
)


class BrowserError(RuntimeError):
    """Chromium answered a command with an error, died, or did not answer in time."""


class Browser:
    """One headless Chromium process; use :func:`browser` to start and stop it."""

    def __init__(self, chromium: str, profile: Path, window: tuple[int, int]) -> None:
        cmd_r, self._cmd_w = os.pipe()
        self._res_r, res_w = os.pipe()

        def wire() -> None:  # in the child, before exec: the protocol's fixed descriptors
            os.dup2(cmd_r, 3)
            os.dup2(res_w, 4)

        argv = [
            chromium,
            *FLAGS,
            f"--user-data-dir={profile}",
            f"--window-size={window[0]},{window[1]}",
            "--remote-debugging-pipe",
            "about:blank",
        ]
        self.proc = subprocess.Popen(
            argv, preexec_fn=wire, pass_fds=(3, 4), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        os.close(cmd_r)
        os.close(res_w)
        self._next_id = 0
        self._buffer = b""
        self.events: list[dict[str, Any]] = []

    def _read_message(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or self.proc.poll() is not None:
                raise BrowserError("Chromium did not answer in time (or exited)")
            ready, _, _ = select.select([self._res_r], [], [], left)
            if ready:
                chunk = os.read(self._res_r, 1 << 20)
                if not chunk:
                    raise BrowserError("Chromium closed the DevTools pipe")
                self._buffer += chunk
        raw, _, self._buffer = self._buffer.partition(b"\0")
        message: dict[str, Any] = json.loads(raw)
        return message

    def send(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        *,
        session: str | None = None,
        timeout: float = 30.0,
    ) -> dict[str, Any]:
        """Send one command and wait for its reply; events arriving meanwhile are kept in ``events``."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._cmd_w, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error']}")
                result: dict[str, Any] = reply.get("result", {})
                return result
            self.events.append(reply)

    def wait_event(self, method: str, session: str, timeout: float = 30.0) -> dict[str, Any]:
        """The first event ``method`` of ``session`` not yet consumed."""
        deadline = time.monotonic() + timeout
        while True:
            for n, event in enumerate(self.events):
                if event.get("method") == method and event.get("sessionId") == session:
                    return self.events.pop(n)
            self.events.append(self._read_message(deadline))

    def open(self, url: str) -> Page:
        """A new tab showing ``url``, loaded (the load event fired)."""
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.send(f"{domain}.enable", session=session)
        self.send("Page.navigate", {"url": url}, session=session)
        self.wait_event("Page.loadEventFired", session)
        return Page(self, session)

    def close(self) -> None:
        with suppress(BrowserError):
            self.send("Browser.close", timeout=5)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._cmd_w)
        os.close(self._res_r)


class Page:
    """One loaded tab."""

    def __init__(self, browser: Browser, session: str) -> None:
        self.browser = browser
        self.session = session

    def eval(self, expression: str) -> Any:
        """Evaluate ``expression`` in the page (promises awaited) and return its value as JSON."""
        reply = self.browser.send(
            "Runtime.evaluate",
            {"expression": expression, "returnByValue": True, "awaitPromise": True},
            session=self.session,
        )
        if "exceptionDetails" in reply:
            raise BrowserError(f"script failed: {reply['exceptionDetails']}")
        return reply["result"].get("value")

    def key(self, key: str) -> None:
        """Press and release one key (``"j"``, ``"Escape"``, ``"ArrowRight"``) as a user would."""
        for kind in ("keyDown", "keyUp"):
            params = {"type": kind, "key": key, "code": key if len(key) > 1 else f"Key{key.upper()}"}
            if len(key) == 1 and kind == "keyDown":
                params["text"] = key
            self.browser.send("Input.dispatchKeyEvent", params, session=self.session)

    def errors(self) -> list[str]:
        """Console errors, uncaught exceptions and failed loads this page produced so far."""
        self.eval("0")  # a round trip, so events already sent are read
        found = []
        for event in self.browser.events:
            if event.get("sessionId") != self.session:
                continue
            params = event.get("params", {})
            method = event.get("method")
            if method == "Runtime.exceptionThrown":
                found.append(f"exception: {params['exceptionDetails'].get('text')}")
            elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                found.append(f"console.{params['type']}: {params.get('args')}")
            elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
                found.append(f"log: {params['entry'].get('text')} {params['entry'].get('url', '')}")
            elif method == "Network.loadingFailed":
                found.append(f"load failed: {params.get('errorText')}")
        return found

    def requests(self) -> list[str]:
        """URLs of every request the page made (to prove nothing leaves the machine)."""
        return [
            e["params"]["request"]["url"]
            for e in self.browser.events
            if e.get("sessionId") == self.session and e.get("method") == "Network.requestWillBeSent"
        ]


@contextmanager
def browser(window: tuple[int, int] = (1280, 1000)) -> Iterator[Browser]:
    """A headless Chromium for the block (skip the caller when Chromium is not installed)."""
    assert CHROMIUM is not None, "chromium is not installed"
    with tempfile.TemporaryDirectory(prefix="artemis-chromium-") as profile:
        chrome = Browser(CHROMIUM, Path(profile), window)
        try:
            yield chrome
        finally:
            chrome.close()
