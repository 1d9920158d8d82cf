"""An OpenAI-compatible chat server that relays each request to files, for a model that answers by hand.

    python relay_server.py DIR PORT [REPLAY_DIR]

Each POST /v1/chat/completions (or /chat/completions) is written to DIR as req-N.md (system and user
text, the JSON schema the reply must satisfy, and the paths of its images, saved as req-N-K.png|jpg) and
req-N.json (the raw request body, images elided). The handler then waits for DIR/resp-N.json (a JSON
object: the reply's content) and returns it as the assistant message with finish_reason "stop".
DIR/log.jsonl records N, the schema name, seconds waited. Exits after 3 h or on SIGTERM.

The team's relay (shared/real-model/relay_server.py), kept here so a clean clone can replay the sessions.
"""

from __future__ import annotations

import base64
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

DIR = sys.argv[1]
PORT = int(sys.argv[2])
REPLAY = sys.argv[3] if len(sys.argv) > 3 else ""
"""A transcript folder (req-N.md, resp-N.json) to answer from instead of waiting: each request gets the reply
that the transcript gave to the request in the same place (see _key)."""
STRIP = os.environ.get("RELAY_STRIP_KIND") == "1"
"""With REPLAY: drop a leading 'goal: ' / 'verify: ' / 'assert@end: ' from each verdict's item."""


def _key(md_path: str, state: dict) -> tuple:
    """A request's place in its run: (test, role, ordinal), checker requests by the items they judge.

    ``state`` counts per run (a planner request starts a new test), so a replay that asks the same
    questions in another order, or more or fewer operator turns, still finds each checker's answer."""
    with open(md_path, encoding="utf-8") as f:
        text = f.read()
    schema = text.split("`", 2)[1] if "`" in text.splitlines()[0] else "?"
    if schema == "PlanReply":
        state["test"] = state.get("test", 0) + 1
    test = state.get("test", 0)
    sig = ""
    if schema == "CheckReport":
        part = text.split("Items to judge:", 1)[1] if "Items to judge:" in text else ""
        sig = "\n".join(sorted(_item(line) for line in part.split("\n\n", 1)[0].splitlines() if line.strip()))
    base = (test, schema, sig)
    state[base] = state.get(base, 0) + 1
    return base + (state[base],)


def _item(line: str) -> str:
    """An item line as its bare text: list mark, a short id ("[G]", "A1.", "V2:"), the kind and timing
    prefix, a trailing placement note, case and spacing dropped (the listing's form may change; the
    items' words do not)."""
    import re
    kind = r"(goal|verify|assert_?)(@\w+)?\s*:\s*"
    t = re.sub(r"^\s*[-*]\s*", "", line)
    short = re.match(r"^(\[[^\]]{1,6}\]|\([^)]{1,6}\)|[A-Za-z]{0,2}\d{0,3}[:.])\s+", t)
    if short and (re.match(kind, t[short.end():], re.I)
                  or any(c.isdigit() or c in "[(" for c in short.group(1))):
        t = t[short.end():]
    t = re.sub("^" + kind, "", t, flags=re.I)
    t = re.sub(r"\s+[-\u2014]\s+(task level|judged|at the end).*$", "", t)
    return " ".join(t.casefold().split())


_lock = threading.Lock()
_n = [0]
_INDEX: dict = {}
_LIVE: dict = {}


def _index() -> dict:
    if not _INDEX:
        state: dict = {}
        names = sorted((f for f in os.listdir(REPLAY) if f.startswith("req-") and f.endswith(".md")),
                       key=lambda f: int(f[4:-3]))
        for f in names:
            _INDEX[_key(os.path.join(REPLAY, f), state)] = int(f[4:-3])
    return _INDEX


def _replay(n: int, name: str, resp: str) -> None:
    import re
    with _lock:
        key = _key(os.path.join(DIR, f"req-{n}.md"), _LIVE)
    m = _index().get(key)
    if m is None and name == "CheckReport":  # the listing changed beyond recognition: take the next
        used = _LIVE.setdefault("used", set())  # unused checker reply of this test, in order
        m = next((v for k, v in sorted(_index().items(), key=lambda kv: kv[1])
                  if k[0] == key[0] and k[1] == name and v not in used), None)
    if m is not None:
        _LIVE.setdefault("used", set()).add(m)
    if m is None:
        reply: dict = {"verdicts": []} if name == "CheckReport" else {}
        with open(os.path.join(DIR, "unmatched.log"), "a") as f:
            f.write(f"request {n}: no transcript reply for {key[:3]} #{key[3]}\n")
        if name == "OperatorDecision":
            reply = {"decision": "no recorded reply", "actions": [{"kind": "finish", "summary": "unmatched"}]}
        elif name == "PlanReply":
            reply = {"plan": "- [ ] unmatched"}
    else:
        with open(os.path.join(REPLAY, f"resp-{m}.json")) as f:
            reply = json.load(f)
    if STRIP:
        for v in reply.get("verdicts", []):
            v["item"] = re.sub(r"^(goal|verify|assert)(@end)?: ", "", v["item"])
    with open(resp + ".tmp", "w") as f:
        json.dump(reply, f)
    os.rename(resp + ".tmp", resp)


def _save(n: int, body: dict) -> str:
    lines: list[str] = []
    fmt = body.get("response_format") or {}
    schema = (fmt.get("json_schema") or {})
    lines.append(f"# request {n}: reply must be a JSON object matching schema `{schema.get('name')}`\n")
    k = 0
    slim = json.loads(json.dumps(body))
    for mi, message in enumerate(body.get("messages", [])):
        lines.append(f"\n## message {mi}: role={message.get('role')}\n")
        content = message.get("content")
        parts = content if isinstance(content, list) else [{"type": "text", "text": content or ""}]
        for pi, part in enumerate(parts):
            if part.get("type") == "text":
                lines.append(part.get("text", ""))
            elif part.get("type") == "image_url":
                url = part["image_url"]["url"]
                head, _, data = url.partition(",")
                ext = "jpg" if "jpeg" in head else "png"
                k += 1
                path = os.path.join(DIR, f"req-{n}-{k}.{ext}")
                with open(path, "wb") as f:
                    f.write(base64.b64decode(data))
                lines.append(f"\n[image {k}: {path}]\n")
                slim["messages"][mi]["content"][pi]["image_url"]["url"] = f"(saved as {path})"
    lines.append("\n## JSON schema of the reply\n```json\n" + json.dumps(schema.get("schema"), indent=1)
                 + "\n```\n")
    with open(os.path.join(DIR, f"req-{n}.json"), "w") as f:
        json.dump(slim, f, indent=1)
    tmp = os.path.join(DIR, f".req-{n}.md")
    with open(tmp, "w") as f:
        f.write("\n".join(lines))
    os.rename(tmp, os.path.join(DIR, f"req-{n}.md"))
    return str(schema.get("name"))


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: object) -> None:
        pass

    def do_POST(self) -> None:  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))))
        with _lock:
            _n[0] += 1
            n = _n[0]
        name = _save(n, body)
        t0 = time.time()
        resp = os.path.join(DIR, f"resp-{n}.json")
        if REPLAY:
            _replay(n, name, resp)
        while not os.path.exists(resp):
            time.sleep(0.5)
        if not REPLAY:
            time.sleep(0.3)  # a reply file written by hand may still be growing (replay renames it in whole)
        with open(resp) as f:
            content = f.read().strip()
        waited = time.time() - t0
        with open(os.path.join(DIR, "log.jsonl"), "a") as f:
            f.write(json.dumps({"n": n, "schema": name, "waited_s": round(waited, 1)}) + "\n")
        out = {
            "id": f"chatcmpl-{n}", "object": "chat.completion", "created": int(time.time()),
            "model": body.get("model", "relay"),
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                         "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 1000, "completion_tokens": 100, "total_tokens": 1100},
        }
        data = json.dumps(out).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


if __name__ == "__main__":
    os.makedirs(DIR, exist_ok=True)
    server = ThreadingHTTPServer(("127.0.0.1", PORT), Handler)
    threading.Timer(3 * 3600, server.shutdown).start()
    server.serve_forever()
