"""The corpus the rules of evidence are measured on: scenarios a scripted operator really carries out on the
simulated phone, and checker replies to them, each with the outcome its honest value is.

Honest replies are written the way real models write them: varied words (hedges, "should be", "no longer",
"I don't see"), items named by id, by text or as the request lists them, several citations where a model
gives context (the page a switch is on), attributes as ``checked: true``, times as ``6:45AM``. Adversarial
replies cite real evidence that shows nothing about the item: system UI, another switch, another setting,
a name without the claim, half of a compound goal, a state that held before the run, the agent's own
typing, text its anchor step made stale. Citations are chosen per request from what the request shows
(the screens listed, the probe output served), as a model would; a reply is a function of the request.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from pytest_artemis.agents.schemas import CheckReport, CitationClaim, ModelVerdict, PlanReply, ToolRequest
from pytest_artemis.contracts import EvidenceScreen, ProbeSpec, UIElement
from pytest_artemis.testing import ScriptedOperator, ScriptedRequest
from pytest_artemis.testing.steps import Step, finish, launch, tap, type_text

SETTINGS = "com.android.settings"
CLOCK = "com.google.android.deskclock"
CONTACTS = "com.android.contacts"
SWITCH = "switch_widget"


@dataclass(frozen=True)
class Scenario:
    """A goal and the steps that really reach it (or, for some adversaries, only seem to)."""

    goal: str
    steps: tuple[Step, ...]
    setup: tuple[tuple[str, ...], ...] = ()
    """Shell commands run on the phone before the run (a state an earlier test left behind)."""


def _settings(*path: str) -> tuple[Step, ...]:
    return (launch(SETTINGS), *(tap(p) for p in path))


def _alarm_entry() -> tuple[Step, ...]:
    return (launch(CLOCK), tap(content_desc="Add alarm"),
            type_text("6", resource_id="material_hour_text_input"),
            type_text("45", resource_id="material_minute_text_input"), tap("AM"))


SCENARIOS: dict[str, Scenario] = {
    "bluetooth_on": Scenario("Turn on Bluetooth",
                             (*_settings("Bluetooth"), tap(resource_id=SWITCH), finish())),
    "wifi_off": Scenario("Disable Wi-Fi",
                         (*_settings("Network & internet"), tap(resource_id=SWITCH), finish())),
    "airplane_on": Scenario("Turn on Airplane mode",
                            (*_settings("Network & internet"), tap("Airplane mode"), finish())),
    "dark_on": Scenario("Open the Display settings and enable Dark theme",
                        (*_settings("Display"), tap("Dark theme"), finish())),
    "alarm": Scenario("Set an alarm for 6:45 AM in the Clock app", (*_alarm_entry(), tap("OK"), finish())),
    "alarm_labelled": Scenario("Set an alarm for 6:45 AM in the Clock app",
                               (*_alarm_entry(), type_text("Alarm set for 6:45 AM", resource_id="label"),
                                tap("OK"), finish())),
    "contact": Scenario("Add a contact named Marie Curie with the phone number 555 0142",
                        (launch(CONTACTS), tap("Create contact"),
                         type_text("Marie", resource_id="first_name"),
                         type_text("Curie", resource_id="last_name"),
                         type_text("5550142", resource_id="phone_number"),
                         tap(resource_id="editor_menu_save_button"), finish())),
    "bluetooth_then_dark": Scenario("Turn on Bluetooth, then turn on Dark theme",
                                    (*_settings("Bluetooth"), tap(resource_id=SWITCH),
                                     tap(content_desc="Navigate up"), tap("Display"), tap("Dark theme"),
                                     finish())),
    "airplane_on_then_off": Scenario("Turn on Airplane mode, then turn it off again",
                                     (*_settings("Network & internet"), tap("Airplane mode"),
                                      tap("Airplane mode"), finish())),
    "open_clock": Scenario("Open the Clock app", (launch(CLOCK), finish())),
    "delete_alarm": Scenario("Delete the 8:30 AM alarm in the Clock app",
                             (launch(CLOCK), tap(content_desc="Delete alarm 8:30 AM"), finish())),
    "alarms_then_settings": Scenario("Delete the 8:30 AM alarm in the Clock app",
                                     (launch(CLOCK), launch(SETTINGS), finish())),
    "bluetooth_already_on": Scenario("Turn on Bluetooth", (*_settings("Bluetooth"), finish()),
                                     setup=(("settings", "put", "global", "bluetooth_on", "1"),)),
    "bluetooth_off_at_anchor": Scenario("Turn on Bluetooth",
                                        (*_settings("Bluetooth"), tap(resource_id=SWITCH),
                                         tap(content_desc="Navigate up"), tap("Bluetooth"),
                                         tap(resource_id=SWITCH, done="Turn on Bluetooth"), finish())),
}


# -- what a reply cites, chosen from the request ------------------------------------------------------

Screens = Sequence[EvidenceScreen]


def _screen(screens: Screens, at: str) -> EvidenceScreen | None:
    """``final``, ``last post`` / ``last pre`` (the newest step listed), ``first pre``, or ``step N post``."""
    if at == "final":
        return next((s for s in screens if s.screen == "final"), None)
    which, _, side = at.rpartition(" ")
    steps = sorted({s.step for s in screens if s.step is not None and s.screen != "final"})
    if not steps:
        return None
    number = {"last": steps[-1], "first": steps[0]}.get(which)
    if number is None:
        number = int(which.split()[-1])
    return next((s for s in screens if s.step == number and s.screen == side), None)


def _folded(text: str) -> str:
    return text.casefold().replace("\u2011", "-")


def _row_has(screen: EvidenceScreen, element: UIElement, label: str) -> bool:
    top, bottom = element.bounds.top, element.bounds.bottom
    return any(_folded(label) in _folded(e.label) for e in screen.view.elements
               if e.label and top <= e.center[1] < bottom)


def _element(screen: EvidenceScreen, label: str, switch: bool) -> UIElement | None:
    elements = screen.view.elements
    if switch:
        return next((e for e in elements if e.checkable and _row_has(screen, e, label)), None)
    exact = [e for e in elements if _folded(e.label) == _folded(label)]
    return (exact or [e for e in elements if _folded(label) in _folded(e.label)] or [None])[0]


@dataclass(frozen=True)
class Cite:
    """One citation as a model would write it, resolved against the screens a request lists."""

    label: str = ""
    at: str = "final"
    switch: bool = False
    attribute: str = ""
    quote: str | None = None
    """The quote to give: None gives none with an element (or the label itself, without one)."""
    by_element: bool = True
    probe: ProbeSpec | None = None
    grep: str = ""
    """For a probe without a quote: the first output line holding this text."""
    name_params: bool = False
    """For a probe: the citation names the run's parameters (to tell two runs of one kind apart)."""
    given: CitationClaim | None = None
    """A citation written out, as a model does from a history line ("tap … on [4] 'OFF'" at step 3)."""

    def claim(self, request: ScriptedRequest) -> CitationClaim | None:
        if self.given is not None:
            return self.given
        if self.probe is not None:
            return CitationClaim(probe=self.probe.kind,
                                 params=dict(self.probe.params) if self.name_params else {},
                                 quote=self.quote or _probe_line(request, self.probe, self.grep))
        screen = _screen(request.screens, self.at)
        if screen is None:
            return None
        place = ({"screen": "final"} if screen.screen == "final"
                 else {"step": screen.step, "screen": screen.screen})
        if not self.by_element:
            return CitationClaim(**place, quote=self.quote or self.label)  # type: ignore[arg-type]
        element = _element(screen, self.label, self.switch)
        if element is None:
            return None
        return CitationClaim(**place, element=element.index, attribute=self.attribute,  # type: ignore[arg-type]
                             quote=self.quote or "")


def el(label: str, *, at: str = "final", attribute: str = "", quote: str | None = None) -> Cite:
    """The element labelled ``label`` (``attribute`` and/or ``quote`` what it relies on)."""
    return Cite(label, at, attribute=attribute, quote=quote if quote is not None or attribute else label)


def switch(row: str, *, at: str = "final", attribute: str = "", quote: str | None = None) -> Cite:
    """The switch on the row labelled ``row``."""
    return Cite(row, at, switch=True, attribute=attribute, quote=quote)


def text(quote: str, *, at: str = "final") -> Cite:
    """A quote of text on a screen, no element index."""
    return Cite(quote, at, by_element=False)


def probe(kind: str, quote: str | None = None, *, grep: str = "", named: bool = False, **params: str) -> Cite:
    """A probe run in this judgement, quoting ``quote`` (None: its first output line holding ``grep``);
    ``named``: the citation names the run's parameters too."""
    return Cite(probe=ProbeSpec(kind=kind, params=params), quote=quote, grep=grep, name_params=named)


def written(step: int, screen: str, element: int | None = None, attribute: str = "", quote: str = "") -> Cite:
    """A citation of a screen the request may not list, by what the step history says of it."""
    return Cite(given=CitationClaim(step=step, screen=screen, element=element,  # type: ignore[arg-type]
                                    attribute=attribute, quote=quote))


def _probe_line(request: ScriptedRequest, spec: ProbeSpec, grep: str) -> str:
    """The first line of the output the tool served for ``spec`` (after its ``argv`` line) holding
    ``grep``."""
    for message in reversed(request.messages):
        for block in message.text.split("probe_device(")[1:]:
            head, _, body = block.partition("\n")
            if head.startswith(spec.kind + ")") and all(v in head for v in spec.params.values()):
                return next((line.strip() for line in body.splitlines() if line.strip() and grep in line), "")
    return ""


# -- verdicts -----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class V:
    """One verdict: on ``item`` ("goal", or the item's text), given at ``entry`` (None: wherever asked)."""

    item: str
    status: str
    evidence: str
    cites: tuple[Cite, ...] = ()
    entry: str | None = None
    named: str = "id"
    """How the reply names the item: its ``id``, its ``text``, as the request lists it (``listing``), so in
    lower case with stray spaces (``lower``), or anything else literally (a name no item has)."""


def _listed(request: ScriptedRequest, item_key: str) -> str:
    """The item's line as the request lists it, without the id ("goal: Turn on …", "assert@end: …")."""
    ident = request.ids[item_key]
    for message in request.messages:
        found = re.search(rf"^- \[{re.escape(ident)}\] (.+)$", message.text, re.MULTILINE)
        if found:
            return found.group(1)
    return ident


def _name(request: ScriptedRequest, verdict: V) -> tuple[str, str] | None:
    """(item key, the name the reply gives it) for the item the verdict is about, if this request asks."""
    for item in request.checks:
        if (item.kind == "goal") == (verdict.item == "goal") and (verdict.item == "goal"
                                                                  or item.text == verdict.item):
            if verdict.named == "listing":
                return item.key, _listed(request, item.key)
            name = {"id": request.ids.get(item.key, item.text), "text": item.text,
                    "lower": f"  {_listed(request, item.key).lower()}  "}.get(verdict.named, verdict.named)
            return item.key, name
    return None


def checker(*verdicts: V) -> Callable[[ScriptedRequest], CheckReport]:
    """A checker that gives ``verdicts``: first the probes they cite (once), then the verdicts."""

    def respond(request: ScriptedRequest) -> CheckReport:
        asked = [(v, named) for v in verdicts if v.entry in (None, request.entry)
                 if (named := _name(request, v)) is not None]
        probes = [c.probe for v, _ in asked for c in v.cites if c.probe is not None]
        served = any(m.role == "assistant" and "probe_device" in m.text for m in request.messages)
        if probes and not served:
            return CheckReport(requests=[ToolRequest(tool="probe_device", probe=p) for p in probes])
        return CheckReport(verdicts=[
            ModelVerdict(item=name, status=v.status, evidence=v.evidence,  # type: ignore[arg-type]
                         citations=[c for c in (cite.claim(request) for cite in v.cites) if c is not None])
            for v, (_, name) in asked])

    return respond


@dataclass(frozen=True)
class Case:
    """A scenario, the items the test declares (marker lines), the checker's reply and the honest word."""

    scenario: str
    reply: tuple[V, ...]
    word: str
    marks: tuple[str, ...] = ()
    rule: str = ""
    """For an adversary: the rule the harness names when it refuses the decisive verdict."""
    notes: str = field(default="", compare=False)


def respond_for(case: Case) -> Callable[[ScriptedRequest, object], object]:
    """Every role of one case's run: the scenario's planner and operator, the case's checker."""
    scenario = SCENARIOS[case.scenario]
    operator = ScriptedOperator(scenario.steps)
    judge = checker(*case.reply)

    def respond(request: ScriptedRequest, device: object) -> object:
        if request.role == "planner":
            return PlanReply(plan=f"- [ ] {scenario.goal}\n")
        if request.role == "operator":
            return operator(request)
        return judge(request)

    return respond
