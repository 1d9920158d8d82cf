"""What litellm can tell about a model name without a request: whether it routes it to a provider, and
whether that provider's API key is in the environment."""

from __future__ import annotations

import difflib

from .loading import load_litellm


def route_problem(model: str, api_base: str | None) -> str | None:
    """Why litellm cannot route ``model`` to a provider (its own provider resolution), or None."""
    litellm = load_litellm()
    try:
        litellm.get_llm_provider(model=model, api_base=api_base)
    except Exception:  # noqa: BLE001 — litellm raises its BadRequestError (an openai APIError) here
        prefix = model.split("/", 1)[0] if "/" in model else ""
        providers = [str(getattr(p, "value", p)) for p in litellm.provider_list]
        close = difflib.get_close_matches(prefix, providers, n=1, cutoff=0.75) if prefix else []
        hint = f" (did you mean {close[0]}/{model.split('/', 1)[1]}?)" if close else ""
        what = f"{prefix!r} is not a provider litellm knows{hint}" if prefix else "it names no provider"
        return (f"litellm cannot route {model!r}: {what}; names look like PROVIDER/MODEL, e.g. "
                "openai/gpt-4o, anthropic/claude-3-5-sonnet-latest, or openai/NAME with --artemis-api-base "
                "for an OpenAI-compatible server")
    return None


def missing_api_keys(model: str) -> tuple[str, ...]:
    """The API-key variables litellm's ``validate_environment`` says ``model``'s provider needs and the
    environment lacks (empty when any it accepts is set).

    Only ``*_API_KEY`` names count: a provider's other settings (``AWS_*`` credentials, ``VERTEXAI_PROJECT``,
    ``OLLAMA_API_BASE``) may come from files, instance roles or defaults litellm cannot see.
    """
    found = load_litellm().validate_environment(model=model)
    if found.get("keys_in_environment", True):
        return ()
    return tuple(k for k in found.get("missing_keys", ()) if str(k).endswith("_API_KEY"))
