"""Live progress with ``-v``: one terminal line per step (the decision, then the actions) and per verdict."""

from __future__ import annotations

import contextlib
from collections.abc import Callable

import pytest

from pytest_artemis.contracts import CheckVerdict, RunOutcome, StepRecord, TaskSpec


def _short(text: str, limit: int = 70) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def verdict_words(verdict: CheckVerdict) -> str:
    """What a verdict says: its evidence, then why it is not a plain verdict (``[reason]``); the reason
    alone when nothing was observed (an unchecked item has no evidence, only why)."""
    if not verdict.evidence:
        return verdict.reason or "no evidence recorded"
    return f"{verdict.evidence} [{verdict.reason}]" if verdict.reason else verdict.evidence


class Progress:
    """Writes ``[artemis]`` lines through the terminal reporter, outside output capture."""

    def __init__(self, config: pytest.Config, redact: Callable[[str], str] = str) -> None:
        self._redact = redact
        self._reporter = config.pluginmanager.get_plugin("terminalreporter")
        self._capture = config.pluginmanager.get_plugin("capturemanager")
        # Under xdist a worker's terminal goes nowhere; the controller shows the words.
        self.enabled = (
            config.get_verbosity() >= 1 and self._reporter is not None and not hasattr(config, "workerinput")
        )

    def _write(self, text: str) -> None:
        if not self.enabled or self._reporter is None:
            return
        suspended = self._capture.global_and_fixture_disabled() if self._capture else contextlib.nullcontext()
        with suspended:
            self._reporter.write_line(self._redact(f"    [artemis] {text}"))

    def start(self, spec: TaskSpec, serial: str) -> None:
        self._write(f"run on {serial}: {_short(spec.goal)} ({len(spec.checks)} checks)")

    def step(self, step: StepRecord) -> None:
        done = []
        for result in step.results:
            label = result.detail or result.action.kind
            mark = "refused" if result.refused else ("ok" if result.ok else "failed")
            done.append(f"{_short(label, 40)} [{mark}]")
        actions = "; ".join(done) or ", ".join(a.kind for a in step.actions) or "no action"
        flags = f" {{{', '.join(step.flags)}}}" if step.flags else ""
        replayed = ", replayed" if step.replayed else ""
        # The operator's decision first: it says why, the actions only what was done.
        decided = f"{_short(step.decision, 60)!r} -> " if step.decision.strip() else ""
        self._write(f"step {step.step} ({step.turn}{replayed}): {decided}{actions}{flags}")

    def verdict(self, verdict: CheckVerdict) -> None:
        kind = {"assert": "assert_", "goal": "goal"}.get(verdict.kind, "verify")
        self._write(f"{verdict.status.upper()} {kind} {_short(verdict.item_text, 50)!r}: "
                    f"{_short(verdict_words(verdict), 60)}")

    def note(self, text: str) -> None:
        """A line about the run that is not a step or a verdict (e.g. what replay did)."""
        self._write(text)

    def finish(self, outcome: RunOutcome, word: str) -> None:
        self._write(f"{word}: task {outcome.task.status}, {outcome.steps} steps, "
                    f"{outcome.usage.tokens} tokens")
