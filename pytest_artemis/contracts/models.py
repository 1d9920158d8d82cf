"""Model roles and the call-diagnostics record (enums, counts and ids only: no prompt text, no keys)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ._base import Contract

Role = Literal["planner", "operator", "checker"]
ROLES: tuple[Role, ...] = ("planner", "operator", "checker")
CallStatus = Literal[
    "ok",
    "invalid_output",
    "truncated",
    "rate_limited",
    "server_error",
    "timeout",
    "auth_error",
    "context_exceeded",
    "unavailable",
]


class ModelCallRecord(Contract):
    """One line of ``model_calls.jsonl``."""

    run_id: str
    seq: int = Field(ge=1)
    role: Role
    model: str
    status: CallStatus
    finish_reason: str | None = None
    stream: bool = False
    stream_complete: bool | None = None
    """For streamed calls: whether a chunk carried a finish reason before the stream ended."""
    arguments_complete: bool | None = None
    http_status: int | None = None
    retries: int = 0
    reasks: int = 0
    latency_ms: float = 0.0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float | None = None
    scripted: bool = False


class RoleUsage(Contract):
    """Tokens and cost of one role's calls; ``cost_usd`` is None when any call's price was unknown."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float | None = 0.0

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def add(self, record: ModelCallRecord) -> RoleUsage:
        """This usage plus one call; an unknown price makes the total unknown, never zero."""
        cost = None if self.cost_usd is None or record.cost_usd is None else self.cost_usd + record.cost_usd
        return RoleUsage(
            calls=self.calls + 1,
            prompt_tokens=self.prompt_tokens + record.prompt_tokens,
            completion_tokens=self.completion_tokens + record.completion_tokens,
            cost_usd=cost,
        )


class Usage(Contract):
    """Model usage of one run, per role."""

    roles: dict[Role, RoleUsage] = Field(default_factory=dict)

    @property
    def tokens(self) -> int:
        return sum(u.tokens for u in self.roles.values())

    @property
    def cost_usd(self) -> float | None:
        costs = [u.cost_usd for u in self.roles.values()]
        return None if any(c is None for c in costs) else sum(c for c in costs if c is not None)

    def add(self, record: ModelCallRecord) -> Usage:
        roles = dict(self.roles)
        roles[record.role] = roles.get(record.role, RoleUsage()).add(record)
        return Usage(roles=roles)


ATTEMPT_RESERVE_S = 5.0
"""What a call keeps, by default, for one retry after a timed-out attempt (at most half the call)."""


class ModelTimeouts(Contract):
    """How long a model call may take, its retries included, per role, and one HTTP attempt of it (None:
    the call's timeout less ``ATTEMPT_RESERVE_S``, at least half of it: 40 s of the default 45 s)."""

    call_s: float = Field(default=45.0, gt=0)
    attempt_s: float | None = Field(default=None, gt=0)
    roles: dict[Role, float] = Field(default_factory=dict)
    """Call timeouts of the roles that have their own."""

    def call(self, role: Role) -> float:
        """Seconds one call of ``role`` may take, its retries included."""
        return self.roles.get(role, self.call_s)

    def attempt(self, role: Role) -> float:
        """Seconds one HTTP attempt of a ``role`` call may take (never more than the call)."""
        call = self.call(role)
        if self.attempt_s is not None:
            return min(self.attempt_s, call)
        return default_attempt_s(call)


def default_attempt_s(call_s: float) -> float:
    """The attempt timeout of a call of ``call_s`` seconds when none is given."""
    return max(call_s - ATTEMPT_RESERVE_S, call_s / 2)
