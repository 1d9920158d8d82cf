"""The model layer: one typed interface for every role over litellm, plus a scripted model for tests.

Importing this package never imports litellm (it is loaded on the first real call).
"""

from .base import ChatMessage, ImagePart, Model, ModelReply, ModelSet, RequestContext
from .calls import CallFacts, CallLog
from .errors import (
    ModelContextExceeded,
    ModelOutputInvalid,
    ModelRequestsBlocked,
    ModelUnavailable,
    ScriptExhausted,
)
from .litellm_model import LiteLLMModel, block_model_requests, model_requests_allowed
from .scripted import ScriptedModel, ScriptedReply, ScriptedRequest

__all__ = [
    "CallFacts",
    "CallLog",
    "ChatMessage",
    "ImagePart",
    "LiteLLMModel",
    "Model",
    "ModelContextExceeded",
    "ModelOutputInvalid",
    "ModelReply",
    "ModelRequestsBlocked",
    "ModelSet",
    "ModelUnavailable",
    "RequestContext",
    "ScriptExhausted",
    "ScriptedModel",
    "ScriptedReply",
    "ScriptedRequest",
    "block_model_requests",
    "model_requests_allowed",
]
