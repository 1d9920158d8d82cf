"""Terminal-evidence and validation rules for model output, shared by every model (real or scripted).

A reply is usable only when the output provably ended (a finish reason arrived, the stream was not cut,
the finish reason is not ``length``) and its content is complete JSON that validates against the schema.
The verdict is taken from what was actually received, never from a response rebuilt from chunks.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

from pydantic import BaseModel, ValidationError

from .base import ChatMessage
from .errors import ModelOutputInvalid

T = TypeVar("T", bound=BaseModel)

# Finish reasons that say the output was cut off or withheld: re-asking would not make it whole.
_CUT_REASONS = frozenset({"length", "max_tokens"})
_WITHHELD_REASONS = frozenset({"content_filter", "error"})


@dataclass(frozen=True)
class RawOutput:
    """What a model produced for one attempt, as received."""

    content: str | None
    finish_reason: str | None
    stream: bool = False
    stream_complete: bool | None = None
    """Streams only: a chunk carried a finish reason and the stream ended without error."""
    value: BaseModel | None = None
    """An already typed object (scripted replies only); used as is when it is an instance of the schema."""


@dataclass(frozen=True)
class ParsedOutput(Generic[T]):
    """The verdict on one attempt's output."""

    value: T | None
    status: Literal["ok", "truncated", "invalid_output"]
    arguments_complete: bool | None
    reaskable: bool = False
    problem: str = ""
    """Model-facing description of what was wrong (for the re-ask message only; never logged)."""

    @property
    def ok(self) -> bool:
        return self.status == "ok"


def parse_output(raw: RawOutput, schema: type[T]) -> ParsedOutput[T]:
    """Apply the terminal-evidence rules, then parse and validate the content against ``schema``."""
    if raw.value is not None and isinstance(raw.value, schema):
        return ParsedOutput(value=raw.value, status="ok", arguments_complete=True)
    content = raw.value.model_dump_json() if raw.value is not None else raw.content
    if raw.stream and not raw.stream_complete:
        return ParsedOutput(value=None, status="truncated", arguments_complete=_is_json(content))
    if raw.finish_reason is None or raw.finish_reason in _CUT_REASONS:
        return ParsedOutput(value=None, status="truncated", arguments_complete=_is_json(content))
    if raw.finish_reason in _WITHHELD_REASONS:
        return ParsedOutput(value=None, status="invalid_output", arguments_complete=False)
    return validate_content(content, schema)


def validate_content(content: str | None, schema: type[T]) -> ParsedOutput[T]:
    """Parse ``content`` as one complete JSON document and validate it against ``schema``."""
    text = _unfence(content or "")
    if not text:
        return _invalid(False, "The reply was empty. Answer with one JSON object.")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        return _invalid(False, f"The reply is not complete valid JSON ({error.msg} at char {error.pos}).")
    try:
        value = schema.model_validate(data)
    except ValidationError as error:
        return _invalid(True, "The JSON does not match the schema:\n" + _describe(error))
    return ParsedOutput(value=value, status="ok", arguments_complete=True)


def reask_message(parsed: ParsedOutput[T], schema: type[T]) -> ChatMessage:
    """The user message that asks the model to correct an invalid reply."""
    fields = ", ".join(schema.model_fields)
    return ChatMessage(
        role="user",
        text=(
            f"{parsed.problem}\n"
            f"Reply again with only one JSON object for `{schema.__name__}` (fields: {fields})."
        ),
    )


def output_error(parsed: ParsedOutput[T], *, model: str, role: str, reasks: int) -> ModelOutputInvalid:
    """The error for an output that stayed unusable (message holds enums and counts only)."""
    status: Literal["truncated", "invalid_output"] = (
        "truncated" if parsed.status == "truncated" else "invalid_output"
    )
    what = "output was cut off before a proper end" if status == "truncated" else "output failed validation"
    return ModelOutputInvalid(
        f"{role} model {model!r}: {what} ({status}, arguments_complete={parsed.arguments_complete}, "
        f"re-asks={reasks}); nothing from it was executed",
        status=status,
    )


def _invalid(arguments_complete: bool, problem: str) -> ParsedOutput[T]:
    return ParsedOutput(
        value=None,
        status="invalid_output",
        arguments_complete=arguments_complete,
        reaskable=True,
        problem=problem,
    )


def _is_json(content: str | None) -> bool:
    try:
        json.loads(_unfence(content or ""))
    except json.JSONDecodeError:
        return False
    return True


def _unfence(text: str) -> str:
    """Strip one complete Markdown code fence around the JSON (some models add it despite the schema)."""
    text = text.strip()
    if text.startswith("```") and text.endswith("```") and len(text) >= 6:
        body = text[3:-3]
        first_line, _, rest = body.partition("\n")
        return (rest if first_line.strip().isalpha() or not first_line.strip() else body).strip()
    return text


def _describe(error: ValidationError) -> str:
    # Locations and messages only: the offending input values are left out.
    lines = []
    for item in error.errors(include_input=False, include_url=False, include_context=False)[:10]:
        where = ".".join(str(part) for part in item["loc"]) or "(root)"
        lines.append(f"- {where}: {item['msg']}")
    return "\n".join(lines)
