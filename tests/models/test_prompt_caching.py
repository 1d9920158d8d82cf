"""Requests laid out for provider prompt caching, as they reach the wire: the stable system prompt first and
marked for a provider that caches only marked prefixes (Anthropic's), the turn's content last."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from fake_openai_server import ok
from model_test_schemas import Decision

from pytest_artemis.models import ChatMessage, ImagePart, LiteLLMModel

GOOD = '{"decision": "tap add", "actions": [{"kind": "tap", "target": "Add alarm"}]}'
PNG = ImagePart(b"\x89PNG\r\n\x1a\n", mime="image/png")
MESSAGES = (ChatMessage(role="system", text="You operate a phone."),
            ChatMessage(role="user", text="Turn 3: the screen", images=(PNG,)))


class AnthropicMessages:
    """``POST /v1/messages`` on loopback: keeps each body, answers with the schema's JSON as text."""

    def __init__(self) -> None:
        self.bodies: list[dict] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                outer.bodies.append(json.loads(self.rfile.read(int(self.headers["content-length"]))))
                body = json.dumps({
                    "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
                    "content": [{"type": "text", "text": GOOD}], "stop_reason": "end_turn",
                    "usage": {"input_tokens": 10, "output_tokens": 5},
                }).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                """Quiet."""

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"


@pytest.fixture
def anthropic() -> Iterator[AnthropicMessages]:
    served = AnthropicMessages()
    thread = threading.Thread(target=served.server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    yield served
    served.server.shutdown()
    served.server.server_close()


def ask(model: LiteLLMModel) -> Decision:
    return asyncio.run(model.complete("operator", MESSAGES, Decision)).value


def test_an_anthropic_request_marks_its_system_prompt_for_the_cache(anthropic):
    model = LiteLLMModel("anthropic/claude-sonnet-4-5", api_base=anthropic.api_base, api_key="sk-ant-test")
    assert ask(model).decision == "tap add"
    body = anthropic.bodies[0]
    assert body["system"] == [{"type": "text", "text": "You operate a phone.",
                               "cache_control": {"type": "ephemeral"}}]
    (turn,) = body["messages"]  # the turn's content comes after the cached prefix, unmarked
    assert turn["role"] == "user" and "cache_control" not in json.dumps(turn)


def test_an_openai_compatible_request_is_sent_unmarked_its_stable_prefix_first(server):
    server.script(ok(GOOD))
    model = LiteLLMModel("openai/test-model", api_base=server.api_base, api_key="sk-test")
    assert ask(model).decision == "tap add"
    body = server.requests[0]
    assert "cache_control" not in json.dumps(body)  # OpenAI caches a stable prefix by itself
    assert [m["role"] for m in body["messages"]] == ["system", "user"]
    assert body["messages"][0]["content"] == "You operate a phone."
    assert body["response_format"]["json_schema"]["schema"] == Decision.model_json_schema()
