"""A loopback OpenAI-compatible server whose every reply is computed from the request (role, goal, turn).

It reuses ``tests/models/fake_openai_server.FakeOpenAI`` (HTTP, streaming, error bodies) and only replaces
the choice of reply: a ``brain(call) -> Reply`` function instead of a fixed script.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from fake_openai_server import FakeOpenAI, Reply, error, ok, streamed

_ITEM = re.compile(r"^- \[[\w-]+\] (?:verify|assert|goal)(?:@end)?: (.+)$", re.MULTILINE)
_GOAL = re.compile(r"^(?:Goal|Original goal): (.+)$", re.MULTILINE)


@dataclass(frozen=True)
class Call:
    """One request as the brain sees it."""

    number: int
    schema: str
    """``PlanReply`` / ``OperatorDecision`` / ``CheckReport`` (the requested JSON schema's name)."""
    text: str
    """Every text part of every message, joined."""
    headers: dict[str, str] = field(default_factory=dict)
    stream: bool = False
    """The client asked for a streamed answer."""

    @property
    def goal(self) -> str:
        found = _GOAL.search(self.text)
        return found.group(1) if found else ""

    @property
    def items(self) -> list[str]:
        """The check items a checker request asks about."""
        return _ITEM.findall(self.text) if self.schema == "CheckReport" else []

    @property
    def api_key(self) -> str:
        return self.headers.get("authorization", "").removeprefix("Bearer ")


Brain = Callable[[Call], Reply]


def _text(body: dict) -> str:
    parts: list[str] = []
    for message in body.get("messages", []):
        content = message.get("content")
        if isinstance(content, str):
            parts.append(content)
        elif isinstance(content, list):
            parts += [p.get("text", "") for p in content if isinstance(p, dict) and p.get("type") == "text"]
    return "\n".join(parts)


class BrainServer(FakeOpenAI):
    """``FakeOpenAI`` answering each request with ``brain(Call)``; ``calls`` keeps what it saw."""

    def __init__(self, brain: Brain) -> None:
        super().__init__()
        self.brain = brain
        self.calls: list[Call] = []

    def _next(self, body: dict, headers: dict[str, str]) -> Reply:
        schema = str(((body.get("response_format") or {}).get("json_schema") or {}).get("name", ""))
        with self._lock:
            self.requests.append(body)
            self.request_headers.append(headers)
            call = Call(len(self.requests), schema, _text(body), headers, bool(body.get("stream")))
            self.calls.append(call)
        return self.brain(call)


def as_json(value: dict, *, stream: bool = False) -> Reply:
    """A well-formed completion whose content is ``value`` as JSON."""
    content = json.dumps(value)
    return streamed(content) if stream else ok(content)


def settings_brain(call: Call, *, echo: str = "") -> Reply:
    """A cooperative model: plan "Open Settings", launch it, and pass every item with concrete evidence.

    ``echo`` is appended to the decision and the evidence (a provider or model that leaks what it was sent).
    """
    stream = call.stream
    if call.schema == "PlanReply":
        return as_json({"plan": "- [ ] Open the Settings app\n"}, stream=stream)
    if call.schema == "OperatorDecision":
        return as_json({"decision": "launch Settings" + echo, "plan": "- [x] Open the Settings app\n",
                        "actions": [{"kind": "launch", "package": "com.android.settings"}]}, stream=stream)
    verdicts = [{"item": item, "status": "passed",
                 "evidence": "the step 1 post screenshot shows the Settings title bar" + echo,
                 "citation": cited_settings(call.text)}
                for item in call.items]
    return as_json({"verdicts": verdicts}, stream=stream)


def cited_settings(text: str) -> dict[str, object] | None:
    """Like a model reading the request: the newest recorded screen whose listing shows 'Settings'."""
    listings = re.findall(r"^(step \d+ (?:pre|post)|final screen) \(.*?\):\n((?:  .*\n?)*)", text,
                          re.MULTILINE)
    for header, body in reversed(listings):
        if "'Settings'" in body:
            step = re.match(r"step (\d+) (pre|post)", header)
            if step is None:
                return {"screen": "final", "quote": "Settings"}
            return {"step": int(step.group(1)), "screen": step.group(2), "quote": "Settings"}
    return None


__all__ = ["BrainServer", "Call", "Reply", "as_json", "error", "ok", "settings_brain", "streamed"]
