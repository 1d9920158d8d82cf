"""The acting half and its one entry point: ``run_task`` runs a task on a device and returns a RunOutcome
(knows nothing of pytest). The names load on first use, so the checking half can import the run's state
without importing the run."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .config import RunConfig
    from .observer import NullObserver, RunObserver
    from .run import run_task, run_task_async

_LAZY = {"RunConfig": "config", "NullObserver": "observer", "RunObserver": "observer", "run_task": "run",
         "run_task_async": "run"}

__all__ = ["NullObserver", "RunConfig", "RunObserver", "run_task", "run_task_async"]


def __getattr__(name: str) -> object:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    globals()[name] = value
    return value
