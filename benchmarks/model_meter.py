"""A pytest plugin that meters the scripted models' requests per test: ``-p model_meter``.

Every ``ScriptedModel.complete`` call is one model call of its role; each request it made (a re-ask is
another) is written as one JSON line to ``$ARTEMIS_METER_OUT``: the test, the role, the characters of its
messages and of its reply schema (a real provider is sent both), its text tokens by litellm's offline
counter (``gpt-4o``'s tokenizer) and its images. Loaded into the examples' session of each release by
``bench_step_floor.py``, so both releases are metered by the same code.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterator

import pytest

from pytest_artemis.testing import ScriptedModel

_current = {"test": ""}
_lock = threading.Lock()
_seen: dict[int, int] = {}
"""Per model object: how many of its requests were written already (checks may run concurrently)."""


def _tokens(text: str) -> int:
    import litellm

    return litellm.token_counter(model="gpt-4o", text=text) if text else 0


def _write(model: ScriptedModel, role: str) -> None:
    with _lock:
        start = _seen.get(id(model), 0)
        fresh = model.requests[start:]
        _seen[id(model)] = start + len(fresh)
    lines = []
    for request in fresh:
        text = "\n".join(m.text for m in request.messages)
        schema = json.dumps(request.schema.model_json_schema())
        lines.append(json.dumps({"test": _current["test"], "role": request.role, "call_role": role,
                                 "chars": len(text), "schema_chars": len(schema),
                                 "tokens": _tokens(text) + _tokens(schema),
                                 "images": sum(len(m.images) for m in request.messages)}))
    with _lock, open(os.environ["ARTEMIS_METER_OUT"], "a", encoding="utf-8") as out:
        out.write(json.dumps({"test": _current["test"], "call": role}) + "\n")
        out.writelines(line + "\n" for line in lines)


_complete = ScriptedModel.complete


async def _metered(self: ScriptedModel, role, messages, schema, **kwargs):  # type: ignore[no-untyped-def]
    try:
        return await _complete(self, role, messages, schema, **kwargs)
    finally:
        _write(self, role)


ScriptedModel.complete = _metered  # type: ignore[method-assign]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    _current["test"] = item.name
    try:
        return (yield)
    finally:
        _current["test"] = ""
