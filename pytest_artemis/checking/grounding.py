"""Grounding: a model verdict's citations checked against what the harness recorded, by the rules of
evidence (``rules.py``). A ``passed`` stands only on citations that are there ([E2]), in the item's window
([E3]), about it ([E4]), showing every fact it states ([E5]) holding ([E6]), brought about by the run
([E7]) and still true when judged ([E8]); a ``failed`` only on citations that are there and in the window."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from pytest_artemis.agents.schemas import CitationClaim
from pytest_artemis.contracts import CheckItem, Citation, ScreenView, StepRecord

from .coverage import Cited, cover
from .facts import Fact, facts
from .freshness import brought_about, still_holds
from .history import History, ProbeOutput, contradicted, probe_readings
from .on_screen import resolve, where
from .readings import Shown, element_shown, holds
from .rules import broken
from .screens import RecordedScreens
from .terms import contains


@dataclass(frozen=True)
class Window:
    """What a verdict may cite: steps up to ``last_step`` (the anchor at a checkpoint), and the final
    screens only at the final entry. ``first_acted`` is the first step that ran an action (None: the
    agent never acted, it only claimed). ``typed`` is what the operator typed up to ``last_step``: in a
    text field, that is the agent's own words."""

    last_step: int
    final: bool = False
    anchor: int | None = None
    first_acted: int | None = None
    typed: tuple[str, ...] = ()

    @classmethod
    def over(cls, steps: Sequence[StepRecord], *, final: bool = False, anchor: int | None = None) -> Window:
        """The window over ``steps`` (the run's steps up to the anchor, or all of them at the final check)."""
        return cls(last_step=len(steps), final=final, anchor=anchor, first_acted=first_acted(steps),
                   typed=tuple(r.action.text for s in steps for r in s.results
                               if r.ok and r.action.kind == "type"))


def first_acted(steps: Sequence[StepRecord]) -> int | None:
    """The first step that ran any action besides claiming ``finish`` or giving up."""
    return next((s.step for s in steps
                 if any(r.ok and r.action.kind not in ("finish", "give_up") for r in s.results)), None)


@dataclass(frozen=True)
class Evidence:
    """What citations are checked against: the recorded screens, the probes run in this judgement and the
    baseline read before the first action."""

    screens: RecordedScreens
    probes: Sequence[ProbeOutput] = ()
    baseline: Sequence[ProbeOutput] = ()


@dataclass(frozen=True)
class Grounded:
    """The citations as resolved (found or not: the ledger shows what was claimed), why the verdict does not
    stand ('' when it does), and the goal's facts no citation shows, left to this run's probe checks."""

    citations: tuple[Citation, ...]
    why: str = ""
    pending: tuple[Fact, ...] = field(default=())


def ground(
    claims: Sequence[CitationClaim], item: CheckItem, window: Window, evidence: Evidence, *,
    passed: bool = True,
) -> Grounded:
    """Check a verdict's citations by the rules of evidence (blocking: a cited screen may need OCR once)."""
    if not claims:
        return Grounded((), broken("E1", "no citation: a verdict must cite a recorded screen (a quote or an "
                                         "element) or a probe"))
    unfound = tuple(_unfound(c) for c in claims)
    resolved = [_resolve(claim, item, window, evidence, passed=passed) for claim in claims]
    # every citation is looked up: the ledger says which
    if why := next((r[3] for r in resolved if r[3]), ""):
        return Grounded(tuple(r[0] if r[0] is not None else u
                              for r, u in zip(resolved, unfound, strict=True)), why)
    found: list[Citation] = []
    cited: list[Cited] = []
    views: list[ScreenView | None] = []
    for claim, (citation, readings, view, _) in zip(claims, resolved, strict=True):
        assert citation is not None
        found.append(citation)
        cited.append(Cited(_what(claim), readings, visual=citation.visual, on_screen=not claim.probe))
        views.append(view)
    if not passed:
        return Grounded(tuple(found))
    why, pending = _passes(claims, item, window, evidence, cited, views)
    return Grounded(tuple(found) if not why else unfound, why, pending)


def _passes(
    claims: Sequence[CitationClaim], item: CheckItem, window: Window, evidence: Evidence,
    cited: Sequence[Cited], views: Sequence[ScreenView | None],
) -> tuple[str, tuple[Fact, ...]]:
    """Why found citations do not show the item holds ('' when they do), and the goal's unshown facts."""
    stated = facts(item.text)
    if all(c.visual for c in cited):
        return _visual_of_judged(claims, item, window), ()
    coverage = cover(stated, cited, item.text)
    if coverage.why:
        return coverage.why, ()
    if coverage.unshown and item.kind != "goal":
        missing = "; ".join(repr(f.text) for f in coverage.unshown)
        return broken("E5", f"no citation shows {missing}: every fact the item states needs one"), ()
    if why := _in_order(coverage.shown):
        return why, ()
    history = History(evidence.screens, evidence.baseline, evidence.probes)
    if item.kind in ("goal", "verify"):
        shown_at = {fact: _shown_at(fact, readings) for fact, readings in coverage.shown.items()}
        for fact, readings in coverage.shown.items():
            calls = frozenset(r.source for r in readings if r.source)
            since = max((m for f, m in shown_at.items() if f.step < fact.step and f.topic & fact.topic),
                        default=0.0)  # "…, then turn it off again": off again after it was on
            if why := brought_about(fact, shown_at[fact], history, window.first_acted, calls, since):
                return why, ()
    if why := _stale(claims, item, window, evidence, cited, views, coverage.shown):
        return why, ()
    if window.final and item.when == "end" and (why := _contradicted_at_exit(coverage.shown, evidence)):
        return why, ()
    if why := _absence_served(stated, window, evidence.screens, views):
        return why, ()
    return "", coverage.unshown


def _shown_at(fact: Fact, readings: Sequence[Shown]) -> float:
    """When the citations first show ``fact`` holding (a citation of the state before, "it was OFF at step 3",
    is history, not the fact)."""
    holding = [r.moment for r in readings if (holds(fact, r) is not False if fact.absent else holds(fact, r))]
    return min(holding or [r.moment for r in readings])


def _stale(
    claims: Sequence[CitationClaim], item: CheckItem, window: Window, evidence: Evidence,
    cited: Sequence[Cited], views: Sequence[ScreenView | None], shown: dict[Fact, tuple[Shown, ...]],
) -> str:
    """Why a fact is shown only by citations that no longer hold when the item is judged ('' when every fact
    has one that still holds: an older citation beside it is history)."""
    fresh: set[Fact] = set()
    stale: dict[Fact, str] = {}
    for claim, citation, view in zip(claims, cited, views, strict=True):
        facts_shown = [f for f, rs in shown.items() if any(r in citation.readings for r in rs)]
        why = "" if view is None else still_holds(claim, item, facts_shown, evidence.screens,
                                                  final=window.final, anchor=window.anchor,
                                                  typed=window.typed, cited=view)
        for fact in facts_shown:
            if why:
                stale.setdefault(fact, why)
            elif not any(holds(fact, r) is False for r in shown[fact] if r in citation.readings):
                fresh.add(fact)  # a citation of the opposite state vouches for nothing
    passed = undone(tuple(shown))
    return next((why for fact, why in stale.items() if fact not in fresh and fact not in passed), "")


def undone(facts: Sequence[Fact]) -> frozenset[Fact]:
    """Steps of an ordered goal a later step undoes ("Turn on Airplane mode, then turn it off again"): they
    held once, in order, and need not hold at the end."""
    return frozenset(f for f in facts if any(g.step > f.step and g.topic & f.topic for g in facts))


def _resolve(
    claim: CitationClaim, item: CheckItem, window: Window, evidence: Evidence, *, passed: bool
) -> tuple[Citation | None, tuple[Shown, ...], ScreenView | None, str]:
    """One claim found in the record ([E2], [E3], [E11]; [E9] for a pass): its citation, readings and
    screen."""
    if claim.probe:
        citation, readings, why = _by_probe(claim, evidence.probes, window.anchor)
        return citation, readings, None, why
    view, why = _screen(claim, window, evidence.screens)
    if view is None:
        return None, (), None, why
    typed = window.typed if passed else ()  # a failure may well rest on what the agent typed
    resolved, why = resolve(claim, item, view, typed)
    if resolved is not None and any(e.source == "ocr" for e in resolved.elements):
        view = evidence.screens.verified(view)  # OCR text is evidence only as read in this run
        resolved, why = resolve(claim, item, view, typed)
        if resolved is None:
            why = broken("E2", f"{where(claim)} holds {claim.quote or claim.element!r} only in an OCR "
                               "reading kept from earlier, and reading its screenshot again in this run "
                               "does not")
    if resolved is None:
        return None, (), None, why
    moment = _moment(claim, window)
    readings = tuple(element_shown(view, e, where(claim), moment) for e in resolved.elements)
    return resolved.citation, readings, view, ""


def _moment(claim: CitationClaim, window: Window) -> float:
    if claim.screen == "final" or claim.step is None:
        return 2.0 * window.last_step + 1
    return 2.0 * claim.step - (1 if claim.screen == "pre" else 0)


def _by_probe(
    claim: CitationClaim, probes: Sequence[ProbeOutput], anchor: int | None
) -> tuple[Citation | None, tuple[Shown, ...], str]:
    ran = [p for p in probes
           if p.kind.casefold() == claim.probe.strip().casefold() and _runs(p, claim.params)]
    if not ran:
        called = f"{claim.probe!r} with {claim.params}" if claim.params else repr(claim.probe)
        return None, (), broken("E2", f"probe {called} was not run in this judgement")
    late = ran[-1].acted
    ran = [p for p in ran if anchor is None or p.acted <= anchor]
    if not ran:  # like the live screen, a probe reads the device now, and it has moved on
        return None, (), broken("E3", f"probe {claim.probe!r} ran after step {late}'s actions had started: "
                                      f"it shows the device after the anchor step {anchor}, not the state "
                                      "this checkpoint judges")
    failed = ran[-1].unreadable
    ran = [p for p in ran if not p.unreadable]
    if not ran:  # an error message echoes the query it failed on: it shows nothing about the device
        return None, (), broken("E2", f"probe {claim.probe!r} gave no readable output ({failed}): its text "
                                      "is not evidence")
    if not claim.quote:
        return None, (), broken("E2", f"probe {claim.probe!r} cited without a quote of its output")
    holding = [p for p in ran if contains(p.raw, claim.quote)]
    if not holding:
        return None, (), broken("E2", f"quoted {claim.quote!r} not found in the output of probe "
                                      f"{claim.probe!r}")
    readings = tuple(r for p in holding for r in probe_readings(p, f"probe {claim.probe!r}")
                     if not r.complete and contains(r.label, claim.quote))
    if not readings:  # the quote spans lines: the output as a whole is what it quotes
        readings = tuple(r for p in holding for r in probe_readings(p, f"probe {claim.probe!r}")
                         if r.complete)
    return Citation(probe=claim.probe, quote=claim.quote, found=True, found_in="probe"), readings, ""


def _runs(output: ProbeOutput, params: dict[str, str]) -> bool:
    """Whether a probe run had the parameters a citation names (each one it names; case folded)."""
    return all(output.params.get(k, "").casefold() == v.strip().casefold() for k, v in params.items())


def _screen(claim: CitationClaim, window: Window, screens: RecordedScreens) -> tuple[ScreenView | None, str]:
    if claim.screen == "final":
        if not window.final:
            return None, broken("E3", "the final screen cannot be cited here: a checkpoint judges from "
                                      "recorded history")
        finals = screens.finals()
        return (finals[0], "") if finals else (None, broken("E2", "no final screen was recorded"))
    if claim.step is None:
        return None, broken("E2", "the citation names no step")
    if claim.step > window.last_step:
        if window.anchor is not None:
            return None, broken("E3", f"step {claim.step} is after the anchor step {window.anchor}: this "
                                      f"item is judged from step {window.anchor} and earlier")
        return None, broken("E2", f"step {claim.step} was never recorded (the run has {window.last_step} "
                                  "steps)")
    view = screens.view(claim.step, claim.screen)
    return (view, "") if view is not None else (None, broken("E2", f"{where(claim)} was not recorded"))


def _in_order(shown: dict[Fact, tuple[Shown, ...]]) -> str:
    """Why an ordered goal's facts are cited out of order ('' when they are not): among facts shown by
    recorded steps, one the goal states later may not be shown earlier. What the end state shows (the final
    screen, a probe run at the end) is no order at all."""
    placed = sorted(((f.step, min(r.moment for r in rs), f) for f, rs in shown.items()), key=lambda p: p[:2])
    for (step, moment, fact), (later, shown_at, after) in zip(placed, placed[1:], strict=False):
        if later > step and shown_at < moment and float(moment).is_integer() and shown_at.is_integer():
            return broken("E5", f"{after.text!r} is shown before {fact.text!r}, but the goal says "
                                f"{fact.text!r}, then {after.text!r}")
    return ""


def _contradicted_at_exit(shown: dict[Fact, tuple[Shown, ...]], evidence: Evidence) -> str:
    """Why the final screen says an end item's fact does not hold ('' when it does not say so)."""
    finals = evidence.screens.finals()
    if not finals:
        return ""
    for fact in (f for f in shown if not f.event and not f.absent and f not in undone(tuple(shown))):
        against = contradicted(fact, finals[0], "the final screen", float("inf"))
        if against is not None:
            return broken("E8", f"the final screen shows otherwise ({against.label[:60]!r}): an end-of-run "
                                "check rests on the state at exit")
    return ""


def _absence_served(stated: Sequence[Fact], window: Window, screens: RecordedScreens,
                    cited: Sequence[ScreenView | None]) -> str:
    """Why an item about an absence cannot pass ('' when it may): for something that appears, a screen it
    cites or one its judgement was served (a checkpoint: the anchor step and the one before; the final
    check: the last step and the final screen) shows it; for a state that must be gone, the screen of the
    moment judged (the anchor's post-screen, the final screen) shows it."""
    absent = [f for f in stated if f.absent]
    if not absent:
        return ""
    last = window.anchor if window.anchor is not None else window.last_step
    served = [(f"step {n} {w}-screen", screens.view(n, w))
              for n in ((last,) if window.final else (last - 1, last)) if n >= 1 for w in ("pre", "post")]
    judged = [(f"step {last} post-screen", screens.view(last, "post"))] if not window.final else []
    if window.final:
        served += [("the final screen", v) for v in screens.finals()[:1]]
        judged += [("the final screen", v) for v in screens.finals()[:1]]
    served += [("the cited screen", v) for v in cited if v is not None]
    for fact in absent:
        # Something that must never appear (a dialog, a toast) is broken by any screen served or cited; a
        # state that must be gone ("no longer lists 8:30 AM") only by the screens of the moment judged (an
        # earlier one showing it is the history of its going).
        for name, view in served if fact.appearing else judged:
            if view is not None and (against := contradicted(fact, view, name, 0.0)) is not None:
                return broken("E10", f"{name} shows {against.label[:80]!r}, which the item says does not "
                                     "appear")
    return ""


def _visual_of_judged(claims: Sequence[CitationClaim], item: CheckItem, window: Window) -> str:
    """Why a visual judgement is not of the screenshot the item rests on ('' when it is): the final screen
    for an end item at the final check, the anchor step or the one before at a checkpoint."""
    for claim in claims:
        if window.final and item.when == "end" and claim.screen != "final":
            return broken("E11", f"{where(claim)} shows it, but the final screen no longer does: a visual "
                                 "judgement holds only of the screenshot it judged (judge the final screen)")
        if window.anchor is not None and claim.step is not None and claim.step < window.anchor - 1:
            return broken("E11", f"{where(claim)} shows it, but step {window.anchor} (the anchor) "
                                 "no longer does: a visual judgement holds only of the screenshot it judged")
    return ""


def _what(claim: CitationClaim) -> str:
    if claim.probe:
        return f"output of probe {claim.probe!r}"
    if claim.element is not None:
        return f"element [{claim.element}] on {where(claim)}"
    return f"quote {claim.quote!r} on {where(claim)}"


def _unfound(claim: CitationClaim) -> Citation:
    return Citation(step=claim.step, screen=claim.screen, quote=claim.quote, element=claim.element,
                    attribute=claim.attribute, probe=claim.probe, visual=claim.visual)
