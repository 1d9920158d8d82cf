"""A local OpenAI-compatible server that answers every checker request with a valid reply: ``inconclusive``
for each item id the request's reply schema lists (no network, no key)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

USAGE = (120, 30)
"""Prompt and completion tokens it reports for every reply."""


def item_ids(schema: object) -> list[str]:
    """The ``enum`` of the ``item`` property, wherever it sits in the reply schema."""
    return [v for found in _item_enums(schema) for v in found]


def _item_enums(node: object) -> Iterator[list[str]]:
    if isinstance(node, dict):
        item = node.get("properties", {}).get("item") if isinstance(node.get("properties"), dict) else None
        if isinstance(item, dict) and isinstance(item.get("enum"), list):
            yield [str(v) for v in item["enum"]]
        for value in node.values():
            yield from _item_enums(value)
    elif isinstance(node, list):
        for value in node:
            yield from _item_enums(value)


class VerdictServer:
    """Serves ``/v1/chat/completions`` on loopback; ``headers`` keeps each request's headers."""

    def __init__(self) -> None:
        self.headers: list[dict[str, str]] = []
        self.bodies: list[dict] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.02,), daemon=True)

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def __enter__(self) -> VerdictServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def answer(self, body: dict, headers: dict[str, str]) -> dict:
        with self._lock:
            self.bodies.append(body)
            self.headers.append(headers)
        schema = (body.get("response_format") or {}).get("json_schema", {}).get("schema", {})
        verdicts = [{"item": i, "status": "inconclusive", "evidence": "not sure from here"}
                    for i in item_ids(schema)]
        content = json.dumps({"verdicts": verdicts})
        prompt, completion = USAGE
        return {"id": "chatcmpl-fitness", "object": "chat.completion", "created": 1,
                "model": body.get("model"),
                "choices": [{"index": 0, "finish_reason": "stop",
                             "message": {"role": "assistant", "content": content}}],
                "usage": {"prompt_tokens": prompt, "completion_tokens": completion,
                          "total_tokens": prompt + completion}}

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass  # keep test output quiet

            def do_POST(self) -> None:  # noqa: N802 (the http.server hook's name)
                raw = self.rfile.read(int(self.headers.get("content-length", 0)))
                headers = {k.lower(): v for k, v in self.headers.items()}
                data = json.dumps(server.answer(json.loads(raw), headers))
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data.encode())))
                self.end_headers()
                self.wfile.write(data.encode())

        return Handler
