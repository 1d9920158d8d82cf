"""The JPEG a model sees of a screenshot: made from its pixels, cached by its name, rendered ahead of need."""

from __future__ import annotations

import io
import struct
import threading
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor

from .base import Capture

_CACHE: OrderedDict[tuple[str, int], bytes] = OrderedDict()
_CACHE_SIZE = 16
_PENDING: dict[tuple[str, int], Future[bytes]] = {}
"""Renders started ahead of need, by (screenshot name, longest side), until they finish."""
_LOCK = threading.Lock()
_RENDERER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="artemis-jpeg")


def model_image_factor(width: int, height: int, max_side: int) -> int:
    """By how much a ``width``×``height`` screenshot is reduced for the models (an integer, 1: not at all)
    so that its longest side is at most ``max_side``; each side becomes ``ceil(side / factor)``."""
    return max(1, -(-max(width, height) // max_side))


def _render(capture: Capture, max_side: int) -> bytes:
    image = capture.opaque_image()
    factor = model_image_factor(*image.size, max_side)
    small = image.reduce(factor) if factor > 1 else image
    buf = io.BytesIO()
    (small if small.mode == "RGB" else small.convert("RGB")).save(buf, format="JPEG", quality=80)
    data = buf.getvalue()
    with _LOCK:
        _CACHE[(capture.sha256, max_side)] = data
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return data


def model_jpeg(capture: Capture, max_side: int = 1280) -> bytes:
    """A screenshot as the JPEG a model sees, longest side at most ``max_side``, made from its pixels (a raw
    frame's without a copy; a PNG capture's decoded).

    Cached by the screenshot's name: a step's "before" screen is usually the previous step's "after"
    screen, and the checker asks again for screens the operator already saw; a render started ahead
    (``prerender_jpeg``) is waited for, not repeated. The downscale is an integer box reduction (a fraction
    of a high-quality resample's cost, and as legible at this size).
    """
    key = (capture.sha256, max_side)
    with _LOCK:
        if key in _CACHE:
            _CACHE.move_to_end(key)
            return _CACHE[key]
        pending = _PENDING.get(key)
    return pending.result() if pending is not None else _render(capture, max_side)


def prerender_jpeg(capture: Capture, max_side: int) -> None:
    """Start rendering ``model_jpeg(capture, max_side)`` in the background (nothing if it is cached or on
    its way): the next ``model_jpeg`` of these pixels finds it done or waits for it."""
    key = (capture.sha256, max_side)
    with _LOCK:
        if key in _CACHE or key in _PENDING:
            return
        future = _RENDERER.submit(_render, capture, max_side)
        _PENDING[key] = future

    def finished(_: Future[bytes]) -> None:
        with _LOCK:
            _PENDING.pop(key, None)

    future.add_done_callback(finished)


def stored_jpeg(png: bytes, sha256: str, max_side: int = 1280) -> bytes:
    """``model_jpeg`` of a screenshot read back from the journal: its PNG, named as it was stored."""
    width, height = struct.unpack(">II", png[16:24])  # the IHDR chunk, first in every PNG
    return model_jpeg(Capture(width=width, height=height, sha256=sha256, png=png), max_side)
