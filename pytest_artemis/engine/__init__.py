"""The run engine: one call runs a task on a device and returns a RunOutcome (knows nothing of pytest)."""

from .config import RunConfig
from .observer import NullObserver, RunObserver
from .run import run_task, run_task_async

__all__ = ["NullObserver", "RunConfig", "RunObserver", "run_task", "run_task_async"]
