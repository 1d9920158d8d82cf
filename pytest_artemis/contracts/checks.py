"""Check items, probe results and verdicts (probe checks live in ``probe_check``, re-exported here)."""

from __future__ import annotations

import hashlib
from typing import Any, Literal

from pydantic import Field, SerializeAsAny, model_validator

from ._base import Contract
from .probe_check import ProbeCheck, ProbeParam, ProbeSpec
from .probe_outputs import BuiltinOutput, ProbeOutput
from .screen import ScreenView

CheckKind = Literal["verify", "assert", "goal"]
"""``goal`` is the final check's verdict on the original goal itself: a ledger item of its own."""
CheckWhen = Literal["complete", "end"]
CheckOrigin = Literal["user", "planner", "operator"]
VerdictStatus = Literal["passed", "failed", "inconclusive", "unchecked", "superseded"]
VerdictSource = Literal["probe", "model", "settlement"]
EvidenceSource = Literal["hierarchy", "ocr", "probe", "screenshot"]
ScreenWhich = Literal["pre", "post", "final"]
"""Which recorded screen of a step: before its actions, after them, or the final screen at exit."""


class ProbeResult(Contract):
    """What a probe returned: the argv that ran, the raw output (evidence) and its typed output.

    ``parsed`` is the kind's output model, or ``Unreadable`` (with the reason) when the output could
    not be read or the command failed; a plugin kind's own output model round-trips to JSON but is
    not rebuilt from it.
    """

    spec: ProbeSpec
    argv: tuple[str, ...]
    raw: str
    exit_code: int = 0
    parsed: BuiltinOutput | SerializeAsAny[ProbeOutput] | None = None


class CheckItem(Contract):
    """A declared check: a completion criterion (verify) or a test assertion (assert)."""

    kind: CheckKind
    text: str = Field(min_length=1)
    when: CheckWhen = "complete"
    origin: CheckOrigin = "user"
    subgoal: str | None = None
    """Key of the owning subgoal once placed in a plan; None for task-level or unplaced items."""
    subgoal_hint: str | None = None
    """The ``subgoal=`` text from the user's marker, used to place the item in the plan."""
    probe: ProbeCheck | None = None
    visual: bool = False
    """Opt-in: accept a verdict that cites only a screenshot (a colour, an image), labelled visual."""

    @property
    def key(self) -> str:
        """Stable identity of the item: its kind, timing and verbatim text."""
        raw = f"{self.kind}@{self.when}:{self.text}".encode()
        return hashlib.sha256(raw).hexdigest()[:12]


class Citation(Contract):
    """What a verdict cites as its evidence, and what the harness found when it checked the citation.

    The checker names a recorded ``step`` and its ``screen`` (``pre``/``post`` its actions, or ``final``:
    the screen perceived at the final check), and one of: a ``quote`` of on-screen text, an ``element``
    (its index in that screen's element listing, with the ``attribute`` the verdict relies on, e.g.
    ``checked=true``), a ``probe`` result (the probe kind, with a quote of its output), or — only where
    the check opted in with ``visual=True`` — a ``visual`` judgement of the screenshot. The harness then
    resolves it mechanically against the recorded artifacts: ``found`` says whether it was really there,
    ``found_in`` where, ``screenshot`` the content hash of the screen it was resolved on and ``bounds``
    the rectangle ``(left, top, right, bottom)`` of the matched element or text on it, so a report can
    draw it. A probe-backed check's verdict cites its probe with ``found_in="probe"`` and no step.
    """

    step: int | None = None
    screen: ScreenWhich = "post"
    quote: str = ""
    element: int | None = Field(default=None, ge=0)
    attribute: str = ""
    probe: str = ""
    visual: bool = False
    found: bool = False
    found_in: EvidenceSource | None = None
    screenshot: str | None = None
    bounds: tuple[int, int, int, int] | None = None


class EvidenceScreen(Contract):
    """One recorded screen a checker may cite: the step, which of its screens, and what it showed."""

    step: int | None
    """The step number; None for the final screen when the run recorded no step."""
    screen: ScreenWhich
    view: ScreenView
    """Its elements as indexed for citations (hierarchy, then fused OCR text when OCR is on)."""


class CheckVerdict(Contract):
    """One attempt's verdict on one item; appended to the ledger and never rewritten."""

    item_key: str
    item_text: str
    kind: CheckKind
    when: CheckWhen
    status: VerdictStatus
    evidence: str
    suggestion: str = ""
    reason: str = ""
    """Why a verdict is inconclusive/unchecked/superseded (e.g. ``timeout``), or how code changed it."""
    source: VerdictSource
    attempt_id: str
    checkpoint_id: str
    anchor_step: int | None = None
    vacuous: bool = False
    citations: tuple[Citation, ...] = ()
    """The evidence behind a ``passed``/``failed`` verdict as the harness checked it, one per fact (found or
    not: what was claimed stays on record)."""
    rule: str = ""
    """The rule of evidence (``E4``) whose breach made a model's verdict inconclusive; '' otherwise."""
    started_at: float
    finished_at: float

    @model_validator(mode="before")
    @classmethod
    def _one_citation(cls, data: Any) -> Any:
        """Ledgers written before verdicts had several citations held one (``citation``)."""
        if isinstance(data, dict) and "citation" in data:
            data = dict(data)
            one = data.pop("citation")
            data.setdefault("citations", [] if one is None else [one])
        return data

    @property
    def citation(self) -> Citation | None:
        """The first citation (the one a single-fact verdict rests on), None without any."""
        return self.citations[0] if self.citations else None


__all__ = [
    "CheckItem",
    "CheckKind",
    "CheckOrigin",
    "CheckVerdict",
    "CheckWhen",
    "Citation",
    "EvidenceScreen",
    "EvidenceSource",
    "ProbeCheck",
    "ProbeParam",
    "ProbeResult",
    "ProbeSpec",
    "ScreenWhich",
    "VerdictSource",
    "VerdictStatus",
]
