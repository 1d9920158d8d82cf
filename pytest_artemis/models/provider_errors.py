"""Provider exceptions (litellm/openai classes) mapped to our typed errors and to retry decisions."""

from __future__ import annotations

import random
import re

from pytest_artemis.contracts import CallStatus

from .errors import (
    ModelBadRequest,
    ModelConnectionRefused,
    ModelContextExceeded,
    ModelCredentialsError,
    ModelNotFound,
    ModelRateLimited,
    ModelTimeout,
    ModelUnavailable,
)

_BACKOFF_START_S = 0.5
_BACKOFF_MAX_S = 8.0
_RETRY_AFTER_MAX_S = 60.0
_TEXT_MAX = 300
_UNKNOWN_MODEL = ("does not exist", "not found", "unknown model", "invalid model", "no such model")
_PREFIXES = re.compile(r"^(litellm\.\w+: )?(\w+Error: )?(\w+Exception - )?")
_KEY_LIKE = re.compile(r"\b(sk|pk|rk|key)-[A-Za-z0-9_*\-]{6,}")
_STATUS: dict[type[ModelUnavailable], CallStatus] = {
    ModelTimeout: "timeout", ModelCredentialsError: "auth_error", ModelRateLimited: "rate_limited",
    ModelUnavailable: "server_error",
}
_CONTEXT_MARKERS = ("context_length_exceeded", "context length", "context window", "maximum context")


def map_provider_error(
    error: BaseException, *, model: str, role: str, retries: int, secrets: tuple[str, ...] = ()
) -> ModelUnavailable | ModelContextExceeded:
    """Our error for a provider failure: a class a user understands, the provider's own words (redacted,
    one line, at most 300 characters) and what to do about it."""

    http = _http_status(error)
    if _context_exceeded(error, http):
        return ModelContextExceeded(
            f"{role} model {model!r}: request exceeds the context window (HTTP {http})", http_status=http
        )
    kind = classify(error, http)
    if kind in (ModelConnectionRefused, ModelTimeout) or "missing credentials" in str(error).lower():
        http = None  # litellm labels these 500/408; no HTTP answer arrived (or no request was made)
    where = f"HTTP {http}" if http is not None else "no HTTP response"
    tries = f", after {retries} retries" if retries else ""
    said = provider_text(error, secrets)
    return kind(
        f"{role} model {model!r}: {kind.label} ({where}{tries}): {said} — {kind.fix}",
        status=_status(kind),
        http_status=http,
    )


def classify(error: BaseException, http: int | None) -> type[ModelUnavailable]:
    """The user-facing class of a provider exception (litellm/openai classes, status, and the words
    litellm uses for failures it reports as HTTP 500)."""
    import litellm
    import openai

    text = str(error).lower()
    if isinstance(error, litellm.Timeout | openai.APITimeoutError):
        return ModelTimeout
    if isinstance(error, litellm.AuthenticationError | litellm.PermissionDeniedError) or http in (401, 403) \
            or "missing credentials" in text or "api_key client option must be set" in text:
        return ModelCredentialsError
    if isinstance(error, litellm.NotFoundError) or http == 404 or "llm provider not provided" in text \
            or (http == 400 and "model" in text and any(w in text for w in _UNKNOWN_MODEL)):
        return ModelNotFound
    if isinstance(error, litellm.RateLimitError) or http == 429:
        return ModelRateLimited
    if isinstance(error, openai.APIConnectionError) or "connection error" in text:
        return ModelConnectionRefused
    if http is not None and 400 <= http < 500 and http not in (408, 409):
        return ModelBadRequest
    return ModelUnavailable


def provider_text(error: BaseException, secrets: tuple[str, ...] = ()) -> str:
    """The provider's own message without litellm's class prefixes, secrets and key-like tokens redacted."""
    from pytest_artemis.store.redact import Redactor

    text = " ".join(str(getattr(error, "message", None) or error).split())
    text = _PREFIXES.sub("", text)
    redactor = Redactor.from_environment()
    for secret in secrets:
        redactor.add(secret)
    text = _KEY_LIKE.sub("[REDACTED]", redactor.redact(text))
    return text if len(text) <= _TEXT_MAX else text[: _TEXT_MAX - 1] + "…"


def retry_delay(error: BaseException, retries: int) -> float | None:
    """Seconds to wait before retrying ``error``, or None when it is not transient (a 4xx but 408/409/429).

    A ``retry-after-ms``/``retry-after`` header wins; otherwise exponential backoff with jitter.
    """
    import openai

    http = _http_status(error)
    if _context_exceeded(error, http) or classify(error, http).configuration:
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


def _status(kind: type[ModelUnavailable]) -> CallStatus:
    return _STATUS.get(kind, "unavailable")


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
