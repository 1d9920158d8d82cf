"""A real OpenAI-compatible chat-completions server on loopback, scripted response by response."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass(frozen=True)
class Reply:
    """One scripted HTTP answer."""

    status: int = 200
    content: str = ""
    finish_reason: str | None = "stop"
    stream: bool = False
    done: bool = True
    """Streams: send ``data: [DONE]`` at the end."""
    usage: tuple[int, int] | None = (11, 7)
    delay_s: float = 0.0
    body: dict | None = None
    headers: dict[str, str] = field(default_factory=dict)


def ok(content: str, **kw) -> Reply:
    return Reply(content=content, **kw)


def streamed(content: str, **kw) -> Reply:
    return Reply(content=content, stream=True, **kw)


def error(status: int, message: str = "boom", code: str | None = None, **kw) -> Reply:
    body = {"error": {"message": message, "type": "server_error", "code": code}}
    headers = {"retry-after-ms": "10", **kw.pop("headers", {})}
    return Reply(status=status, body=body, headers=headers, **kw)


class FakeOpenAI:
    """Serves ``/v1/chat/completions``; replies are consumed in order and the last one repeats."""

    def __init__(self) -> None:
        self.replies: list[Reply] = []
        self.requests: list[dict] = []
        self.request_headers: list[dict[str, str]] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.02,), daemon=True)

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def script(self, *replies: Reply) -> None:
        with self._lock:
            self.replies = list(replies)

    def _next(self, body: dict, headers: dict[str, str]) -> Reply:
        with self._lock:
            self.requests.append(body)
            self.request_headers.append(headers)
            return self.replies.pop(0) if len(self.replies) > 1 else self.replies[0]

    def __enter__(self) -> FakeOpenAI:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass  # keep test output quiet

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("content-length", 0)))
                reply = server._next(json.loads(raw), {k.lower(): v for k, v in self.headers.items()})
                if reply.delay_s:
                    time.sleep(reply.delay_s)
                try:
                    if reply.status != 200:
                        self._send_json(reply.status, reply.body or {}, reply.headers)
                    elif reply.stream:
                        self._send_stream(reply)
                    else:
                        self._send_json(200, _completion(reply), reply.headers)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout tests)

            def _send_json(self, status: int, body: dict, headers: dict[str, str]) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                for key, value in headers.items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(data)

            def _send_stream(self, reply: Reply) -> None:
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.send_header("connection", "close")
                self.end_headers()
                for chunk in _chunks(reply):
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                    self.wfile.flush()
                if reply.done:
                    self.wfile.write(b"data: [DONE]\n\n")
                self.wfile.flush()
                self.close_connection = True

        return Handler


def _completion(reply: Reply) -> dict:
    body = {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 1,
        "model": "test-model",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": reply.content},
                "finish_reason": reply.finish_reason,
            }
        ],
    }
    if reply.usage:
        p, c = reply.usage
        body["usage"] = {"prompt_tokens": p, "completion_tokens": c, "total_tokens": p + c}
    return body


def _chunks(reply: Reply) -> Iterator[dict]:
    base = {"id": "chatcmpl-test", "object": "chat.completion.chunk", "created": 1, "model": "test-model"}
    step = max(1, len(reply.content) // 3)
    pieces = [reply.content[i : i + step] for i in range(0, len(reply.content), step)]
    for i, piece in enumerate(pieces):
        delta = {"role": "assistant", "content": piece} if i == 0 else {"content": piece}
        yield {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}
    if reply.finish_reason is not None:
        yield {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": reply.finish_reason}]}
        if reply.usage:
            p, c = reply.usage
            usage = {"prompt_tokens": p, "completion_tokens": c, "total_tokens": p + c}
            yield {**base, "choices": [], "usage": usage}
