"""The model layer: one typed interface for every role over litellm, plus a scripted model for tests.

Importing this package never imports litellm (it is loaded on the first real call).
"""

from .base import ChatMessage, ImagePart, Model, ModelReply, ModelSet, RequestContext
from .calls import CallFacts, CallLog, call_deadline, call_timeouts
from .errors import (
    ModelBadRequest,
    ModelConnectionRefused,
    ModelContextExceeded,
    ModelCredentialsError,
    ModelNotFound,
    ModelOutputInvalid,
    ModelRateLimited,
    ModelRequestsBlocked,
    ModelTimeout,
    ModelUnavailable,
    ScriptExhausted,
)
from .kill_switch import block_model_requests, model_requests_allowed
from .litellm_model import LiteLLMModel
from .scripted import ScriptedModel, ScriptedReply, ScriptedRequest

__all__ = [
    "CallFacts",
    "CallLog",
    "ChatMessage",
    "ImagePart",
    "LiteLLMModel",
    "Model",
    "ModelBadRequest",
    "ModelConnectionRefused",
    "ModelContextExceeded",
    "ModelCredentialsError",
    "ModelNotFound",
    "ModelOutputInvalid",
    "ModelReply",
    "ModelRateLimited",
    "ModelRequestsBlocked",
    "ModelTimeout",
    "ModelSet",
    "ModelUnavailable",
    "RequestContext",
    "ScriptExhausted",
    "ScriptedModel",
    "ScriptedReply",
    "ScriptedRequest",
    "block_model_requests",
    "call_deadline",
    "call_timeouts",
    "model_requests_allowed",
]
