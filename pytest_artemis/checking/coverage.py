"""Which of an item's facts a passing verdict's citations show: a fact is shown only by citations about it
([E4]), every fact must be shown ([E5]), and what is shown must agree with what the fact says ([E6], [E10]
for an absence)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .facts import Fact
from .readings import Shown, about, holds, named, negated, shows_page, shows_value, state_of
from .rules import broken
from .terms import contains


@dataclass(frozen=True)
class Cited:
    """One found citation and the readings it gives (the elements it names, or the probe line it quotes)."""

    what: str
    """The citation in words: "element [4] on the final screen", "probe 'setting'"."""
    readings: tuple[Shown, ...]
    visual: bool = False
    on_screen: bool = True
    """A recorded screen's element or quote (not a probe's output)."""


@dataclass(frozen=True)
class Coverage:
    """The facts shown (each with the readings that show it), the facts no citation is about, and why the
    verdict does not stand ('' when it may)."""

    shown: dict[Fact, tuple[Shown, ...]]
    unshown: tuple[Fact, ...]
    why: str = ""


def cover(facts: Sequence[Fact], cited: Sequence[Cited], item_text: str) -> Coverage:
    """What ``cited`` shows of ``facts``. Only citations about a fact show it; the others (the page a
    switch is on, a title beside a row) are context, and decide nothing either way."""
    if not facts:
        return Coverage({}, (), broken("E4", f"{item_text!r} names nothing a citation could be about: state "
                                             "what should show (quote on-screen text) or use a probe"))
    bearing = [c for c in cited if c.visual
               or any(about(f, r) or _place_of(f, r, c) for f in facts for r in c.readings)]
    # a citation about nothing the item states shows nothing; beside one that does, it is context
    if not bearing:
        return Coverage({}, (), broken("E4", f"the cited {cited[0].what} {_not_about(facts, cited[0])}"))
    shown: dict[Fact, tuple[Shown, ...]] = {}
    unshown: list[Fact] = []
    for fact in facts:
        readings = tuple(r for c in cited for r in c.readings
                         if about(fact, r) or _place_of(fact, r, c))
        if not readings:
            if not any(c.visual for c in cited):
                unshown.append(fact)
            continue
        seen = any(c.visual for c in cited)  # a judgement of the pixels (opted in) shows what no text names
        if why := _disagrees(fact, readings) or ("" if seen else _unnamed(fact, readings)):
            return Coverage({}, (), why)
        shown[fact] = readings
    return Coverage(shown, tuple(unshown))


def _unnamed(fact: Fact, readings: Sequence[Shown]) -> str:
    """Why the citations do not show what the fact is said of, or what it says happens ('' when they do):
    the head of its subject ("a Bluetooth *headset*") and a main verb no rule reads ("the alarm *repeats*")
    must be named by what is cited or by the page or output it is on. (What is absent is not there.)"""
    if fact.absent or fact.navigation:
        return ""
    missing = sorted(t for t in fact.required
                     if not any(named(frozenset({t}), r.names | r.screen) for r in readings))
    if not missing:
        return ""
    return broken("E4", f"nothing cited names {', '.join(map(repr, missing))}, which {fact.text!r} is about: "
                        "evidence of part of what it names is not evidence of it")


def _place_of(fact: Fact, reading: Shown, citation: Cited) -> bool:
    """Whether an on-screen citation shows where an absent thing would be: any screen for something that
    names no place ("No 'keeps stopping' dialog"), a screen of the place it names for a value gone from it
    ("The alarm list no longer shows 8:30 AM": a screen of alarms, not the Settings page)."""
    if not (fact.absent and citation.on_screen):
        return False
    return not (fact.values and fact.strong) or named(fact.strong, reading.screen | reading.names)


def _not_about(facts: Sequence[Fact], citation: Cited) -> str:
    """Why no fact is about a citation, in the words a checker can act on."""
    readings = citation.readings
    if readings and all(r.system for r in readings) and not any(f.system for f in facts):
        return "is system UI (the status bar or home screen): it shows nothing about this item"
    wanted = {k for f in facts if not f.absent for k in f.kinds}
    if wanted and not any(wanted & r.kinds for r in readings):
        return f"is not a {' or '.join(sorted(wanted))}, which the item expects"
    topic = sorted({t for f in facts for t in f.topic}) or sorted({v.text for f in facts for v in f.values})
    named = readings[0].label if readings else ""
    return (f"({named!r}) names nothing the item is about ({', '.join(repr(t) for t in topic[:6])}): real "
            "but unrelated evidence shows nothing about it")


def _disagrees(fact: Fact, readings: Sequence[Shown]) -> str:
    """Why the readings about ``fact`` do not show it holds ('' when they do)."""
    if fact.absent:
        # A state gone by the run's doing may be cited with its history (the list before the delete); what
        # must not appear at all may not show anywhere cited.
        latest = max(r.moment for r in readings)
        present = next((r for r in readings if holds(fact, r) is False
                        and (fact.appearing or r.moment == latest)), None)
        if present is not None:
            return broken("E10", f"{present.where} shows {present.label[:80]!r}, which the item says does "
                                 "not appear")
        return ""
    if fact.navigation:
        if any(shows_page(fact, r) for r in readings):
            return ""
        return broken("E6", f"{readings[0].where} is not the page {fact.text!r} names: it shows "
                            f"{', '.join(repr(p) for p in readings[0].page[:4])}")
    if fact.state is not None:
        # The state must come from what shows the fact's values too: another alarm's switch says nothing.
        bearing = [r for r in readings if state_of(r, fact) is not None
                   and all(shows_value(r, v, fact) for v in fact.values)]
        if any(state_of(r, fact) == fact.state for r in bearing):
            return ""
        if bearing:
            return broken("E6", f"{bearing[0].where} shows {_subject(fact)} {state_of(bearing[0], fact)!r}, "
                                f"but the item wants it {fact.state!r}")
        if not any(state_of(r, fact) is not None for r in readings):
            return broken("E6", f"none of the citations shows a state of {_subject(fact)} (the item wants it "
                                f"{fact.state!r}): cite the switch, or a setting that reads 1 or 0")
    for value in fact.values:
        if not any(shows_value(r, value, fact) for r in readings):
            return broken("E6", _value_missing(fact, value.text or _time(value.time), readings))
    # a presence: what shows it may not deny it ("No result found")
    if fact.state is None and not fact.values:
        denied = [(r, word) for r in readings if (word := negated(r.label, "", fact))]
        if len(denied) == len(readings):
            reading, word = denied[0]
            return broken("E6", f"{reading.where} reads {reading.label[:120]!r}, which says {word!r}: "
                                "that is no evidence it holds")
    return ""


def _value_missing(fact: Fact, wanted: str, readings: Sequence[Shown]) -> str:
    for reading in readings:
        for text in (reading.label, *reading.row):
            if wanted and contains(text, wanted) and (word := negated(text, wanted, fact)):
                return (f"{wanted!r} is part of {text[:120]!r} on {reading.where}, which says {word!r}: that "
                        "is no evidence it holds")
    return f"none of the citations shows {wanted!r}, which the item names"


def _subject(fact: Fact) -> str:
    return "'" + " ".join(sorted(fact.strong or fact.weak)) + "'" if fact.topic else "it"


def _time(time: tuple[int, int, str] | None) -> str:
    if time is None:
        return ""
    hour, minute, half = time
    return f"{hour}:{minute:02d}{' ' + half.upper() if half else ''}"
