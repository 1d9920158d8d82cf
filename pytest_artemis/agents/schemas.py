"""Structured replies the models must produce; validated at the seam, never trusted beyond their shape."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from pytest_artemis.contracts import Action, ProbeSpec, ScreenWhich
from pytest_artemis.contracts._base import Contract


class PlanReply(Contract):
    """The planner's answer: the whole plan as markdown checklist text."""

    plan: str = Field(min_length=1)


class OperatorDecision(Contract):
    """One operator turn: what it is doing, the actions to run, and an optional full plan rewrite."""

    decision: str = ""
    """A one-line summary of intent (a claim, recorded; never evidence)."""
    actions: list[Action] = Field(default_factory=list)
    plan: str | None = None
    """The full new plan text (mark subgoals ``[x]`` here), or None to leave the plan unchanged."""


ToolName = Literal["step_detail", "step_screenshot", "read_plan", "probe_device", "live_screen"]


class ToolRequest(Contract):
    """A read-only evidence request from the checker; only tools registered for its entry are served."""

    tool: ToolName
    step: int | None = Field(default=None, ge=1)
    which: Literal["pre", "post"] = "post"
    probe: ProbeSpec | None = None


class CitationClaim(Contract):
    """What a checker cites for a verdict; the harness checks it against the recorded artifacts.

    ``step`` and ``screen`` name a recorded screen (``pre``/``post`` the step's actions, or ``final``:
    the screen at the final check, which needs no step). Then one of: ``quote`` (on-screen text, matched
    after normalising case, spacing and punctuation), ``element`` (its index in that screen's listing)
    with the ``attribute`` the verdict relies on (``checked=true``, ``text=7:30 AM``) or a ``quote`` of
    its text, ``probe`` (a probe kind this judgement ran, with a ``quote`` of its output), or ``visual``
    (a judgement of the screenshot itself, accepted only for checks declared ``visual=True``).
    """

    step: int | None = Field(default=None, ge=1)
    screen: ScreenWhich = "post"
    quote: str = ""
    element: int | None = Field(default=None, ge=0)
    attribute: str = ""
    probe: str = ""
    visual: bool = False


class ModelVerdict(Contract):
    """The checker's verdict on one item, quoted verbatim, with the evidence it cites.

    A ``passed`` or ``failed`` verdict counts only with a ``citation`` the harness finds in the recorded
    artifacts; otherwise it is recorded ``inconclusive`` with the reason.
    """

    item: str
    status: Literal["passed", "failed", "inconclusive"]
    evidence: str = ""
    suggestion: str = ""
    citation: CitationClaim | None = None


class CheckReport(Contract):
    """The checker's reply: verdicts, or (before deciding) evidence requests.

    Whether the run may proceed is computed from the verdicts by code, never taken from the model.
    """

    verdicts: list[ModelVerdict] = Field(default_factory=list)
    requests: list[ToolRequest] = Field(default_factory=list)
    """Evidence to fetch before judging; leave empty when the verdicts are final."""
    unmet_subgoals: list[str] = Field(default_factory=list)
    """Final entry only: plan subgoals (verbatim) the final state does not meet for the original goal."""
