"""Fixtures of the fault matrix: pytester projects on the simulated phone, with a handle on the phone."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

_TESTS = Path(__file__).resolve().parents[1]
for _shared in (_TESTS / "plugin", _TESTS / "models", Path(__file__).resolve().parent):
    # plugin_helpers (JUnit parsing) and fake_openai_server are reused, not copied.
    if str(_shared) not in sys.path:
        sys.path.insert(0, str(_shared))

import fault_scripts  # noqa: E402
from fault_harness import SCRIPTED_CONFTEST  # noqa: E402

import pytest_artemis.sim  # noqa: E402

if TYPE_CHECKING:
    from brain_server import BrainServer


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    """A pytester project whose test modules script every role with ``respond(request, device)``.

    In-process runs start the plugin's simulated phone through ``RecordingSimServer``, so the test (and
    the scripted replies) can reach the phone handle: ``fault_scripts.sim_phone(serial)``.
    """
    monkeypatch.setattr(pytest_artemis.sim, "SimServer", fault_scripts.RecordingSimServer)
    fault_scripts.SERVERS.clear()
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).resolve().parent))  # for subprocess runs
    pytester.makeconftest(SCRIPTED_CONFTEST)
    pytester.makeini("[pytest]\njunit_logging = system-out\n")
    return pytester


@pytest.fixture(scope="session")
def litellm_warm() -> None:
    """One real LiteLLM call before any in-process run: pytester unloads modules first imported inside a
    run, and some of litellm's compiled dependencies cannot be imported twice in one process."""
    import asyncio

    from brain_server import BrainServer, settings_brain

    from pytest_artemis.agents.schemas import PlanReply
    from pytest_artemis.models import ChatMessage, LiteLLMModel

    with BrainServer(settings_brain) as server:
        for stream in (False, True):
            model = LiteLLMModel("openai/warm-up", api_base=server.api_base, api_key="sk-warm-up",
                                 stream=stream)
            asyncio.run(model.complete("planner", [ChatMessage("user", "Goal: warm up")], PlanReply))


@pytest.fixture
def brain(litellm_warm: None) -> Iterator[BrainServer]:
    """A loopback OpenAI-compatible server; set ``brain.brain`` to choose its replies."""
    from brain_server import BrainServer, settings_brain

    with BrainServer(settings_brain) as server:
        yield server
