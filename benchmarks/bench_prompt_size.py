"""Operator prompt tokens per step (text, schema, images) at step 4 vs step 40 of one 40-step run, and how
much of each request a provider's prompt cache can serve (litellm's offline counter).

    python benchmarks/bench_prompt_size.py [--steps 40] [--early 4] [--model gpt-4o]

One scripted run (no model latency) on the simulated phone, with 4 subgoals and 4 verify items so the
plan carries check lines; every operator request is captured from ``ScriptedModel.requests``. Text tokens
count every message's text (system + user); the reply schema (sent as the JSON schema of the response
format) and the screenshot (one image per request) are counted apart. "Cached prefix" is what a prefix
cache can serve of a request: the tokens of its schema and text up to the first character where it differs
from the previous turn's request (schema first, then the system prompt, then the user text, as the
request is laid out); the screenshot, new every turn, is never in it.
"""

from __future__ import annotations

import argparse
import base64
import json
import os

os.environ.setdefault("LITELLM_OFFLINE_MODE", "true")

from simrun import run_once  # noqa: E402
from simserver import sim_server  # noqa: E402

from pytest_artemis.testing import ScriptedRequest  # noqa: E402

TARGET = 1.3


def tokens(model: str, text: str) -> int:
    import litellm

    return litellm.token_counter(model=model, text=text) if text else 0


def text_tokens(model: str, request: ScriptedRequest) -> int:
    import litellm

    messages = [{"role": m.role, "content": m.text} for m in request.messages]
    return litellm.token_counter(model=model, messages=messages)


def image_tokens(model: str, request: ScriptedRequest) -> tuple[int, int]:
    """(tokens, count) of the request's images, by litellm's counter on data URLs (high detail)."""
    import litellm

    images = [image for m in request.messages for image in m.images]
    if not images:
        return 0, 0
    content = [{"type": "image_url", "image_url": {"url": f"data:{i.mime};base64,"
                                                          f"{base64.b64encode(i.data).decode()}",
                                                   "detail": "high"}} for i in images]
    with_images = litellm.token_counter(model=model, messages=[{"role": "user", "content": content}])
    bare = litellm.token_counter(model=model, messages=[{"role": "user", "content": ""}])
    return with_images - bare, len(images)


def laid_out(request: ScriptedRequest) -> str:
    """The request's text in the order it is sent: the reply schema, then each message's text."""
    schema = json.dumps(request.schema.model_json_schema(), separators=(",", ":"))
    return "\n".join([schema, *(m.text for m in request.messages)])


def common_prefix(a: str, b: str) -> str:
    n = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    return a[:n]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=40, help="run length (default 40)")
    parser.add_argument("--early", type=int, default=4, help="the early step compared (default 4)")
    parser.add_argument("--model", default="gpt-4o", help="tokenizer model for litellm (default gpt-4o)")
    parser.add_argument("--in-process-sim", action="store_true", help="serve the sim in this process")
    args = parser.parse_args()
    with sim_server(devices=1, in_process=args.in_process_sim) as server:
        m = run_once(server, steps=args.steps, latency_s=0.0, checks=True)
    operator = {r.turn: r for r in m.requests if r.role == "operator" and r.reask == 0}
    assert m.outcome.steps == args.steps and args.steps in operator, (m.outcome.steps, sorted(operator))
    print(f"one {args.steps}-step run, 4 subgoals + 4 verify items, tokenizer {args.model} (offline)")
    print(f"{'step':>4} {'text':>5} {'system':>6} {'user':>5} {'schema':>6} {'images':>6} {'image tok':>9} "
          f"{'prompt':>6} {'cached prefix':>13} {'share':>5}")
    shown = sorted({1, args.early, args.steps // 4, args.steps // 2, args.steps})
    sizes = {}
    for turn in shown:
        request = operator[turn]
        text = text_tokens(args.model, request)
        system, user = (text_tokens(args.model, ScriptedRequest(request.role, request.schema, (msg,)))
                        for msg in request.messages[:2])
        schema = tokens(args.model, json.dumps(request.schema.model_json_schema(), separators=(",", ":")))
        img, count = image_tokens(args.model, request)
        previous = operator.get(turn - 1)
        cached = tokens(args.model, common_prefix(laid_out(request), laid_out(previous))) if previous else 0
        prompt = text + schema + img
        sizes[turn] = text
        print(f"{turn:>4} {text:>5} {system:>6} {user:>5} {schema:>6} {count:>6} {img:>9} {prompt:>6} "
              f"{cached:>13} {cached / prompt:>5.0%}")
    ratio = sizes[args.steps] / sizes[args.early]
    print(f"text tokens step {args.steps} / step {args.early} = {ratio:.3f} (target <= {TARGET}): "
          f"{'met' if ratio <= TARGET else 'MISSED'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
