"""The run engine: one call runs a task on a device and returns a RunOutcome (knows nothing of pytest)."""
