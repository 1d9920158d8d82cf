"""Public test helpers: a scripted model for offline runs and a kill switch for real model requests.

``ScriptedModel(respond)`` answers every role from a function of the request (sync or async);
``ScriptedModel.from_replies(planner=[…], operator=[…], checker=[…])`` answers from per-role lists.
Typed replies are used as is; raw JSON text, dicts and ``ScriptedReply`` take the same parsing, validation
and terminal-evidence path as a real model's output (so ``ScriptedModel.truncated('{"actions": [')`` fails
the call and executes nothing). ``block_model_requests()`` — or ``ARTEMIS_ALLOW_MODEL_REQUESTS=0`` — makes
every real ``LiteLLMModel`` call raise ``ModelRequestsBlocked`` before any network I/O.
"""

from pytest_artemis.models.errors import ModelRequestsBlocked, ModelUnavailable, ScriptExhausted
from pytest_artemis.models.litellm_model import block_model_requests, model_requests_allowed
from pytest_artemis.models.scripted import ScriptedModel, ScriptedReply, ScriptedRequest

__all__ = [
    "ModelRequestsBlocked",
    "ModelUnavailable",
    "ScriptExhausted",
    "ScriptedModel",
    "ScriptedReply",
    "ScriptedRequest",
    "block_model_requests",
    "model_requests_allowed",
]
