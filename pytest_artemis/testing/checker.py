"""An honest scripted checker: it judges only from the recorded screens, and cites what it read."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pytest_artemis.agents.schemas import CheckReport, CitationClaim, ModelVerdict
from pytest_artemis.checking.facts import about_absence, facts, quotes
from pytest_artemis.checking.readings import about, element_shown, holds
from pytest_artemis.checking.terms import contains
from pytest_artemis.contracts import CheckItem, EvidenceScreen, UIElement
from pytest_artemis.models.scripted import ScriptedRequest

from .steps import describe, normalize


@dataclass(frozen=True)
class OnScreen:
    """What the final screen shows when the goal is reached: an element with this label, and — with
    ``checked`` — its switch (the element itself, or the checkable one on its row) in that state."""

    label: str
    checked: bool | None = None

    def __str__(self) -> str:
        state = "" if self.checked is None else f" {'on' if self.checked else 'off'}"
        return f"{self.label!r}{state}"


def on_screen(label: str, *, checked: bool | None = None) -> OnScreen:
    """The goal's expectation for ``HonestChecker``: ``on_screen("Airplane mode", checked=True)``."""
    if not label.strip():
        raise TypeError("on_screen() needs a non-empty label")
    return OnScreen(label, checked)


def _name(screen: EvidenceScreen) -> str:
    return "the final screen" if screen.screen == "final" else f"step {screen.step} {screen.screen}-screen"


def _holding(screen: EvidenceScreen, text: str) -> UIElement | None:
    """The first element whose label holds ``text``; text read by OCR matches whatever its spacing (OCR
    drops or adds spaces: "7:30AM" for "7:30 AM")."""
    wanted = normalize(text)
    unspaced = wanted.replace(" ", "")
    return next((e for e in screen.view.elements if wanted in normalize(e.label)
                 or (e.source == "ocr" and unspaced in normalize(e.label).replace(" ", ""))), None)


def _cite(screen: EvidenceScreen, element: UIElement, attribute: str = "") -> CitationClaim:
    return CitationClaim(step=screen.step, screen=screen.screen, element=element.index,
                         quote="" if attribute else element.label, attribute=attribute)


def _switch_of(screen: EvidenceScreen, element: UIElement) -> UIElement | None:
    if element.checkable:
        return element
    middle = (element.bounds.top + element.bounds.bottom) // 2
    return next((e for e in screen.view.elements if e.checkable and e.bounds.top <= middle < e.bounds.bottom),
                None)


def citations_for(item: CheckItem, screens: Sequence[EvidenceScreen]) -> list[CitationClaim]:
    """Per fact the item states, a citation of the newest of ``screens`` whose element shows it holds (by
    the harness's own reading of items and screens): what an honest checker cites. Empty when a fact is
    shown by none of them."""
    found: list[CitationClaim] = []
    for fact in facts(item.text):
        claim = next((_cite_state(screen, e) for screen in reversed(screens) for e in screen.view.elements
                      if about(fact, shown := element_shown(screen.view, e, "", 0)) and holds(fact, shown)),
                     None)
        if claim is None:
            return []
        if claim not in found:
            found.append(claim)
    return found


def _cite_state(screen: EvidenceScreen, element: UIElement) -> CitationClaim:
    """An element cited by its checked state when it has one, else by its text."""
    if element.checkable:
        return _cite(screen, element, f"checked={'true' if element.checked else 'false'}")
    return _cite(screen, element)


def _verdict(
    item: CheckItem, status: str, evidence: str, *citations: CitationClaim
) -> ModelVerdict:
    return ModelVerdict(item=item.text, status=status, evidence=evidence,  # type: ignore[arg-type]
                        citations=list(citations))


def _values(text: str) -> list[str]:
    """The texts, times and numbers an item names (what a citation must show, one per fact)."""
    return [v.text for f in facts(text) for v in f.values if v.kind == "text"] + \
        [n for f in facts(text) for v in f.values if v.kind == "number" for n in [v.digits]]


def _showing(screen: EvidenceScreen, value: str) -> UIElement | None:
    """The element showing ``value``: its text, or (a number) its digits whatever the separators."""
    found = _holding(screen, value)
    if found is not None or not value.isdigit():
        return found
    return next((e for e in screen.view.elements if "".join(c for c in e.label if c.isdigit()).endswith(value)
                 and len(value) >= 5), None)


def _first_label(screen: EvidenceScreen) -> UIElement | None:
    return next((e for e in screen.view.elements if e.label.strip()), None)


class HonestChecker:
    """The checker role of a scripted agent: every ``passed``/``failed`` cites a recorded screen.

    Probe-backed items are judged by their probes, as in every run. A text item is judged from the
    screens recorded for it (the anchored steps at a checkpoint, also when the final check judges it at
    its anchor step; every step and the final screen at exit): every text it quotes (``'Airplane mode'``)
    on one screen → ``passed``, citing that screen and element; a quoted text on none → ``failed``,
    citing what the newest screen does show. Matching is case-insensitive, and ignores spacing in text
    the harness read by OCR (``artemis_ocr``). An absence ("No 'keeps stopping' dialog") is judged on
    the final screen only. The goal is judged on the final screen against ``goal``
    (``on_screen("Airplane mode", checked=True)``), or, without one, like a text item when it quotes a
    text. Whatever it cannot read — an item quoting nothing, a goal without
    an expectation, a missing screen — is ``inconclusive`` with the reason: never a guess.
    """

    def __init__(self, goal: OnScreen | None = None) -> None:
        self.goal = goal

    def __call__(self, request: ScriptedRequest) -> CheckReport:
        screens = list(request.screens)
        return CheckReport(verdicts=[
            self.judge_goal(item, screens) if item.kind == "goal" else
            self.judge(item, request.entry, screens) if item.key not in request.judged_at else
            self.judge(item, "checkpoint", [s for s in screens
                                            if s.step is not None and s.step <= request.judged_at[item.key]])
            for item in request.checks])

    def judge(self, item: CheckItem, entry: str | None, screens: Sequence[EvidenceScreen]) -> ModelVerdict:
        """One check item's verdict from the recorded screens."""
        said = quotes(item.text)
        if item.probe is not None:
            return _verdict(item, "inconclusive", "a probe-backed item is judged by its probe, not here")
        if not said:
            return _verdict(item, "inconclusive", "this item quotes no on-screen text ('…'), and a recorded "
                                                  "screen can only confirm text it shows; not judged")
        if not screens:
            return _verdict(item, "inconclusive", "no recorded screen was given for this check; not judged")
        if about_absence(item.text):
            finals = [s for s in screens if s.screen == "final"]
            if entry != "final" or not finals:
                return _verdict(item, "inconclusive", "an absence can only be judged on the final screen")
            return self._absence(item, said, finals[-1])
        for screen in reversed(screens):
            found = [_holding(screen, q) for q in said]
            if all(found):
                shown = [e for e in found if e is not None]
                labels = ", ".join(f"{e.label!r} (element {e.index})" for e in shown)
                return _verdict(item, "passed", f"{_name(screen)} shows {labels}",
                                *(_cite(screen, e) for e in dict.fromkeys(shown)))
        return self._missing(item, said[0], screens[-1])

    def judge_goal(self, item: CheckItem, screens: Sequence[EvidenceScreen]) -> ModelVerdict:
        """The goal's verdict, on the final screen."""
        finals = [s for s in screens if s.screen == "final"]
        if not finals:
            return _verdict(item, "inconclusive", "no final screen was recorded; the goal is not judged")
        final = finals[-1]
        if self.goal is None:
            if quotes(item.text):
                return self.judge(item, "final", [final])
            return _verdict(item, "inconclusive", "the scripted checker judges a goal only against what the "
                                                  "final screen should show: pass scripted_agent(goal="
                                                  "on_screen(...))")
        element = _holding(final, self.goal.label)
        if element is None:
            return _verdict(item, "inconclusive", f"the final screen shows no {self.goal.label!r} "
                                                  f"({describe(final.view)})")
        if self.goal.checked is None:
            more = [e for v in _values(item.text) if not contains(element.label, v)
                    and (e := _showing(final, v)) is not None and e != element]
            missing = [v for v in _values(item.text) if not contains(element.label, v) and _showing(final, v)
                       is None]
            if missing:
                return _verdict(item, "failed", f"the final screen shows {element.label!r} but not "
                                                f"{missing[0]!r} ({describe(final.view)})",
                                _cite(final, element))
            shown = ", ".join(repr(e.label) for e in (element, *more))
            return _verdict(item, "passed", f"the final screen shows {shown}",
                            *(_cite(final, e) for e in dict.fromkeys((element, *more))))
        switch = _switch_of(final, element)
        if switch is None:
            return _verdict(item, "inconclusive", f"the final screen has no switch for {element.label!r}")
        state = "true" if switch.checked else "false"
        status = "passed" if switch.checked == self.goal.checked else "failed"
        shown = "ON" if switch.checked else "OFF"
        evidence = f"final screen: {element.label!r} {shown} (element {switch.index}: checked={state})"
        return _verdict(item, status, evidence, _cite(final, switch, f"checked={state}"))

    @staticmethod
    def _absence(item: CheckItem, said: Sequence[str], final: EvidenceScreen) -> ModelVerdict:
        present = next(((q, e) for q in said if (e := _holding(final, q)) is not None), None)
        if present is not None:
            return _verdict(item, "failed", f"the final screen shows {present[1].label!r}",
                            _cite(final, present[1]))
        seen = _first_label(final)
        if seen is None:
            return _verdict(item, "inconclusive", "the final screen has no recorded text to read")
        return _verdict(item, "passed", f"the final screen has no {said[0]!r} ({describe(final.view)})",
                        _cite(final, seen))

    @staticmethod
    def _missing(item: CheckItem, quote: str, newest: EvidenceScreen) -> ModelVerdict:
        seen = _first_label(newest)
        if seen is None:
            return _verdict(item, "inconclusive", f"{_name(newest)} has no recorded text; not judged")
        return _verdict(item, "failed", f"no recorded screen shows {quote!r}; {_name(newest)}: "
                                        f"{describe(newest.view)}", _cite(newest, seen))
