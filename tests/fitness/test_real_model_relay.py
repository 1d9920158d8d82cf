"""The kit through a local OpenAI-compatible relay answering from a recorded real-model session
(``tests/real_model/sessions/run1``, from ``../shared/real-model``): it scores what the recording deserves.

The recorded model reached all four goals of that session (the operator part's goals are those four), so it
is fit as operator. As checker the recording holds answers only to the questions it was asked: the kit's
``wifi-off`` case asks exactly its last test's (the relay answers by the items a request lists), and those
verdicts, grounded by the real harness, are right; every other case gets no answer from the recording (an
empty reply, or another question's), so it is unfit as checker, with no false pass."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fitness_runs import run_cli
from relay_process import replaying

REAL_MODEL = Path(__file__).resolve().parents[1] / "real_model"


@pytest.fixture
def relay(tmp_path: Path) -> Iterator[str]:
    with replaying(REAL_MODEL / "sessions" / "run1" / "transcript", tmp_path / "relay") as api_base:
        yield api_base


def test_the_recorded_session_scores_what_it_deserves(relay, tmp_path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("ADBUTILS_ADB_PATH", "/bin/true")
    monkeypatch.setenv("LITELLM_OFFLINE_MODE", "true")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.chdir(tmp_path)
    run = run_cli(["--model", "openai/relay", "--api-base", relay], tmp_path / "out")
    operator, checker = run.report.operator, run.report.checker
    assert operator is not None and checker is not None
    assert operator.fitness == "fit" and operator.reached == len(operator.goals) == 4, run.printed
    assert all(g.claimed and g.refused == 0 for g in operator.goals)
    assert operator.usage.cost_usd is None and operator.cost_per_step_usd is None  # unpriced: unknown
    assert operator.usage.tokens == 1100 * operator.usage.requests  # what the relay reports per reply
    answered = next(c for c in checker.cases if c.name == "wifi-off")
    assert [(i.kind, i.said, i.outcome) for i in answered.items] == [("goal", "passed", "right"),
                                                                     ("assert", "passed", "right")]
    others = [i for c in checker.cases if c.name != "wifi-off" for i in c.items]
    assert {i.said for i in others} == {"none"}  # nothing in the recording answers them
    assert checker.counts.false_passes_stood == checker.counts.false_passes_blocked == 0
    assert checker.fitness == "unfit" and checker.usage.requests <= checker.request_budget
    assert run.report.verdict == "openai/relay: fit as operator, unfit as checker"


@pytest.fixture
def fit1_relay(tmp_path: Path) -> Iterator[str]:
    """The relay answering from ``sessions/fit1``: a model that saw only the kit's own requests."""
    with replaying(REAL_MODEL / "sessions" / "fit1" / "transcript", tmp_path / "relay") as api_base:
        yield api_base


@pytest.mark.slow
def test_a_session_recorded_on_the_kit_itself_scores_as_the_model_answered(fit1_relay, tmp_path, monkeypatch):
    """``sessions/fit1``: a model that saw only the kit's requests reached every goal and judged 27 of 32
    items right with no false pass; the 5 it missed are one case whose verdicts it never gave (it asked for
    evidence a third time, before the prompt said how many times it may). Replayed, the kit scores just
    that."""
    monkeypatch.setenv("ADBUTILS_ADB_PATH", "/bin/true")
    monkeypatch.setenv("LITELLM_OFFLINE_MODE", "true")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.chdir(tmp_path)
    run = run_cli(["--model", "openai/relay", "--api-base", fit1_relay], tmp_path / "out")
    operator, checker = run.report.operator, run.report.checker
    assert operator is not None and checker is not None
    assert operator.fitness == "fit" and operator.reached == 4, run.printed
    counts = checker.counts
    assert (counts.right, counts.false_passes_stood, counts.false_passes_blocked) == (27, 0, 0), run.printed
    missed = [i for c in checker.cases for i in c.items if i.outcome != "right"]
    assert {c.name for c in checker.cases if any(i in missed for i in c.items)} == {"alarm"}
    assert all(i.said == "none" for i in missed)
