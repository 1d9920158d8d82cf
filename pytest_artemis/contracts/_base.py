"""Base model settings shared by every contract: closed, frozen, JSON-safe."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Contract(BaseModel):
    """A frozen pydantic model that refuses unknown keys (no ghost keys)."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
