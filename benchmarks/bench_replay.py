"""Replay vs first run of the example suite: wall time and operator tokens, side by side.

The examples (``examples/``, unmodified test files) run twice on the simulated phone with
``--artemis-replay=auto`` into a fresh recordings directory: the first session records, the second
replays. Every model call — planner, operator and checker — answers after a seeded random latency of
``--min-latency``..``--max-latency`` seconds (default 1–3 s) and is charged the tokens a real provider
would count for it (about 4 characters a token for text, a flat ``--image-tokens`` per screenshot), so
the operator-token column is what replay saves. Checker calls still happen on replay (verdicts are
never replayed): with the rest of the runs' checking, they are the floor of a replayed run (see
docs/replay.md). The sessions run as a user's do, pytest's cache on: OCR (``artemis_ocr`` in the
examples' ini) reads a screenshot whose bytes it read before from ``.pytest_cache`` (a reading is a
function of the image; see docs/replay.md). Prints one row per test and the totals; targets: ≥ 5×
faster per run and 0 operator tokens on replay. No assertions: the figures are the result.

    python benchmarks/bench_replay.py [--min-latency 1] [--max-latency 3] [--image-tokens 765]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel

os.environ.setdefault("ADBUTILS_ADB_PATH", "/bin/true")
os.environ.setdefault("LITELLM_OFFLINE_MODE", "true")

from pytest_artemis.contracts import Role  # noqa: E402
from pytest_artemis.models import CallLog, ChatMessage, Model, ModelReply, ModelSet, RequestContext  # noqa: E402
from pytest_artemis.models.calls import CallFacts  # noqa: E402
from pytest_artemis.models.flow import logged_call  # noqa: E402

T = TypeVar("T", bound=BaseModel)
REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"

CONFTEST = '''
"""The examples' conftest for the replay benchmark: the demo model behind a latency and a token meter."""

import os

import pytest
from bench_replay import metered
from demo_agent import demo_models

from pytest_artemis.device.ocr import load_ocr


@pytest.fixture(scope="session", autouse=True)
def ocr_loaded():
    """Load the OCR engine (the examples' ``artemis_ocr``) before the first run, not in its wall time."""
    load_ocr("rapidocr")


@pytest.fixture
def artemis_model(request):
    env = os.environ
    return metered(demo_models(), float(env["BENCH_MIN_LATENCY"]), float(env["BENCH_MAX_LATENCY"]),
                   int(env["BENCH_IMAGE_TOKENS"]), int(env["BENCH_SEED"]), request.node.nodeid)
'''


class MeteredModel:
    """A model answering like ``inner`` after a provider-like latency, charged estimated tokens."""

    def __init__(self, inner: Model, latency: Callable[[], float], image_tokens: int) -> None:
        self.inner = inner
        self.name = "bench/metered"
        self._latency = latency
        self._image_tokens = image_tokens

    async def complete(self, role: Role, messages: Sequence[ChatMessage], schema: type[T], *,
                       context: RequestContext | None = None, calls: CallLog | None = None) -> ModelReply[T]:
        facts = CallFacts(role=role, model=self.name, scripted=True, cost_usd=0.0)

        async def body() -> T:
            await asyncio.sleep(self._latency())
            reply = await self.inner.complete(role, messages, schema, context=context, calls=None)
            facts.prompt_tokens = sum(len(m.text) // 4 + self._image_tokens * len(m.images) for m in messages)
            facts.completion_tokens = len(reply.value.model_dump_json()) // 4
            return reply.value

        return await logged_call(facts, calls, body)


def metered(models: ModelSet, low: float, high: float, image_tokens: int, seed: int, test: str) -> ModelSet:
    """``models`` with every role behind a seeded latency of ``low``..``high`` seconds and a token meter.

    Each role of each test draws from its own stream (seeded by ``seed``, ``test`` and the role): the
    checker's calls, made in the same order on the first run and on replay, take the same times in both,
    so the two columns differ by what replay saves and by no luck of the draw; different tests draw
    different times."""

    def wrap(model: Model, role: str) -> MeteredModel:
        rng = random.Random(f"{seed}:{test}:{role}")
        return MeteredModel(model, lambda: rng.uniform(low, high), image_tokens)

    return ModelSet(planner=wrap(models.planner, "planner"), operator=wrap(models.operator, "operator"),
                    checker=wrap(models.checker, "checker"))


@dataclass(frozen=True)
class Run:
    """One test's run, read back from its journal."""

    word: str
    wall_s: float
    steps: int
    replayed: int
    operator_calls: int
    operator_tokens: int
    checker_calls: int
    checker_s: float
    """Time inside checker calls (their latency; they overlap each other and the turns): never replayed."""
    turns_s: float
    """From the run's start to the end of its last turn (the plan, perception with OCR, actions)."""


def project(root: Path) -> Path:
    """A copy of the examples with the metered conftest."""
    target = root / "examples"
    shutil.copytree(EXAMPLES, target, ignore=shutil.ignore_patterns("__pycache__", ".artemis*"))
    (target / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    return target


def session(path: Path, env: dict[str, str]) -> tuple[float, dict[str, Run]]:
    """One ``pytest`` session of the examples with replay on; (wall seconds, runs by test name).

    ``xunit1`` keeps the ``artemis.*`` properties on each testcase, where this reads them."""
    xml = path / "junit.xml"
    argv = [sys.executable, "-m", "pytest", "-q", "--artemis-device=sim",
            "--artemis-replay=auto", f"--junitxml={xml}", "-o", "junit_family=xunit1", "."]
    started = time.perf_counter()
    subprocess.run(argv, cwd=path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - started
    return wall, read_runs(xml)


def read_runs(xml: Path) -> dict[str, Run]:
    import xml.etree.ElementTree as ET

    runs = {}
    for case in ET.parse(xml).getroot().iter("testcase"):
        props = {p.get("name"): p.get("value") for p in case.iter("property")}
        runs[case.get("name")] = journal_run(Path(props["artemis.artifacts"]), props["artemis.outcome"])
    return runs


def _lines(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def journal_run(run_dir: Path, word: str) -> Run:
    outcome = json.loads((run_dir / "outcome.json").read_text(encoding="utf-8"))
    steps = _lines(run_dir / "steps.jsonl")
    calls = _lines(run_dir / "model_calls.jsonl")
    operator = [c for c in calls if c["role"] == "operator"]
    return Run(word=word, wall_s=outcome["finished_at"] - outcome["started_at"], steps=len(steps),
               replayed=sum(1 for s in steps if s.get("replayed")), operator_calls=len(operator),
               operator_tokens=sum(c["prompt_tokens"] + c["completion_tokens"] for c in operator),
               checker_calls=sum(1 for c in calls if c["role"] == "checker"),
               checker_s=sum(c["latency_ms"] for c in calls if c["role"] == "checker") / 1000,
               turns_s=max((s["finished_at"] for s in steps), default=outcome["started_at"])
               - outcome["started_at"])


def long_path(
    root: Path, steps: int, low: float, high: float, image_tokens: int, seed: int
) -> dict[str, Run]:
    """The benchmarks' scripted Settings task (``simrun``) of ``steps`` turns with four model-judged checks,
    recorded then replayed, each on a fresh simulated phone (the same starting state)."""
    from simrun import SETTINGS, Script, checks_for
    from simserver import sim_server

    from pytest_artemis.contracts import TaskSpec, outcome_word
    from pytest_artemis.device import AdbDevice
    from pytest_artemis.engine import RunConfig, run_task
    from pytest_artemis.engine.replay import Replay
    from pytest_artemis.store import Redactor, RunHeader, RunJournal
    from pytest_artemis.store.recording import RecordingStore
    from pytest_artemis.testing import ScriptedModel

    node = "bench_replay.py::test_long_path"
    spec = TaskSpec(goal="Open the Display page and try brightness level after level", app=SETTINGS,
                    max_steps=steps, checks=checks_for(4), test_id=node)
    runs = {}
    for label in ("first", "replay"):
        with sim_server() as server:
            script = Script(steps=steps, subgoals=4, latency_s=0.0, checker_latency_s=0.0)
            scripted = ModelSet.uniform(ScriptedModel(script.respond))
            models = metered(scripted, low, high, image_tokens, seed, node)
            device = AdbDevice(server.serials[0], host=server.host, port=server.port, timeout_s=20.0)
            replay = Replay.open("auto", RecordingStore(root / "recordings"), node, spec.goal, Redactor())
            header = RunHeader(run_id=label, goal=spec.goal, checks=spec.checks)
            journal = RunJournal.create(root / label, header)
            outcome = run_task(spec, device, models, RunConfig(max_steps=steps), journal, replay=replay)
            replay.finish(outcome)
            runs[label] = journal_run(journal.dir, outcome_word(outcome))
    return runs


def table(first: dict[str, Run], second: dict[str, Run]) -> list[str]:
    head = (f"{'test':<34} {'word 1st→replay':<21} {'steps':>5} {'replayed':>8} {'wall 1st':>9} "
            f"{'wall replay':>11} {'speed-up':>8} {'op tokens 1st':>13} {'op tokens replay':>16} "
            f"{'checker calls':>13} {'checker s replay':>16} {'turns s replay':>14}")
    lines = [head, "-" * len(head)]
    for name, a in first.items():
        b = second[name]
        lines.append(f"{name:<34} {a.word + '→' + b.word:<21} {b.steps:>5} {b.replayed:>8} {a.wall_s:>8.1f}s "
                     f"{b.wall_s:>10.1f}s {a.wall_s / b.wall_s:>7.1f}× {a.operator_tokens:>13} "
                     f"{b.operator_tokens:>16} {a.checker_calls:>6}→{b.checker_calls:<6} "
                     f"{b.checker_s:>15.1f}s {b.turns_s:>13.1f}s")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--min-latency", type=float, default=1.0)
    parser.add_argument("--max-latency", type=float, default=3.0)
    parser.add_argument("--image-tokens", type=int, default=765, help="tokens charged per screenshot")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--steps", type=int, default=20, help="turns of the long scripted path")
    args = parser.parse_args()
    env = {**os.environ, "BENCH_MIN_LATENCY": str(args.min_latency),
           "BENCH_MAX_LATENCY": str(args.max_latency),
           "BENCH_IMAGE_TOKENS": str(args.image_tokens), "BENCH_SEED": str(args.seed),
           "ADBUTILS_ADB_PATH": "/bin/true", "LITELLM_OFFLINE_MODE": "true",
           "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), str(REPO / "benchmarks"),
                                                       os.environ.get("PYTHONPATH", "")]))}
    with tempfile.TemporaryDirectory(prefix="artemis-bench-replay-") as tmp:
        path = project(Path(tmp))
        first_wall, first = session(path, env)
        second_wall, second = session(path, env)
        long = long_path(Path(tmp), args.steps, args.min_latency, args.max_latency, args.image_tokens,
                         args.seed)
    print(f"examples/ on the simulated phone, every model call {args.min_latency:g}–{args.max_latency:g} s; "
          "first session records, second replays (--artemis-replay=auto)\n")
    print("\n".join(table(first, second)))
    run_first = sum(r.wall_s for r in first.values())
    run_second = sum(r.wall_s for r in second.values())
    tokens_first = sum(r.operator_tokens for r in first.values())
    tokens_second = sum(r.operator_tokens for r in second.values())
    same = all(first[n].word == second[n].word for n in first)
    print(f"\nruns total: {run_first:.1f} s first, {run_second:.1f} s replayed: "
          f"{run_first / run_second:.1f}× "
          f"(target ≥ 5×); sessions (pytest start-up and the simulator included): {first_wall:.1f} s vs "
          f"{second_wall:.1f} s, {first_wall / second_wall:.1f}×")
    checker_second = sum(r.checker_s for r in second.values())
    turns_second = sum(r.turns_s for r in second.values())
    print(f"the replayed runs: {turns_second:.1f} s of their {run_second:.1f} s up to the end of their last "
          f"turn (perception with OCR, actions), {run_second - turns_second:.1f} s after it (checks still "
          f"running, the final check, its screen); {checker_second:.1f} s inside checker calls (never "
          "replayed)")
    print(f"operator tokens: {tokens_first} first, {tokens_second} replayed (target 0); "
          f"same outcome words: {'yes' if same else 'NO'}")
    print(f"\nA longer path: the scripted {args.steps}-turn Settings task with four model-judged checks "
          "(benchmarks/simrun.py), recorded then replayed on a fresh simulated phone\n")
    print("\n".join(table({"long_path": long["first"]}, {"long_path": long["replay"]})))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
