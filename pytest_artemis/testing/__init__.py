"""Everything for offline tests: scripted models, the replies they return, and a scripted agent.

``scripted_agent(tap("Network & internet"), tap("Airplane mode"), finish(),
goal=on_screen("Airplane mode", checked=True))`` scripts a run by what a user sees: each step is resolved
against the screen of its turn, and the ``HonestChecker`` judges text checks and the goal only by citing
the recorded screens (probe checks run as in every run).
``ScriptedModel(respond)`` answers every role from a function of the request (sync or async), for full
control; ``ScriptedModel.from_replies(planner=[…], operator=[…], checker=[…])`` answers from per-role lists.
Typed replies are used as is; raw JSON text, dicts and ``ScriptedReply`` take the same parsing, validation
and terminal-evidence path as a real model's output (so ``ScriptedModel.truncated('{"actions": [')`` fails
the call and executes nothing). ``block_model_requests()`` — or ``ARTEMIS_ALLOW_MODEL_REQUESTS=0`` — makes
every real ``LiteLLMModel`` call raise ``ModelRequestsBlocked`` before any network I/O.
"""

from pytest_artemis.agents.schemas import (
    CheckReport,
    CitationClaim,
    ModelVerdict,
    OperatorDecision,
    PlanReply,
    ToolRequest,
)
from pytest_artemis.checking.facts import quotes
from pytest_artemis.contracts import (
    Action,
    EvidenceScreen,
    Finish,
    GiveUp,
    Key,
    Launch,
    LongPress,
    Scroll,
    Swipe,
    Tap,
    TypeSecret,
    TypeText,
    Wait,
)
from pytest_artemis.models.errors import ModelRequestsBlocked, ModelUnavailable, ScriptExhausted
from pytest_artemis.models.kill_switch import block_model_requests, model_requests_allowed
from pytest_artemis.models.scripted import ScriptedModel, ScriptedReply, ScriptedRequest

from .agent import ScriptedOperator, scripted_agent
from .checker import HonestChecker, OnScreen, citations_for, on_screen
from .steps import (
    Step,
    back,
    finish,
    give_up,
    home,
    launch,
    long_press,
    press,
    tap,
    type_secret,
    type_text,
    wait,
)

__all__ = [
    "Action",
    "CheckReport",
    "CitationClaim",
    "EvidenceScreen",
    "Finish",
    "GiveUp",
    "HonestChecker",
    "Key",
    "Launch",
    "LongPress",
    "ModelRequestsBlocked",
    "ModelUnavailable",
    "ModelVerdict",
    "OnScreen",
    "OperatorDecision",
    "PlanReply",
    "ScriptExhausted",
    "ScriptedModel",
    "ScriptedOperator",
    "ScriptedReply",
    "ScriptedRequest",
    "Scroll",
    "Step",
    "Swipe",
    "Tap",
    "ToolRequest",
    "TypeSecret",
    "TypeText",
    "Wait",
    "back",
    "block_model_requests",
    "citations_for",
    "finish",
    "give_up",
    "home",
    "launch",
    "long_press",
    "model_requests_allowed",
    "on_screen",
    "press",
    "quotes",
    "scripted_agent",
    "tap",
    "type_secret",
    "type_text",
    "wait",
]
