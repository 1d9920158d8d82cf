"""The real-call kill switch: ``block_model_requests()`` or ``ARTEMIS_ALLOW_MODEL_REQUESTS=0`` makes every
``LiteLLMModel`` call raise ``ModelRequestsBlocked`` before any I/O."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_block_lock = threading.Lock()
_block_depth = 0


@contextmanager
def block_model_requests() -> Iterator[None]:
    """Within this block every ``LiteLLMModel`` call raises ``ModelRequestsBlocked`` before any I/O."""
    global _block_depth
    with _block_lock:
        _block_depth += 1
    try:
        yield
    finally:
        with _block_lock:
            _block_depth -= 1


def model_requests_allowed() -> bool:
    """False inside ``block_model_requests()`` or when ``ARTEMIS_ALLOW_MODEL_REQUESTS`` is 0/false/no."""
    env = os.environ.get("ARTEMIS_ALLOW_MODEL_REQUESTS", "1").strip().lower()
    return _block_depth == 0 and env not in ("0", "false", "no", "off")


def blocked_by() -> str:
    """What blocks real requests: the environment's kill switch or a ``block_model_requests()`` block."""
    env = os.environ.get("ARTEMIS_ALLOW_MODEL_REQUESTS", "1").strip()
    return f"ARTEMIS_ALLOW_MODEL_REQUESTS={env}" if _block_depth == 0 else "block_model_requests()"
