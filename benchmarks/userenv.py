"""A user's pytest environment for the session benchmarks: the dev-only plugins off, the loaded ones named."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile

#: pytest11 entry points installed by this project's dev extra only (a user's environment lacks them);
#: hypothesis alone costs about 0.6 s per session start.
DEV_ONLY = ("hypothesispytest", "rerunfailures")


def pytest_argv(*args: str, cache: bool = False) -> list[str]:
    """``python -m pytest`` without the dev-only plugins (and the cache plugin unless ``cache``), then
    ``args``."""
    names = DEV_ONLY if cache else (*DEV_ONLY, "cacheprovider")
    off = [arg for name in names for arg in ("-p", f"no:{name}")]
    return [sys.executable, "-m", "pytest", *off, *args]


def env() -> dict[str, str]:
    """The environment of a benchmark session (offline litellm; adbutils never spawns an adb server)."""
    return {**os.environ, "ADBUTILS_ADB_PATH": "/bin/true", "LITELLM_OFFLINE_MODE": "true"}


def loaded_plugins() -> str:
    """The ``plugins:`` line pytest prints with these arguments (what the measured sessions load), from a
    session in an empty directory."""
    with tempfile.TemporaryDirectory(prefix="artemis-bench-plugins-") as empty:
        proc = subprocess.run(pytest_argv("--collect-only"), cwd=empty, env=env(), capture_output=True,
                              text=True, timeout=120)
    found = re.search(r"^plugins: (.*)$", proc.stdout, re.MULTILINE)
    return found.group(1) if found else f"(no plugins line: {proc.stdout[-300:]!r})"


def describe() -> str:
    """One line for a benchmark's header: interpreter, pytest's loaded plugins, what was turned off."""
    return (f"python {sys.version.split()[0]}; pytest plugins loaded: {loaded_plugins()}; "
            f"turned off: {', '.join(DEV_ONLY)} (dev-only)")
