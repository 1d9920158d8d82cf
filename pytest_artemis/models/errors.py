"""Typed model-layer failures; their messages carry only enums, counts and the model name."""

from __future__ import annotations

from typing import Literal

from pytest_artemis.contracts import (
    ArtemisError,
    CallStatus,
    InfrastructureError,
    ModelCallRecord,
    UsageError,
)


class ModelUnavailable(InfrastructureError):
    """The provider could not serve the call: down, rate limited or out of quota, auth refused, timed out.

    ``status`` is the call's status enum; ``record`` is the diagnostics line of the failed call (set once the
    call is logged). A scripted reply function may raise it to simulate a provider outage.
    """

    infra_kind = "model"

    def __init__(self, message: str, *, status: CallStatus = "unavailable", http_status: int | None = None):
        super().__init__(message)
        self.status: CallStatus = status
        self.http_status = http_status
        self.record: ModelCallRecord | None = None


class ModelContextExceeded(ArtemisError):
    """The request did not fit the model's context window (the prompt must shrink; retrying cannot help)."""

    def __init__(self, message: str, *, http_status: int | None = 400):
        super().__init__(message)
        self.status: CallStatus = "context_exceeded"
        self.http_status = http_status
        self.record: ModelCallRecord | None = None


class ModelOutputInvalid(ArtemisError):
    """The model's output cannot be used: a cut stream, a missing or ``length`` finish reason, or content
    that is not complete valid JSON for the schema after the allowed re-asks. Nothing from it is executed.
    """

    def __init__(self, message: str, *, status: Literal["truncated", "invalid_output"]):
        super().__init__(message)
        self.status: CallStatus = status
        self.record: ModelCallRecord | None = None


class ModelRequestsBlocked(UsageError):
    """A real model request was attempted while real requests are blocked
    (``pytest_artemis.testing.block_model_requests()`` or ``ARTEMIS_ALLOW_MODEL_REQUESTS=0``)."""


class ScriptExhausted(UsageError):
    """A ``ScriptedModel.from_replies`` script has no reply left for the requested role."""
