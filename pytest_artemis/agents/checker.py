"""The checker: judges items from evidence through read-only tools; code rules decide what its words mean."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

from pytest_artemis.checking.rules import Rule, active, broken
from pytest_artemis.contracts import CheckItem, CheckVerdict, EvidenceScreen, ProbeSpec, ScreenView
from pytest_artemis.device.listing import listing
from pytest_artemis.device.probe_table import ProbeTable
from pytest_artemis.models import CallLog, ChatMessage, ImagePart, Model, RequestContext

from .checker_prompt import checker_system
from .prompts import join
from .schemas import CheckReport, CitationClaim, ModelVerdict, ToolName, ToolRequest, report_schema

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

    ``claims`` are what the checker cited; the engine grounds them against the recorded artifacts.
    """

    item: CheckItem
    status: Literal["passed", "failed", "inconclusive"]
    evidence: str
    suggestion: str = ""
    reason: str = ""
    claims: tuple[CitationClaim, ...] = ()


@dataclass(frozen=True)
class CheckerResult:
    assessments: tuple[Assessment, ...]
    unmet_subgoals: tuple[str, ...] = ()
    unmatched: tuple[str, ...] = ()
    """What verdicts named that is no listed item (recorded and shown, never dropped silently)."""


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
    ids: Mapping[str, str] = field(default_factory=dict)
    """Item key → the short id the request lists it by (``ItemIds``); missing ones get one per request."""
    rules: tuple[Rule, ...] = ()
    """The rules of evidence its verdicts are held to (``checking.rules.active``); stated in its prompt."""

    def id_of(self, item: CheckItem) -> str:
        return self.ids.get(item.key) or ItemIds.fallback(self.items, item)


class ItemIds:
    """Short ids for a run's items, stable for the run: ``goal``, then ``v1``, ``v2`` … for verify items
    and ``a1`` … for assertions, in the order they are first listed."""

    def __init__(self) -> None:
        self._ids: dict[str, str] = {}
        self._count: Counter[str] = Counter()

    def of(self, item: CheckItem) -> str:
        if item.key not in self._ids:
            if item.kind == "goal":
                self._ids[item.key] = "goal"
            else:
                self._count[item.kind] += 1
                self._ids[item.key] = f"{item.kind[0]}{self._count[item.kind]}"
        return self._ids[item.key]

    def map(self, items: Sequence[CheckItem]) -> dict[str, str]:
        return {item.key: self.of(item) for item in items}

    @staticmethod
    def fallback(items: Sequence[CheckItem], item: CheckItem) -> str:
        """The id ``item`` gets in a request listing ``items`` when no run assigned ids."""
        ids = ItemIds()
        return ids.map(items)[item.key]


def apply_rules(item: CheckItem, verdict: ModelVerdict | None, unmatched: Sequence[str] = ()) -> Assessment:
    """Before grounding: no verdict for the item → inconclusive ([E12]), naming what the reply named instead.
    Whether a verdict stands is decided by its citations (grounded by the engine), never by its wording."""
    if verdict is None:
        named = f" (its reply named {', '.join(repr(n) for n in unmatched)}, which is no listed item)" \
            if unmatched else ""
        return Assessment(item, "inconclusive", "",
                          reason=broken("E12", "the checker gave no verdict for this "
                                               f"item{named}"))
    return Assessment(item, verdict.status, verdict.evidence, verdict.suggestion,
                      claims=tuple(verdict.citations))


def conflicting(item: CheckItem, verdicts: Sequence[ModelVerdict]) -> list[Assessment]:
    """Verdicts that disagree on one item in one reply: every one of them is kept, as inconclusive."""
    said = " vs ".join(v.status for v in verdicts)
    return [Assessment(item, "inconclusive", v.evidence, claims=tuple(v.citations),
                       reason=broken("E12", f"conflicting verdicts in one reply ({said}); this one said "
                                            f"{v.status}")) for v in verdicts]


def may_proceed(verdicts: Sequence[CheckVerdict]) -> bool:
    """Whether the run may go on without repair: no verify item failed (computed, never asked).

    Inconclusive lets it proceed (fail-open) while the verdict itself stays inconclusive.
    """
    return not any(v.kind == "verify" and v.status == "failed" for v in verdicts)


_PREFIX = re.compile(r"^\s*(?:[-*]\s*)?(?:\[(?P<id>[\w-]+)\]\s*)?"
                     r"(?:(?P<kind>goal|verify|assert_?)(?:@end)?\s*:\s*)?", re.IGNORECASE)


def _norm(text: str) -> str:
    return " ".join(text.strip().strip("\"'`“”‘’").rstrip(".").split()).casefold()


def named_item(name: str, items: Sequence[CheckItem], ids: Mapping[str, str]) -> CheckItem | None:
    """The item a verdict names: by its id ("v1", "[v1]"), or by its text as the request lists it (with or
    without the ``[id] kind:`` prefix; case, spacing and quotes folded)."""
    by_id = {ids[i.key].casefold(): i for i in items if i.key in ids}
    wanted = _norm(name)
    if wanted.strip("[]") in by_id:
        return by_id[wanted.strip("[]")]
    prefix = _PREFIX.match(name)
    rest = _norm(name[prefix.end():]) if prefix else wanted
    if prefix and prefix.group("id") and prefix.group("id").casefold() in by_id and not rest:
        return by_id[prefix.group("id").casefold()]
    return next((i for i in items if _norm(i.text) in (rest, wanted)), None)


def match_verdicts(
    items: Sequence[CheckItem], verdicts: Sequence[ModelVerdict], ids: Mapping[str, str] | None = None,
) -> tuple[list[Assessment], tuple[str, ...]]:
    """Pair verdicts with items (``named_item``) and apply the rules; returns the assessments and what
    verdicts named that is no listed item. Several verdicts for one item that disagree are all recorded,
    each inconclusive; a repeated verdict that agrees counts once (the first)."""
    ids = ids if ids is not None else ItemIds().map(items)
    said: dict[str, list[ModelVerdict]] = {}
    unmatched: list[str] = []
    for verdict in verdicts:
        item = named_item(verdict.item, items, ids)
        if item is None:
            unmatched.append(verdict.item)
        else:
            said.setdefault(item.key, []).append(verdict)
    assessments: list[Assessment] = []
    for item in items:
        given = said.get(item.key, [])
        if len({v.status for v in given}) > 1:
            assessments += conflicting(item, given)
        else:
            assessments.append(apply_rules(item, given[0] if given else None, unmatched))
    return assessments, tuple(unmatched)


def screen_label(screen: EvidenceScreen) -> str:
    """How a recorded screen is named to the checker: ``step 4 post`` or ``final screen``."""
    return "final screen" if screen.screen == "final" else f"step {screen.step} {screen.screen}"


def screen_listing(screen: EvidenceScreen) -> str:
    """A recorded screen's citable elements, one per line, by the index a citation uses (the same listing
    the operator reads)."""
    return listing(screen.view, screen_label(screen))


def _items_text(request: CheckRequest) -> str:
    def line(i: CheckItem) -> str:
        visual = " (visual judgement of a screenshot accepted)" if i.visual else ""
        held = f" (judged at step {request.judged_at[i.key]})" if i.key in request.judged_at else ""
        end = "@end" if i.when == "end" and i.kind != "goal" else ""
        return f"- [{request.id_of(i)}] {i.kind}{end}: {i.text}{visual}{held}"

    return "\n".join(line(i) for i in request.items)


def rules_for(request: CheckRequest, *, typed: bool) -> tuple[Rule, ...]:
    """The rules of evidence a request states and is held to (from its entry and its items)."""
    from pytest_artemis.checking.facts import about_absence

    return active(request.entry, (i.kind for i in request.items),
                  absence=any(about_absence(i.text) for i in request.items), typed=typed)


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
        """The opening messages of a judgement (system prompt assembled for the entry, items and rules)."""
        from pytest_artemis.checking.facts import about_absence

        tools = self.tools(request.entry)
        system = checker_system(
            request.rules or rules_for(request, typed=True), entry=request.entry,
            kinds={i.kind for i in request.items}, tool_docs=[t.doc for t in tools], probes=self._probes,
            held=bool(request.judged_at), absence=any(about_absence(i.text) for i in request.items),
            rounds=self._max_iterations - 1)
        user = join(
            f"Original goal: {request.goal}",
            f"Plan:\n{request.plan}" if request.plan else "",
            f"Items to judge:\n{_items_text(request)}",
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
        ids = {item.key: request.id_of(item) for item in request.items}
        context = RequestContext(goal=request.goal, plan=request.plan, screen=request.screen,
                                 checks=request.items, history=request.history, turn=request.turn,
                                 entry=request.entry, screens=request.screens,
                                 judged_at=dict(request.judged_at), ids=ids)
        schema = report_schema(tuple(ids[i.key] for i in request.items))
        report = CheckReport()
        for round_no in range(1, self._max_iterations + 1):
            reply = await self._model.complete("checker", messages, schema, context=context,
                                               calls=self._calls)
            report = reply.value
            if report.verdicts or not report.requests or round_no == self._max_iterations:
                break
            answer, images = await _serve(report.requests, allowed, evidence)
            if round_no == self._max_iterations - 1:
                answer += "\n\nThat was your last request for evidence: reply now with the verdicts."
            messages += [ChatMessage("assistant", report.model_dump_json()),
                         ChatMessage("user", answer, tuple(images))]
        assessments, unmatched = match_verdicts(request.items, report.verdicts, ids)
        unmet = tuple(report.unmet_subgoals) if request.entry == "final" else ()
        return CheckerResult(tuple(assessments), unmet, unmatched)


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
