"""A local OpenAI-compatible server that answers every checker request with a valid reply: ``inconclusive``
for each item id the request's reply schema lists (no network, no key)."""

from __future__ import annotations

import json
from collections.abc import Iterator

from fake_openai_server import FakeOpenAI, Reply

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


class VerdictServer(FakeOpenAI):
    """The scripted fake provider, its reply computed from each request: ``bodies`` and ``headers`` are what
    it was sent."""

    @property
    def bodies(self) -> list[dict]:
        return self.requests

    @property
    def headers(self) -> list[dict[str, str]]:
        return self.request_headers

    def _next(self, body: dict, headers: dict[str, str]) -> Reply:
        with self._lock:
            self.requests.append(body)
            self.request_headers.append(headers)
        schema = (body.get("response_format") or {}).get("json_schema", {}).get("schema", {})
        verdicts = [{"item": i, "status": "inconclusive", "evidence": "not sure from here"}
                    for i in item_ids(schema)]
        return Reply(content=json.dumps({"verdicts": verdicts}), usage=USAGE)
