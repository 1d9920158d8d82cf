"""Small reply schemas standing in for the agents' schemas in model-layer tests."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict


class Step(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: Literal["tap", "finish"]
    target: str = ""


class Decision(BaseModel):
    model_config = ConfigDict(extra="forbid")

    decision: str
    actions: list[Step]
