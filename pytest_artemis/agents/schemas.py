"""Structured replies the models must produce; validated at the seam, never trusted beyond their shape."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Literal

from pydantic import Field, create_model, model_validator

from pytest_artemis.contracts import Action, PlainAction, ProbeSpec, ScreenWhich
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


PlainOperatorDecision: type[OperatorDecision] = create_model(
    "OperatorDecision", __base__=OperatorDecision, __doc__=OperatorDecision.__doc__,
    actions=(list[PlainAction], Field(default_factory=list)))  # type: ignore[valid-type]
"""One operator turn of a test that gives no secrets: its schema offers no ``type_secret`` (no dead
instruction), under the same name."""


def operator_schema(secrets: bool) -> type[OperatorDecision]:
    """The operator's reply schema: ``type_secret`` is offered only when the test gives secrets."""
    return OperatorDecision if secrets else PlainOperatorDecision


ToolName = Literal["step_detail", "step_screenshot", "read_plan", "probe_device", "live_screen"]


class ToolRequest(Contract):
    """A read-only evidence request from the checker; only tools registered for its entry are served."""

    tool: ToolName
    step: int | None = Field(default=None, ge=1)
    which: Literal["pre", "post"] = "post"
    probe: ProbeSpec | None = None


class CitationClaim(Contract):
    """One thing a checker cites for a verdict; the harness checks it against the recorded artifacts.

    A recorded screen: ``step`` and ``screen`` (``pre``/``post`` that step's actions, or ``final``: the
    screen at the final check, which needs no step), then a ``quote`` of its text, or an ``element`` (its
    index in that screen's listing) with the ``attribute`` the verdict relies on (``checked=true``,
    ``text=7:30 AM``) or a ``quote`` of its text. A probe: ``probe`` (a probe kind run in this judgement)
    with a ``quote`` of its output (no step or screen), and its ``params`` when that kind ran more than once.
    ``visual``: a judgement of the screenshot itself, accepted only for items declared visual.
    """

    step: int | None = Field(default=None, ge=1)
    screen: ScreenWhich = "post"
    quote: str = ""
    element: int | None = Field(default=None, ge=0)
    attribute: str = ""
    probe: str = ""
    params: dict[str, str] = Field(default_factory=dict)
    """Which run of ``probe`` is meant (some or all of its parameters): needed only when it ran several
    times."""
    visual: bool = False


class ModelVerdict(Contract):
    """The checker's verdict on one item (named by its id, or by its text), with the evidence it cites.

    A ``passed`` or ``failed`` verdict counts only with ``citations`` the harness finds in the recorded
    artifacts and that hold by the rules of evidence; otherwise it is recorded ``inconclusive`` with the
    rule it broke. One citation per fact the item states. (``citation=`` takes a single one, as a
    shorthand for scripted checkers.)
    """

    item: str
    status: Literal["passed", "failed", "inconclusive"]
    evidence: str = ""
    suggestion: str = ""
    citations: list[CitationClaim] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _one_citation(cls, data: Any) -> Any:
        """``citation`` (one, or null) is read as ``citations``; a reply that gives both is refused."""
        if isinstance(data, dict) and "citation" in data:
            data = dict(data)
            one = data.pop("citation")
            if data.get("citations"):
                raise ValueError("give `citations` (a list), not both `citation` and `citations`")
            data["citations"] = [] if one is None else [one]
        return data

    @property
    def citation(self) -> CitationClaim | None:
        """The first citation (a single-fact verdict's), None without any."""
        return self.citations[0] if self.citations else None


class CheckReport(Contract):
    """The checker's reply: verdicts, or (before deciding) evidence requests.

    Whether the run may proceed is computed from the verdicts by code, never taken from the model.
    """

    verdicts: list[ModelVerdict] = Field(default_factory=list)
    requests: list[ToolRequest] = Field(default_factory=list)
    """Evidence to fetch before judging; leave empty when the verdicts are final."""
    unmet_subgoals: list[str] = Field(default_factory=list)
    """Final entry only: plan subgoals (verbatim) the final state does not meet for the original goal."""


@lru_cache(maxsize=256)
def report_schema(ids: tuple[str, ...]) -> type[CheckReport]:
    """``CheckReport`` whose JSON schema (what a model is sent) names the items it may answer by id: a
    provider that enforces schemas cannot reference an item the request does not list. Validation takes any
    text, so a reply naming an item otherwise is still read (and one naming none is recorded, not lost)."""
    verdict = create_model(
        "ModelVerdict", __base__=ModelVerdict, __doc__=ModelVerdict.__doc__,
        item=(str, Field(description="the id of the item this verdict judges, as listed",
                         json_schema_extra={"enum": list(ids)})),
    )
    return create_model("CheckReport", __base__=CheckReport, __doc__=CheckReport.__doc__,
                        verdicts=(list[verdict], Field(default_factory=list)))  # type: ignore[valid-type]
