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
    label = "unavailable"
    """What a user calls this failure: credentials, unknown model, rate limit, timeout, …"""
    configuration = False
    """A configuration error: retrying or calling again in this session cannot help."""
    fix = "the provider is down or overloaded; check its status page"
    """What to do about it, for the message."""

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


class ModelCredentialsError(ModelUnavailable):
    """The provider refused the credentials, or none were given (never retried)."""

    label = "credentials"
    configuration = True
    fix = "set the provider's API key (e.g. OPENAI_API_KEY, or --artemis-api-key / ARTEMIS_API_KEY)"


class ModelNotFound(ModelUnavailable):
    """The provider does not know the model name, or litellm does not know its provider (never retried)."""

    label = "unknown model"
    configuration = True
    fix = "check --artemis-model: litellm names look like PROVIDER/MODEL, e.g. openai/gpt-4o"


class ModelBadRequest(ModelUnavailable):
    """The provider rejected the request as malformed (HTTP 4xx; never retried)."""

    label = "bad request"
    configuration = True
    fix = "check the model settings (--artemis-model, --artemis-api-base) against what the provider serves"


class ModelRateLimited(ModelUnavailable):
    """The provider is rate limiting or out of quota (HTTP 429; retried within the call budget)."""

    label = "rate limit"
    fix = "wait, lower the parallelism (-n), or raise the provider quota"


class ModelTimeout(ModelUnavailable):
    """The provider did not answer in time (retried within the call budget)."""

    label = "timeout"
    fix = ("the provider is hanging, or the model is slower than the call timeout: raise "
           "--artemis-model-timeout (one role: --artemis-<role>-model-timeout)")


class ModelConnectionRefused(ModelUnavailable):
    """No connection to the provider could be made (retried within the call budget)."""

    label = "connection refused"
    fix = "is the server at --artemis-api-base running and reachable?"
