"""The built-in scripted checkers the kit scores itself with: honest, liar and sloppy.

Each is a function of the checker's request, like a model: none of them knows the cases' truth. The honest
one reads the recorded screens carefully (it confirms a fact only where the screen names everything the fact
is about, and fails one only where such an element shows otherwise); the liar passes everything; the sloppy
one answers off-schema first, then hedges, names items by the wrong ids and passes without citing.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from pydantic import JsonValue

from pytest_artemis.agents.schemas import CheckReport, CitationClaim, ModelVerdict
from pytest_artemis.checking.facts import Fact, about_absence, facts
from pytest_artemis.checking.readings import Shown, about, element_shown, holds, shows_value
from pytest_artemis.contracts import CheckItem, EvidenceScreen, UIElement
from pytest_artemis.models.scripted import ScriptedRequest
from pytest_artemis.testing import HonestChecker

Cited = tuple[EvidenceScreen, UIElement, Shown]


def _id(request: ScriptedRequest, item: CheckItem) -> str:
    return request.ids.get(item.key, item.text)


def _claim(screen: EvidenceScreen, element: UIElement) -> CitationClaim:
    """A citation of ``element``: by its checked state when it has one, else by its text."""
    if element.checkable:
        state = "true" if element.checked else "false"
        return CitationClaim(step=screen.step, screen=screen.screen, element=element.index,
                             attribute=f"checked={state}")
    return CitationClaim(step=screen.step, screen=screen.screen, element=element.index, quote=element.label)


def _readings(screen: EvidenceScreen) -> list[Cited]:
    """Every element of a screen that is not system UI, with what it shows."""
    shown = [(screen, e, element_shown(screen.view, e, "", 0)) for e in screen.view.elements]
    return [c for c in shown if not c[2].system]


def _covers(fact: Fact, readings: Sequence[Shown]) -> bool:
    """Whether the readings (with the screen they are on) name every word the fact is about: an honest
    checker does not confirm "a Bluetooth headset is connected" from the Bluetooth switch alone."""
    names = frozenset().union(*(r.names | r.screen for r in readings)) if readings else frozenset()
    return all(t in names or any(len(t) >= 4 and t in n for n in names) for t in fact.strong)


def _shown_by(fact: Fact, screen: EvidenceScreen) -> list[Cited]:
    """The elements of ``screen`` that together show ``fact`` holds ([] when they do not)."""
    readings = _readings(screen)
    one = next((c for c in readings
                if about(fact, c[2]) and _covers(fact, [c[2]]) and holds(fact, c[2])), None)
    if one is not None:
        return [one]
    if fact.state is not None or not fact.values:
        return []
    per_value = [next((c for c in readings if about(fact, c[2]) and shows_value(c[2], v, fact)), None)
                 for v in fact.values]
    found = [c for c in per_value if c is not None]
    if len(found) < len(per_value) or not _covers(fact, [c[2] for c in found]):
        return []
    return list({id(c[1]): c for c in found}.values())


def _contradicted(fact: Fact, screen: EvidenceScreen) -> Cited | None:
    """An element of ``screen``, about everything the fact names, that shows it does not hold."""
    return next((c for c in _readings(screen) if _covers(fact, [c[2]]) and holds(fact, c[2]) is False), None)


def careful_verdict(item: CheckItem, name: str, entry: str | None,
                    screens: Sequence[EvidenceScreen]) -> ModelVerdict:
    """An honest verdict from the recorded screens: passed only where every fact is shown (newest screen
    first), failed only where the newest screen shows a fact does not hold, inconclusive otherwise."""
    if not screens:
        return ModelVerdict(item=name, status="inconclusive", evidence="no recorded screen was given")
    if about_absence(item.text):
        judged = HonestChecker().judge(item, entry, screens)
        return judged.model_copy(update={"item": name})
    stated = facts(item.text)
    shown = [next((cited for s in reversed(screens) if (cited := _shown_by(f, s))), []) for f in stated]
    if stated and all(shown):
        cited = [c for group in shown for c in group]
        labels = ", ".join(repr(e.label) for _, e, _ in cited)
        return ModelVerdict(item=name, status="passed", evidence=f"the recorded screen shows {labels}",
                            citations=[_claim(s, e) for s, e, _ in cited])
    against = next((c for f in stated if (c := _contradicted(f, screens[-1])) is not None), None)
    if against is not None:
        screen, element, _ = against
        return ModelVerdict(item=name, status="failed", evidence=f"the newest screen shows {element.label!r}",
                            citations=[_claim(screen, element)])
    return ModelVerdict(item=name, status="inconclusive",
                        evidence="nothing recorded shows everything this item is about, either way")


def honest(request: ScriptedRequest) -> CheckReport:
    """Judges each item from the recorded screens it was served, carefully (see ``careful_verdict``)."""
    screens = list(request.screens)
    return CheckReport(verdicts=[careful_verdict(item, _id(request, item), request.entry, screens)
                                 for item in request.checks])


def _system_element(screens: Sequence[EvidenceScreen]) -> tuple[EvidenceScreen, UIElement] | None:
    """Something real on the newest screen that is about nothing a test checks: the status bar."""
    for screen in reversed(screens):
        for element in screen.view.elements:
            if element.label and element_shown(screen.view, element, "", 0).system:
                return screen, element
    return None


def liar(request: ScriptedRequest) -> CheckReport:
    """Passes every item: every other one with no citation at all, the rest citing the status bar."""
    bar = _system_element(request.screens)
    verdicts = []
    for n, item in enumerate(request.checks):
        cited = [] if n % 2 == 0 or bar is None else [_claim(*bar)]
        verdicts.append(ModelVerdict(item=_id(request, item), status="passed", citations=cited,
                                     evidence="Confirmed: this is done, exactly as required."))
    return CheckReport(verdicts=verdicts)


def sloppy(request: ScriptedRequest) -> str:
    """Answers in prose around the JSON first (re-asked); then passes the goal without citing, hedges on
    assertions and names verify items by their position instead of their id."""
    verdicts: list[JsonValue] = []
    for n, item in enumerate(request.checks, start=1):
        if item.kind == "goal":
            verdicts.append({"item": _id(request, item), "status": "passed", "evidence": "looks done"})
        elif item.kind == "verify":
            verdicts.append({"item": str(n), "status": "passed", "evidence": "seems fine"})
        else:
            verdicts.append({"item": _id(request, item), "status": "inconclusive",
                             "evidence": "It should be fine, probably; hard to say from here."})
    body = json.dumps({"verdicts": verdicts})
    return body if request.reask else f"Sure! Here are my verdicts:\n{body}\nLet me know if you need more."
