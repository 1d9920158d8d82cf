"""Call diagnostics carry no prompt text, output, images or keys: proven with sentinel strings."""

from __future__ import annotations

import asyncio
import traceback

import pytest
from fake_openai_server import error, ok, streamed
from model_test_schemas import Decision

from pytest_artemis.models import CallLog, ChatMessage, ImagePart, LiteLLMModel, ModelReply
from pytest_artemis.models.errors import ModelContextExceeded, ModelOutputInvalid, ModelUnavailable
from pytest_artemis.testing import ScriptedModel

SECRET_PROMPT = "SENTINEL-PROMPT-7f3a9c"
SECRET_KEY = "sk-SENTINEL-KEY-51be02"
GOOD = '{"decision": "tap", "actions": []}'


def scenarios():
    echo = f"Incorrect API key provided: {SECRET_KEY}; prompt was {SECRET_PROMPT}"
    return [
        ("ok", False, ok(GOOD)),
        ("ok-stream", True, streamed(GOOD)),
        ("cut-stream", True, streamed(f'{{"decision": "{SECRET_PROMPT}', finish_reason=None, done=False)),
        (
            "invalid",
            False,
            ok(f'{{"decision": "{SECRET_PROMPT}", "actions": [{{"kind": "{SECRET_PROMPT}"}}]}}'),
        ),
        ("auth", False, error(401, echo, code="invalid_api_key")),
        (
            "context",
            False,
            error(400, f"maximum context length exceeded: {echo}", code="context_length_exceeded"),
        ),
        ("down", False, error(503, echo)),
    ]


def test_no_sentinel_reaches_records_files_or_reprs_and_no_key_reaches_exceptions(server, tmp_path):
    """Records, files and reprs carry enums and counts only. A failure's message keeps the provider's own
    words (what a user needs: "Incorrect API key provided"), with the key redacted."""
    journal = tmp_path / "model_calls.jsonl"

    def sink(record):
        with journal.open("a") as out:
            out.write(record.model_dump_json() + "\n")

    calls = CallLog("run-s", sink)
    image = ImagePart(SECRET_PROMPT.encode() * 10)
    messages = (ChatMessage(role="user", text=f"secret {SECRET_PROMPT}", images=(image,)),)
    texts: list[str] = []
    failures: list[str] = []
    for _, stream, reply in scenarios():
        server.script(reply)
        model = LiteLLMModel(
            "openai/test-model", api_base=server.api_base, api_key=SECRET_KEY, stream=stream, max_retries=0
        )
        texts.append(repr(model))
        try:
            result = asyncio.run(model.complete("operator", messages, Decision, calls=calls))
        except (ModelUnavailable, ModelContextExceeded, ModelOutputInvalid) as failure:
            failures.append("".join(traceback.format_exception(failure)))
        else:
            assert isinstance(result, ModelReply)
    texts.append(journal.read_text())
    statuses = [r.status for r in calls.records]
    assert statuses == [
        "ok",
        "ok",
        "truncated",
        "invalid_output",
        "auth_error",
        "context_exceeded",
        "server_error",
    ]
    assert (
        server.request_headers[0]["authorization"] == f"Bearer {SECRET_KEY}"
    )  # the key did go to the server
    for text in texts:
        assert SECRET_PROMPT not in text
        assert SECRET_KEY not in text
    assert len(failures) == 5
    for text in failures:
        assert SECRET_KEY not in text
    assert "credentials (HTTP 401): Incorrect API key provided: [REDACTED]" in failures[2]


def test_scripted_failures_carry_no_output_text():
    model = ScriptedModel(lambda request: f'{{"decision": "{SECRET_PROMPT}"', reasks=0)
    with pytest.raises(ModelOutputInvalid) as caught:
        asyncio.run(model.complete("checker", (ChatMessage(role="user", text=SECRET_PROMPT),), Decision))
    assert SECRET_PROMPT not in "".join(traceback.format_exception(caught.value))
    assert SECRET_PROMPT not in caught.value.record.model_dump_json()
