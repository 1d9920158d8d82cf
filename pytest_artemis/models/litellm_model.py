"""``LiteLLMModel``: any litellm provider, with honest terminal evidence, bounded retries, usage and cost.

litellm is imported on the first real call, never at import time (it is slow and heavy).
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import TypeVar

from pydantic import BaseModel

from pytest_artemis.contracts import ModelTimeouts, Role
from pytest_artemis.contracts.models import default_attempt_s

from .base import ChatMessage, ModelReply, RequestContext
from .calls import CallFacts, CallLog, run_timeouts, seconds_left
from .errors import ModelRequestsBlocked, ModelTimeout
from .flow import ask_until_valid, logged_call
from .kill_switch import blocked_by, model_requests_allowed
from .loading import load_litellm
from .parsing import RawOutput
from .provider_errors import map_provider_error, retry_delay

T = TypeVar("T", bound=BaseModel)

@dataclass(frozen=True)
class _Limits:
    """One call's timeouts, and the setting each comes from (named in a timeout's message)."""

    call_s: float
    attempt_s: float
    call_from: str
    attempt_from: str
    run_left: float | None
    """Seconds left of the run's time budget when the call began (None: no budget)."""

    @property
    def run_bound(self) -> bool:
        """The run's time budget ends before the call's timeout does."""
        return self.run_left is not None and self.run_left < self.call_s

    @property
    def within_s(self) -> float:
        """Seconds the call may take."""
        return self.call_s if self.run_left is None else max(0.0, min(self.call_s, self.run_left))


@dataclass
class _Spent:
    """Usage of one HTTP exchange that reached the model."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float | None = None


class LiteLLMModel:
    """A model served through litellm (``openai/gpt-4o``, ``anthropic/…``, or ``openai/NAME`` with
    ``api_base`` for any OpenAI-compatible server).

    Structured output is requested as a JSON schema and validated by us from the message content.
    Transient failures (408/409/429/5xx, timeouts, connection errors) are retried up to ``max_retries``
    times with backoff (honouring ``retry-after``), all within ``budget_s`` seconds per call, each HTTP
    attempt within ``timeout_s``, and within the run's time budget (``call_deadline``). Not given, they
    come from the run's settings (``call_timeouts``: ``--artemis-model-timeout``, per role
    ``--artemis-<role>-model-timeout``, ``--artemis-model-attempt-timeout``), else 45 s per call and an
    attempt of the call less 5 s (40 s): a hanging provider is given up on within a minute of the
    session's start, its start-up included. Credentials and bad-request errors are never retried; invalid
    output is re-asked up to ``reasks`` times. ``openai/…`` with ``api_base`` and no key anywhere (a local
    server) sends a placeholder, as the OpenAI client needs one. Cost comes from litellm's price map or from
    the given per-token prices (both needed); when neither knows the price the cost is ``None``, never a
    made-up zero.
    """

    def __init__(
        self,
        model: str,
        *,
        api_base: str | None = None,
        api_key: str | None = None,
        max_retries: int = 2,
        timeout_s: float | None = None,
        budget_s: float | None = None,
        stream: bool = False,
        reasks: int = 1,
        input_cost_per_token: float | None = None,
        output_cost_per_token: float | None = None,
        temperature: float | None = 0.0,
    ):
        self.name = model
        self.api_base = api_base
        self._api_key = api_key
        self.max_retries = max_retries
        self.timeout_s = timeout_s
        self.budget_s = budget_s
        self.stream = stream
        self.reasks = reasks
        self.input_cost_per_token = input_cost_per_token
        self.output_cost_per_token = output_cost_per_token
        self.temperature = temperature

    def load(self) -> None:
        """Import the provider library now (seconds on a cold start), so that no run's time budget or
        first call pays for it."""
        load_litellm()

    def __repr__(self) -> str:
        # The API key is deliberately absent.
        return f"LiteLLMModel({self.name!r}, api_base={self.api_base!r}, stream={self.stream})"

    async def complete(
        self,
        role: Role,
        messages: Sequence[ChatMessage],
        schema: type[T],
        *,
        context: RequestContext | None = None,
        calls: CallLog | None = None,
    ) -> ModelReply[T]:
        """Ask the provider; see ``Model.complete``. ``context`` is not sent (the messages carry it)."""
        if not model_requests_allowed():
            raise ModelRequestsBlocked(
                f"real model requests are blocked ({blocked_by()}): refused a {role} call to {self.name!r}; "
                "a plumbing test uses a scripted artemis_model (pytest_artemis.testing)"
            )
        litellm = load_litellm()
        facts = CallFacts(role=role, model=self.name, stream=self.stream, cost_usd=0.0)
        limits = self._limits(role, seconds_left())
        deadline = time.monotonic() + limits.within_s

        async def attempt(history: Sequence[ChatMessage], reask: int) -> RawOutput:
            return await self._with_retries(litellm, history, schema, facts, deadline, limits)

        return await logged_call(
            facts, calls, lambda: ask_until_valid(attempt, messages, schema, reasks=self.reasks, facts=facts)
        )

    async def _with_retries(
        self,
        litellm: ModuleType,
        history: Sequence[ChatMessage],
        schema: type[BaseModel],
        facts: CallFacts,
        deadline: float,
        limits: _Limits,
    ) -> RawOutput:
        """One request, retried on transient provider errors while retries and budget remain."""
        import openai  # litellm's own dependency; its error classes are the base of litellm's

        kwargs = self._request(history, schema)
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise self._timed_out(facts, limits)
            try:
                async with asyncio.timeout(remaining):
                    raw, spent = await self._exchange(litellm, kwargs, min(limits.attempt_s, remaining))
            except TimeoutError:
                raise self._timed_out(facts, limits) from None
            except openai.APIError as error:
                failure = map_provider_error(error, model=self.name, role=facts.role, retries=facts.retries,
                                             secrets=(self._api_key,) if self._api_key else ())
                delay = retry_delay(error, facts.retries)
                out_of_time = delay is not None and delay >= deadline - time.monotonic()
                if delay is None or facts.retries >= self.max_retries or out_of_time:
                    if isinstance(failure, ModelTimeout):  # retries ran out with time left: the attempt's
                        raise self._timed_out(facts, limits, attempt=not out_of_time) from None
                    raise failure from None  # the provider's text may echo request content: not chained
                facts.retries += 1
                await asyncio.sleep(delay)
                continue
            _add_spent(facts, spent)
            facts.http_status = 200
            return raw

    def _limits(self, role: Role, run_left: float | None) -> _Limits:
        """This call's timeouts, and the setting that gives each: the constructor's, else the run's
        (``call_timeouts``), else the defaults; ``run_left``: seconds left of the run's time budget."""
        run = run_timeouts()
        if self.budget_s is not None:
            call_s, call_from = self.budget_s, "LiteLLMModel(budget_s=…)"
        elif run is not None:
            flag = f"--artemis-{role}-model-timeout" if role in run.roles else "--artemis-model-timeout"
            call_s, call_from = run.call(role), flag
        else:
            call_s, call_from = ModelTimeouts().call_s, "LiteLLMModel(budget_s=…) or --artemis-model-timeout"
        if self.timeout_s is not None:
            attempt_s, attempt_from = min(self.timeout_s, call_s), "LiteLLMModel(timeout_s=…)"
        elif run is not None and run.attempt_s is not None:
            attempt_s, attempt_from = min(run.attempt_s, call_s), "--artemis-model-attempt-timeout"
        else:
            attempt_s, attempt_from = default_attempt_s(call_s), call_from
        return _Limits(call_s, attempt_s, call_from, attempt_from, run_left)

    def _timed_out(self, facts: CallFacts, limits: _Limits, *, attempt: bool = False) -> ModelTimeout:
        """The timeout, naming the limit that ended the call and the setting that raises it."""
        retries = f", after {facts.retries} retries"
        if not attempt and limits.run_bound:
            said, fix = "the run's time budget", "raise --artemis-time-budget (or pytest-timeout's timeout)"
        elif attempt and limits.attempt_s < limits.call_s:
            said = f"an attempt's {limits.attempt_s:g}s, within the call timeout of {limits.call_s:g}s"
            both = limits.attempt_from == limits.call_from
            fix = f"raise {limits.attempt_from}" + (" (it sets both)" if both else f" or {limits.call_from}")
        else:
            said, fix = f"the {facts.role} call timeout of {limits.call_s:g}s", f"raise {limits.call_from}"
        return ModelTimeout(
            f"{facts.role} model {self.name!r}: timeout (no answer within {said}{retries}) — the provider is "
            f"hanging, or the model is slower than that (a reasoning model, a local model on CPU): {fix}",
            status="timeout",
        )

    def _request(self, history: Sequence[ChatMessage], schema: type[BaseModel]) -> dict[str, object]:
        kwargs: dict[str, object] = {
            "model": self.name,
            # The system prompt is the stable prefix of every request of a role (the schema goes with it):
            # a provider that caches only marked prefixes gets the mark there.
            "messages": [_wire(message, cache=message.role == "system" and _marks_cache(self.name))
                         for message in history],
            "response_format": {
                "type": "json_schema",
                "json_schema": {
                    "name": schema.__name__,
                    "schema": schema.model_json_schema(),
                    "strict": False,
                },
            },
            # Retries are ours (counted, budgeted); litellm's num_retries is never used.
            "max_retries": 0,
            "stream": self.stream,
        }
        if self.stream:
            kwargs["stream_options"] = {"include_usage": True}
        if self.api_base is not None:
            kwargs["api_base"] = self.api_base
        if self._api_key is not None:
            kwargs["api_key"] = self._api_key
        elif _keyless(self.name, self.api_base):
            kwargs["api_key"] = NO_KEY
        if self.temperature is not None:
            kwargs["temperature"] = self.temperature
        return kwargs

    async def _exchange(
        self, litellm: ModuleType, kwargs: dict[str, object], timeout: float
    ) -> tuple[RawOutput, _Spent]:
        if self.stream:
            return await self._collect(litellm, await litellm.acompletion(timeout=timeout, **kwargs))
        received = _ReceivedFinish()
        response = await litellm.acompletion(timeout=timeout, logger_fn=received, **kwargs)
        choice = response.choices[0]
        finish = received.reason if received.seen else choice.finish_reason
        spent = self._spent(litellm, response, getattr(response, "usage", None))
        return RawOutput(content=choice.message.content, finish_reason=finish), spent

    async def _collect(self, litellm: ModuleType, stream: object) -> tuple[RawOutput, _Spent]:
        """Assemble a stream ourselves, noting whether a finish reason arrived and whether it broke off."""
        import openai

        parts: list[str] = []
        finish: str | None = None
        usage = None
        broken = False
        try:
            async for chunk in stream:  # type: ignore[attr-defined]
                for choice in chunk.choices:
                    if choice.delta is not None and choice.delta.content:
                        parts.append(choice.delta.content)
                    if choice.finish_reason:
                        finish = choice.finish_reason
                usage = getattr(chunk, "usage", None) or usage
        except (openai.APIError, OSError):
            # A stream that breaks off mid-way is a failed call, never retried: what arrived is judged as is.
            broken = True
        spent = self._spent(litellm, None, usage) if usage is not None else _Spent()
        raw = RawOutput(
            content="".join(parts),
            finish_reason=finish,
            stream=True,
            stream_complete=finish is not None and not broken,
        )
        return raw, spent

    def _spent(self, litellm: ModuleType, response: object | None, usage: object | None) -> _Spent:
        if usage is None:
            return _Spent()
        prompt = int(getattr(usage, "prompt_tokens", 0) or 0)
        completion = int(getattr(usage, "completion_tokens", 0) or 0)
        return _Spent(prompt, completion, self._cost(litellm, response, prompt, completion))

    def _cost(
        self, litellm: ModuleType, response: object | None, prompt: int, completion: int
    ) -> float | None:
        if self.input_cost_per_token is not None and self.output_cost_per_token is not None:
            return prompt * self.input_cost_per_token + completion * self.output_cost_per_token
        hidden = getattr(response, "_hidden_params", None) or {}
        if hidden.get("response_cost") is not None:
            return float(hidden["response_cost"])
        try:
            prompt_cost, completion_cost = litellm.cost_per_token(
                model=self.name, prompt_tokens=prompt, completion_tokens=completion
            )
        except Exception:  # noqa: BLE001 — litellm raises assorted errors for unmapped models
            return None  # unknown price: recorded as unknown, never as zero
        return float(prompt_cost) + float(completion_cost)


class _ReceivedFinish:
    """litellm ``logger_fn`` that notes the finish reason of the raw OpenAI-style body as received.

    litellm's response object reports ``finish_reason="stop"`` when the provider sent none, so the rebuilt
    response cannot be trusted. Only the finish reason is read; nothing of the payload is kept.
    """

    def __init__(self) -> None:
        self.seen = False
        self.reason: str | None = None

    def __call__(self, details: dict[str, object]) -> None:
        if details.get("log_event_type") != "post_api_call":
            return
        body = details.get("original_response")
        try:
            data = json.loads(body) if isinstance(body, str | bytes) else body
        except (json.JSONDecodeError, UnicodeDecodeError):
            return
        choices = data.get("choices") if isinstance(data, dict) else None
        if isinstance(choices, list) and choices and isinstance(choices[0], dict):
            reason = choices[0].get("finish_reason")
            self.seen, self.reason = True, reason if isinstance(reason, str) else None


NO_KEY = "no-key"
"""What ``Authorization: Bearer`` carries to an OpenAI-compatible server given no key at all: the OpenAI
client refuses to send a request without one, and a local server checks none."""


def _keyless(model: str, api_base: str | None) -> bool:
    """An ``openai/…`` model on a server of the user's own (``api_base``) with no key in the environment."""
    return api_base is not None and model.startswith("openai/") and not os.environ.get("OPENAI_API_KEY")


def _add_spent(facts: CallFacts, spent: _Spent) -> None:
    facts.prompt_tokens += spent.prompt_tokens
    facts.completion_tokens += spent.completion_tokens
    if facts.cost_usd is not None:
        facts.cost_usd = None if spent.cost_usd is None else facts.cost_usd + spent.cost_usd


_CACHE_MARK = {"type": "ephemeral"}
_VIA = frozenset({"bedrock", "vertex_ai", "vertex_ai_beta", "openrouter"})


def _marks_cache(model: str) -> bool:
    """Whether the provider caches a prompt prefix only up to a ``cache_control`` mark: Anthropic's models,
    directly or through Bedrock, Vertex AI or OpenRouter. OpenAI (and what speaks its API) caches a long
    enough stable prefix by itself, and a local server may refuse parts it does not know."""
    provider, _, rest = model.partition("/")
    return provider == "anthropic" or (provider in _VIA and ("claude" in rest or "anthropic" in rest))


def _wire(message: ChatMessage, *, cache: bool = False) -> dict[str, object]:
    """An OpenAI-style message; images become ``image_url`` parts with ``data:`` URLs; ``cache``: its text
    carries the ``cache_control`` mark (the prompt up to it may be served from the provider's cache)."""
    if not message.images and not cache:
        return {"role": message.role, "content": message.text}
    text: dict[str, object] = {"type": "text", "text": message.text}
    if cache:
        text["cache_control"] = dict(_CACHE_MARK)
    parts: list[dict[str, object]] = [text]
    parts += [{"type": "image_url", "image_url": {"url": image.data_url()}} for image in message.images]
    return {"role": message.role, "content": parts}
