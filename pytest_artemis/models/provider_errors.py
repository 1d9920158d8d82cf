"""Provider exceptions (litellm/openai classes) mapped to our typed errors and to retry decisions."""

from __future__ import annotations

import random

from pytest_artemis.contracts import CallStatus

from .errors import ModelContextExceeded, ModelUnavailable

_BACKOFF_START_S = 0.5
_BACKOFF_MAX_S = 8.0
_RETRY_AFTER_MAX_S = 60.0
_CONTEXT_MARKERS = ("context_length_exceeded", "context length", "context window", "maximum context")


def map_provider_error(
    error: BaseException, *, model: str, role: str, retries: int
) -> ModelUnavailable | ModelContextExceeded:
    """Our error for a provider failure; the message names only the class, status and counts."""

    http = _http_status(error)
    if _context_exceeded(error, http):
        return ModelContextExceeded(
            f"{role} model {model!r}: request exceeds the context window (HTTP {http})", http_status=http
        )
    status = _status(error, http)
    where = f"HTTP {http}" if http is not None else "no HTTP response"
    return ModelUnavailable(
        f"{role} model {model!r} unavailable: {status} ({type(error).__name__}, {where}) "
        f"after {retries} retries",
        status=status,
        http_status=http,
    )


def retry_delay(error: BaseException, retries: int) -> float | None:
    """Seconds to wait before retrying ``error``, or None when it is not transient (a 4xx but 408/409/429).

    A ``retry-after-ms``/``retry-after`` header wins; otherwise exponential backoff with jitter.
    """
    import openai

    http = _http_status(error)
    if _context_exceeded(error, http):
        return None
    transient = isinstance(error, openai.APIConnectionError) or http in (408, 409, 429) or (http or 0) >= 500
    if not transient:
        return None
    hinted = _retry_after(error)
    if hinted is not None:
        return hinted
    return min(_BACKOFF_START_S * 2**retries, _BACKOFF_MAX_S) * (1 - 0.25 * random.random())


def _context_exceeded(error: BaseException, http: int | None) -> bool:
    """litellm's class, or a 400 whose error code/message says so (litellm matches only some phrasings)."""
    import litellm

    if isinstance(error, litellm.ContextWindowExceededError):
        return True
    if http != 400:
        return False
    text = f"{getattr(error, 'code', '')} {error}".lower()
    return any(marker in text for marker in _CONTEXT_MARKERS)


def _status(error: BaseException, http: int | None) -> CallStatus:
    import litellm
    import openai

    if isinstance(error, litellm.Timeout | openai.APITimeoutError):
        return "timeout"
    if isinstance(error, litellm.AuthenticationError | litellm.PermissionDeniedError) or http in (401, 403):
        return "auth_error"
    if isinstance(error, litellm.RateLimitError) or http == 429:
        return "rate_limited"
    if (http or 0) >= 500:
        return "server_error"
    return "unavailable"


def _http_status(error: BaseException) -> int | None:
    import openai

    if isinstance(error, openai.APITimeoutError):
        return None  # litellm labels client-side timeouts 408; no HTTP answer arrived
    status = getattr(error, "status_code", None)
    return status if isinstance(status, int) else None


def _retry_after(error: BaseException) -> float | None:
    response = getattr(error, "response", None)
    headers = getattr(response, "headers", None)
    if headers is None:
        return None
    for name, divisor in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is None:
            continue
        try:
            seconds = float(value) / divisor
        except ValueError:
            continue
        if 0 <= seconds <= _RETRY_AFTER_MAX_S:
            return seconds
    return None
