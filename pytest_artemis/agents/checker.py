"""The checker: judges items from evidence through read-only tools; code rules decide what its words mean."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

from pytest_artemis.contracts import CheckItem, CheckVerdict, EvidenceScreen, ProbeSpec, ScreenView, UIElement
from pytest_artemis.device.probe_table import ProbeTable
from pytest_artemis.models import CallLog, ChatMessage, ImagePart, Model, RequestContext

from .prompts import checker_system, join
from .prose import undermined
from .schemas import CheckReport, CitationClaim, ModelVerdict, ToolName, ToolRequest

Entry = Literal["checkpoint", "final"]


@dataclass(frozen=True)
class CheckerTool:
    """One read-only tool: its name and the one-line documentation the prompt shows."""

    name: ToolName
    doc: str


_TOOLS: dict[ToolName, CheckerTool] = {
    t.name: t
    for t in (
        CheckerTool("step_detail", '{"tool": "step_detail", "step": N}: '
                    "decision, actions and results of step N"),
        CheckerTool("step_screenshot", '{"tool": "step_screenshot", "step": N, "which": "pre|post"}: '
                    "the screenshot before or after step N"),
        CheckerTool("read_plan", '{"tool": "read_plan"}: the current plan'),
        CheckerTool("probe_device", '{"tool": "probe_device", "probe": {"kind": K, "params": {}}}: '
                    "run one read-only probe from the probe table"),
        CheckerTool("live_screen", '{"tool": "live_screen"}: the device screen right now'),
    )
}


def checker_tools(entry: Entry, *, probes: bool) -> tuple[CheckerTool, ...]:
    """The tool table of an entry × configuration; the only source of the checker's permissions.

    The checkpoint entry never gets the live screen: its evidence is the anchored history.
    """
    names: list[ToolName] = ["step_detail", "step_screenshot", "read_plan"]
    if probes:
        names.append("probe_device")
    if entry == "final":
        names.append("live_screen")
    return tuple(_TOOLS[n] for n in names)


class Evidence(Protocol):
    """Read-only access to a run's evidence, served by the engine."""

    async def step_detail(self, step: int) -> str: ...

    async def step_screenshot(self, step: int, which: Literal["pre", "post"]) -> ImagePart | None: ...

    def plan(self) -> str: ...

    async def probe(self, spec: ProbeSpec) -> str: ...

    async def live_screen(self) -> tuple[str, ImagePart | None]: ...


@dataclass(frozen=True)
class Assessment:
    """One item's verdict after the code rules; ``reason`` says when code changed the model's word.

    ``claim`` is what the checker cited; the engine grounds it against the recorded artifacts.
    """

    item: CheckItem
    status: Literal["passed", "failed", "inconclusive"]
    evidence: str
    suggestion: str = ""
    reason: str = ""
    claim: CitationClaim | None = None


@dataclass(frozen=True)
class CheckerResult:
    assessments: tuple[Assessment, ...]
    unmet_subgoals: tuple[str, ...] = ()


@dataclass(frozen=True)
class CheckRequest:
    """Everything one checker judgement starts from."""

    entry: Entry
    goal: str
    plan: str
    items: tuple[CheckItem, ...]
    history: tuple[str, ...]
    images: tuple[ImagePart, ...] = ()
    screen: ScreenView | None = None
    turn: int = 0
    note: str = ""
    screens: tuple[EvidenceScreen, ...] = ()
    """The recorded screens shown to the checker as citable (their listings are in the request)."""
    judged_at: Mapping[str, int] = field(default_factory=dict)
    """Items (by key) judged at their checkpoint's anchor step, not on the final state."""


def apply_rules(item: CheckItem, verdict: ModelVerdict | None) -> Assessment:
    """The code rules before grounding: no verdict for the item → inconclusive; a ``passed`` or
    ``failed`` whose own evidence undermines it (it hedges, or a pass says the opposite) → inconclusive.
    Whether a verdict that survives stands is decided by its citation (grounded by the engine): prose can
    take a verdict away, never make one."""
    if verdict is None:
        return Assessment(item, "inconclusive", "", reason="the checker gave no verdict for this item")
    if why := undermined(item.text, verdict.status, verdict.evidence):
        return Assessment(item, "inconclusive", verdict.evidence, verdict.suggestion, claim=verdict.citation,
                          reason=why)
    return Assessment(item, verdict.status, verdict.evidence, verdict.suggestion, claim=verdict.citation)


def conflicting(item: CheckItem, verdicts: Sequence[ModelVerdict]) -> list[Assessment]:
    """Verdicts that disagree on one item in one reply: every one of them is kept, as inconclusive. A
    verdict the checker's own words take away disagrees with one that stands, whatever their status."""
    said = " vs ".join(f"{v.status} (taken back by its own words)"
                       if undermined(item.text, v.status, v.evidence) else v.status for v in verdicts)
    return [Assessment(item, "inconclusive", v.evidence,
                       reason=f"conflicting verdicts in one reply ({said}); this one said {v.status}",
                       claim=v.citation) for v in verdicts]


def may_proceed(verdicts: Sequence[CheckVerdict]) -> bool:
    """Whether the run may go on without repair: no verify item failed (computed, never asked).

    Inconclusive lets it proceed (fail-open) while the verdict itself stays inconclusive.
    """
    return not any(v.kind == "verify" and v.status == "failed" for v in verdicts)


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


def match_verdicts(items: Sequence[CheckItem], verdicts: Sequence[ModelVerdict]) -> list[Assessment]:
    """Pair model verdicts with items by verbatim text (whitespace/case-insensitive), then apply the rules.

    Several verdicts for one item that disagree (on the status, or because the checker's own words take
    one of them away) are all recorded, each inconclusive; a repeated verdict that agrees counts once (the
    first).
    """
    by_text: dict[str, list[ModelVerdict]] = {}
    for verdict in verdicts:
        by_text.setdefault(_norm(verdict.item), []).append(verdict)
    assessments: list[Assessment] = []
    for item in items:
        said = by_text.get(_norm(item.text), [])
        assessed = [apply_rules(item, v) for v in said] or [apply_rules(item, None)]
        if len(said) > 1 and len({v.status for v in said} | {a.status for a in assessed}) > 1:
            assessments += conflicting(item, said)
        else:
            assessments.append(assessed[0])
    return assessments


def _element_line(e: UIElement) -> str:
    parts = [f"[{e.index}]", "ocr-text" if e.source == "ocr" else e.class_name.rpartition(".")[2] or "View"]
    parts += [repr(e.text)] if e.text else []
    parts += [f"desc={e.content_desc!r}"] if e.content_desc and e.content_desc != e.text else []
    parts += [f"id={e.resource_id.rpartition(':id/')[2]}"] if e.resource_id else []
    parts += [f"checked={'true' if e.checked else 'false'}"] if e.checkable else []
    parts += ["selected=true"] if e.selected else []
    parts += ["enabled=false"] if not e.enabled else []
    return " ".join(parts)


def screen_label(screen: EvidenceScreen) -> str:
    """How a recorded screen is named to the checker: ``step 4 post`` or ``final screen``."""
    return "final screen" if screen.screen == "final" else f"step {screen.step} {screen.screen}"


def screen_listing(screen: EvidenceScreen) -> str:
    """A recorded screen's citable elements, one per line, by the index a citation uses."""
    lines = [_element_line(e) for e in screen.view.elements]
    body = "\n".join(f"  {line}" for line in lines) if lines else "  (no text recorded for this screen)"
    return f"{screen_label(screen)} ({screen.view.foreground or 'app ?'}):\n{body}"


def _items_text(items: Sequence[CheckItem], judged_at: Mapping[str, int]) -> str:
    def line(i: CheckItem) -> str:
        visual = " (visual judgement of a screenshot accepted)" if i.visual else ""
        held = f" (judged at step {judged_at[i.key]})" if i.key in judged_at else ""
        return f"- {i.kind}{'@end' if i.when == 'end' and i.kind != 'goal' else ''}: {i.text}{visual}{held}"

    return "\n".join(line(i) for i in items)


class Checker:
    """Runs one judgement: a bounded loop of evidence requests, then verdicts bound by the code rules."""

    def __init__(self, model: Model, calls: CallLog | None, *, probes: ProbeTable | None,
                 max_iterations: int) -> None:
        """``probes`` is the session's probe table the checker may use (None: no probing)."""
        self._model = model
        self._calls = calls
        self._probes = probes
        self._max_iterations = max_iterations

    def tools(self, entry: Entry) -> tuple[CheckerTool, ...]:
        return checker_tools(entry, probes=self._probes is not None)

    def messages(self, request: CheckRequest) -> list[ChatMessage]:
        """The opening messages of a judgement (system prompt assembled for the entry and items)."""
        tools = self.tools(request.entry)
        system = checker_system(request.items, entry=request.entry, tool_docs=[t.doc for t in tools],
                                probes=self._probes, held=bool(request.judged_at))
        user = join(
            f"Original goal: {request.goal}",
            f"Plan:\n{request.plan}" if request.plan else "",
            f"Items to judge:\n{_items_text(request.items, request.judged_at)}",
            "Recorded steps:\n" + "\n".join(request.history) if request.history else "",
            "Recorded screens you may cite:\n" + "\n".join(screen_listing(s) for s in request.screens)
            if request.screens else "",
            request.note,
        )
        return [ChatMessage("system", system), ChatMessage("user", user, request.images)]

    async def assess(self, request: CheckRequest, evidence: Evidence) -> CheckerResult:
        """Ask the checker, serving its tool requests, until it returns verdicts or the rounds run out."""
        messages = self.messages(request)
        allowed = {t.name for t in self.tools(request.entry)}
        context = RequestContext(goal=request.goal, plan=request.plan, screen=request.screen,
                                 checks=request.items, history=request.history, turn=request.turn,
                                 entry=request.entry, screens=request.screens,
                                 judged_at=dict(request.judged_at))
        report = CheckReport()
        for round_no in range(1, self._max_iterations + 1):
            reply = await self._model.complete("checker", messages, CheckReport, context=context,
                                               calls=self._calls)
            report = reply.value
            if report.verdicts or not report.requests or round_no == self._max_iterations:
                break
            answer, images = await _serve(report.requests, allowed, evidence)
            messages += [ChatMessage("assistant", report.model_dump_json()),
                         ChatMessage("user", answer, tuple(images))]
        assessments = tuple(match_verdicts(request.items, report.verdicts))
        unmet = tuple(report.unmet_subgoals) if request.entry == "final" else ()
        return CheckerResult(assessments, unmet)


async def _serve(
    requests: Sequence[ToolRequest], allowed: set[ToolName], evidence: Evidence
) -> tuple[str, list[ImagePart]]:
    """Run the read-only tool requests; an unregistered tool is refused, never served."""
    lines: list[str] = []
    images: list[ImagePart] = []
    for req in requests:
        if req.tool not in allowed:
            lines.append(f"{req.tool}: not available at this entry")
        elif req.tool == "step_detail" and req.step is not None:
            lines.append(f"step_detail({req.step}): {await evidence.step_detail(req.step)}")
        elif req.tool == "step_screenshot" and req.step is not None:
            image = await evidence.step_screenshot(req.step, req.which)
            found = "attached" if image else "none recorded"
            lines.append(f"step_screenshot({req.step}, {req.which}): {found}")
            images.extend([image] if image else [])
        elif req.tool == "read_plan":
            lines.append(f"plan:\n{evidence.plan()}")
        elif req.tool == "probe_device" and req.probe is not None:
            lines.append(f"probe_device({req.probe.kind}): {await evidence.probe(req.probe)}")
        elif req.tool == "live_screen":
            listing, image = await evidence.live_screen()
            lines.append(f"live_screen:\n{listing}")
            images.extend([image] if image else [])
        else:
            lines.append(f"{req.tool}: missing arguments")
    return "\n".join(lines), images
