"""The checker part through litellm, end to end: a keyless local OpenAI-compatible server answering valid
replies, scored by the real harness; tokens counted, the unknown price unknown, and no key in any output."""

from __future__ import annotations

import pytest
from fitness_runs import run_cli
from verdict_server import USAGE, VerdictServer

from pytest_artemis.fitness.cases import CASES

SECRET = "sk-fitness-never-written-0123456789"


def _items(truth: str | None = None) -> int:
    return sum(1 for case in CASES for c in (case.truth_of(case.goal), *case.claims)
               if truth is None or c.truth == truth)


def test_a_local_server_scores_through_litellm(tmp_path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("ADBUTILS_ADB_PATH", "/bin/true")
    monkeypatch.setenv("LITELLM_OFFLINE_MODE", "true")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("ARTEMIS_API_KEY", raising=False)
    monkeypatch.chdir(tmp_path)
    with VerdictServer() as server:
        run = run_cli(["--checker-model", "openai/local", "--api-base", server.api_base], tmp_path / "out")
    assert run.code == 1, run.printed + run.errors  # an "inconclusive" to everything is unfit
    report = run.report
    checker = report.checker
    assert report.operator is None and checker is not None  # only the checker part was asked for
    assert report.models.checker == "openai/local" and report.models.api_base == server.api_base
    assert len(server.bodies) == checker.usage.requests == len(CASES)
    assert {h.get("authorization") for h in server.headers} == {"Bearer no-key"}  # a keyless local server
    assert checker.counts.right == _items("unsettled")
    assert checker.counts.false_unchecked_hedged == _items() - _items("unsettled")
    assert checker.invalid_replies == 0 and checker.counts.false_passes_stood == 0
    assert checker.usage.tokens == len(CASES) * sum(USAGE)
    assert checker.usage.cost_usd is None  # an unpriced model's cost is unknown, never $0
    assert "unknown" in (run.out / "fitness.html").read_text(encoding="utf-8")


def test_a_configured_key_is_sent_and_never_written(tmp_path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("ADBUTILS_ADB_PATH", "/bin/true")
    monkeypatch.setenv("ARTEMIS_API_KEY", SECRET)  # the plugin's own variable, read the plugin's way
    monkeypatch.chdir(tmp_path)
    with VerdictServer() as server:
        run = run_cli(["--artemis-checker-model", "openai/local", "--api-base", server.api_base],
                      tmp_path / "out")
    assert run.report.checker is not None and run.report.checker.usage.requests == len(CASES)
    assert {h.get("authorization") for h in server.headers} == {f"Bearer {SECRET}"}
    written = [p for p in run.out.rglob("*")
               if p.is_file() and p.suffix in (".json", ".jsonl", ".html", ".md")]
    assert len(written) > len(CASES) and not any(SECRET in p.read_text(encoding="utf-8") for p in written)
    assert SECRET not in run.printed + run.errors
