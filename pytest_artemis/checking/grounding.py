"""Grounding: a model verdict's citation is checked mechanically against what the harness recorded."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pytest_artemis.agents.prose import about_absence, quotes
from pytest_artemis.agents.schemas import CitationClaim
from pytest_artemis.contracts import CheckItem, Citation, ScreenView, ScreenWhich, StepRecord, UIElement

from .on_screen import FLAGS, contrary, identity, on_view, row, where
from .screens import RecordedScreens
from .wording import contains, normalise


@dataclass(frozen=True)
class Window:
    """What a verdict may cite: steps up to ``last_step`` (the anchor at a checkpoint), and the final
    screens only at the final entry. ``first_acted`` is the first step that ran an action (None: the
    agent never acted, it only claimed); what was recorded before it cannot show a goal or a completion
    criterion reached by the agent."""

    last_step: int
    final: bool = False
    anchor: int | None = None
    first_acted: int | None = None
    typed: tuple[str, ...] = ()
    """What the operator typed up to ``last_step``: in a text field, that is the agent's own words."""

    @classmethod
    def over(cls, steps: Sequence[StepRecord], *, final: bool = False, anchor: int | None = None) -> Window:
        """The window over ``steps`` (the run's steps up to the anchor, or all of them at the final check)."""
        return cls(last_step=len(steps), final=final, anchor=anchor, first_acted=first_acted(steps),
                   typed=tuple(r.action.text for s in steps for r in s.results
                               if r.ok and r.action.kind == "type"))


def first_acted(steps: Sequence[StepRecord]) -> int | None:
    """The first step that ran any action besides claiming ``finish``."""
    return next((s.step for s in steps if any(r.ok and r.action.kind != "finish" for r in s.results)), None)


def _before_acting(claim: CitationClaim, window: Window) -> str:
    """Why a completion criterion or the goal may not rest on this citation ('' when it may)."""
    if window.first_acted is None:
        return "the agent never acted: everything recorded shows the state before the run"
    if claim.screen == "final" or claim.probe or claim.step is None:
        return ""
    acted = window.first_acted
    if claim.step < acted or (claim.step == acted and claim.screen == "pre"):
        return f"{where(claim)} was recorded before the agent first acted (step {acted})"
    return ""


@dataclass(frozen=True)
class ProbeOutput:
    """A probe the checker ran in this judgement, its raw output and, when that output could not be read as
    the probe's format (an error message, a failed command), why; ``acted`` is the latest step whose
    actions had started on the device before the probe read it."""

    kind: str
    raw: str
    unreadable: str = ""
    acted: int = 0


def _by_probe(
    claim: CitationClaim, probes: Sequence[ProbeOutput], passing: CheckItem | None, anchor: int | None
) -> tuple[Citation | None, str]:
    ran = [p for p in probes if p.kind.casefold() == claim.probe.strip().casefold()]
    if not ran:
        return None, f"probe {claim.probe!r} was not run in this judgement"
    late = ran[-1].acted
    ran = [p for p in ran if anchor is None or p.acted <= anchor]
    if not ran:  # like the live screen, a probe reads the device now, and it has moved on
        return None, (f"probe {claim.probe!r} ran after step {late}'s actions had started: it shows the "
                      f"device after the anchor step {anchor}, not the state this checkpoint judges")
    failed = ran[-1].unreadable
    ran = [p for p in ran if not p.unreadable]
    if not ran:  # an error message echoes the query it failed on: it shows nothing about the device
        return None, f"probe {claim.probe!r} gave no readable output ({failed}): its text is not evidence"
    if not claim.quote:
        return None, f"probe {claim.probe!r} cited without a quote of its output"
    holding = [p.raw for p in ran if contains(p.raw, claim.quote)]
    if not holding:
        return None, f"quoted {claim.quote!r} not found in the output of probe {claim.probe!r}"
    negating = [contrary(raw, claim.quote, passing) for raw in holding]
    if all(negating):
        return None, f"in the output of probe {claim.probe!r}, {negating[0]}"
    if passing is not None and (why := _probe_misses_quotes(claim, passing, holding)):
        return None, why
    return Citation(probe=claim.probe, quote=claim.quote, found=True, found_in="probe"), ""


def _probe_misses_quotes(claim: CitationClaim, item: CheckItem, outputs: Sequence[str]) -> str:
    """``_misses_quotes`` for a probe: the quote of its output, or that quote's line, holds one of the item's
    quotes (the alarms probe's "07:30" shows nothing about "A toast says 'Alarm set'")."""
    lines = [line for raw in outputs for line in raw.splitlines() if contains(line, claim.quote)]
    what = f"the quoted {claim.quote!r} of probe {claim.probe!r} shows none of it, nor does its line"
    return _shows_none(item, (claim.quote, *lines), what)


def _shows_none(item: CheckItem, shown: Sequence[str], what: str) -> str:
    """Why a pass of a check item that quotes text rests on texts (``shown``) holding none of its quotes
    ('' when one does): a real text that has nothing to do with the item shows nothing about it. Items about
    an absence and the goal (an intent, not a text to find) are not held to it."""
    wanted = quotes(item.text)
    if not wanted or item.kind == "goal" or about_absence(item.text):
        return ""
    if any(contains(text, q) for text in shown for q in wanted):
        return ""
    said = " / ".join(repr(q) for q in wanted)
    return f"the item quotes {said}, but {what}: it is not evidence about this item"


def _screen(claim: CitationClaim, window: Window, screens: RecordedScreens) -> tuple[ScreenView | None, str]:
    if claim.screen == "final":
        if not window.final:
            return None, "the final screen cannot be cited here: a checkpoint judges from recorded history"
        finals = screens.finals()
        return (finals[0], "") if finals else (None, "no final screen was recorded")
    if claim.step is None:
        return None, "the citation names no step"
    if claim.step > window.last_step:
        if window.anchor is not None:
            return None, (f"step {claim.step} is after the anchor step {window.anchor}: this item is judged "
                          f"from step {window.anchor} and earlier")
        return None, f"step {claim.step} was never recorded (the run has {window.last_step} steps)"
    view = screens.view(claim.step, claim.screen)
    return (view, "") if view is not None else (None, f"{where(claim)} was not recorded")


def ground(
    claim: CitationClaim | None, item: CheckItem, window: Window, screens: RecordedScreens,
    probes: Sequence[ProbeOutput] = (), *, passed: bool = True,
) -> tuple[Citation | None, str]:
    """Resolve a verdict's citation; returns the resolved citation and, when it does not hold, why.

    A ``passed`` stands only on what shows the item holds when it is judged: for the goal or a completion
    criterion, nothing recorded before the agent first acted, nor an element state it already showed then;
    for an ``end`` item (the goal included), the final screen, a probe run now, or an earlier screen whose
    cited text or element still shows there in the same element; for a ``complete`` item, the screens
    served with its checkpoint (the anchor step and the one before; an element's state there only if the
    same element does not show otherwise after the anchor step's actions) or an older one still showing
    it at the anchor, and a probe only if no later step had begun to act; never a quote from a text that says
    the opposite, nor, for a check item that quotes text, a citation showing none of it, nor, for an item
    about an absence, a judgement served a screen that shows it. No verdict
    rests on a probe's unreadable output. Blocking (a cited screen may need OCR once). The citation is
    kept even when not found, so the ledger shows what was claimed.
    """
    if claim is None:
        return None, "no citation: a verdict must cite a recorded screen (quote or element) or a probe"
    unfound = Citation(step=claim.step, screen=claim.screen, quote=claim.quote, element=claim.element,
                       attribute=claim.attribute, probe=claim.probe, visual=claim.visual)
    if passed and item.kind in ("goal", "verify") and (why := _before_acting(claim, window)):
        return unfound, why
    if claim.probe:
        found, why = _by_probe(claim, probes, item if passed else None, window.anchor)
        return found or unfound, why
    view, why = _screen(claim, window, screens)
    if view is None:
        return unfound, why
    typed = window.typed if passed else ()
    found, why = on_view(claim, item, view, typed, passed=passed)
    if found is not None and passed:
        why = (_misses_quotes(claim, item, view) or _shows_absent(item, view, where(claim))
               or _absence_served(item, window, screens)
               or _stale(claim, item, window, screens, typed, view)
               or _held_before(claim, item, window, screens, typed, view))
    return (found, "") if found is not None and not why else (unfound, why)


def _misses_quotes(claim: CitationClaim, item: CheckItem, view: ScreenView) -> str:
    """Why a pass of a check item that quotes on-screen text rests on something else ('' when the cited
    element, or an element holding the cited quote, shows one of the item's quotes, itself or on its row;
    "Display" shows nothing about "The page lists 'Dark theme'"). A visual judgement is not held to it."""
    if claim.visual:
        return ""
    cited = _cited(claim, view)
    shown = [e.label for e in cited] + [label for e in cited for label in row(view, e)]
    what = f"element [{claim.element}]" if claim.element is not None else f"quote {claim.quote!r}"
    return _shows_none(item, shown, f"the cited {what} on {where(claim)} shows none of it, nor does its row")


def _shows_absent(item: CheckItem, view: ScreenView, where: str) -> str:
    """Why a screen cannot show that an item about an absence holds ('' when it may): it shows a text the
    item quotes as absent ("No 'keeps stopping' dialog appears" cited on a screen reading "Settings keeps
    stopping")."""
    if not about_absence(item.text):
        return ""
    shown = next((q for q in quotes(item.text) for e in view.elements if contains(e.label, q)), None)
    return f"{where} shows {shown!r}, which the item says does not appear" if shown else ""


def _absence_served(item: CheckItem, window: Window, screens: RecordedScreens) -> str:
    """Why an item about an absence cannot pass, whatever screen is cited ('' when it may): a screen its
    judgement was served shows what should be absent (a checkpoint: the anchor step and the one before;
    the final check: the last step and the final screen)."""
    if not about_absence(item.text):
        return ""
    last = window.anchor if window.anchor is not None else window.last_step
    for step in (n for n in ((last,) if window.final else (last - 1, last)) if n >= 1):
        for which in ("pre", "post"):
            view = screens.view(step, which)
            if view is not None and (why := _shows_absent(item, view, f"step {step} {which}-screen")):
                return why
    return ""


def _holds_on(claim: CitationClaim, item: CheckItem, cited: ScreenView, reference: ScreenView,
              typed: Sequence[str]) -> bool:
    """Whether what ``claim`` shows on the ``cited`` screen still shows on the ``reference`` one. It must
    show in the same element there, not only at the same index or in the same words: the same class and
    id, with the same labels on its row (element [4], or the text "ON", is the Wi-Fi switch on one page and
    the Bluetooth switch on another). A visual judgement names nothing that can be found again: it holds
    only on the screen it judged."""
    found = on_view(claim, item, reference, typed)[0]
    if found is None or found.visual:
        return False
    if claim.element is not None:
        old, new = (next(e for e in v.elements if e.index == claim.element) for v in (cited, reference))
        return identity(cited, old) == identity(reference, new)
    then, now = ({identity(v, e) for e in v.elements if contains(e.label, claim.quote)}
                 for v in (cited, reference))
    return bool(then & now)


def _changed_at_anchor(
    claim: CitationClaim, item: CheckItem, window: Window, screens: RecordedScreens, typed: Sequence[str],
    cited: ScreenView,
) -> str:
    """Why a served screen before the anchor's post-screen cannot show an element's state at the anchor
    ('' when it may): the same element shows otherwise on the anchor's post-screen, so the anchor step's
    own action (or the one before) changed it. Only a state is held to this (an attribute, or the text of a
    checkable element that reads "ON"/"OFF"): a message in a view that stays on screen may be transient,
    and the checkpoint judges transient expectations from the screens it is served. An element that left the
    screen contradicts nothing; a quote several switches show stands if one of them still shows it."""
    anchor = window.anchor
    post = screens.view(anchor, "post") if anchor is not None else None
    if post is None or (claim.step, claim.screen) == (anchor, "post"):
        return ""
    states = _states(claim, cited)
    at_anchor = claim.model_copy(update={"step": anchor, "screen": "post"})
    for element in states:
        present = any(identity(post, e) == identity(cited, element) for e in post.elements)
        if not present or _shows_still(at_anchor, item, cited, element, post, typed):
            return ""
    if not states:
        return ""
    return (f"{where(claim)} shows it, but the same element on step {anchor} post-screen (the anchor) shows "
            "otherwise: a checkpoint rests on the state when its subgoal was marked done")


def _held_before(
    claim: CitationClaim, item: CheckItem, window: Window, screens: RecordedScreens, typed: Sequence[str],
    cited: ScreenView,
) -> str:
    """Why an element's state cannot show the goal or a completion criterion reached by the agent ('' when
    it may): the same element showed that state before the agent first acted, so the run changed nothing
    it shows (a vacuous pass). Only states are compared (an attribute such as ``checked=true``, or the
    text of a checkable element that reads "ON"/"OFF"), not other texts: the same words may show before and
    after for different reasons. A quote that several switches show is vacuous only if all of them did."""
    acted = window.first_acted
    before = screens.view(acted, "pre") if acted is not None else None
    if item.kind not in ("goal", "verify") or before is None:
        return ""
    states = _states(claim, cited)
    at_start = claim.model_copy(update={"step": acted, "screen": "pre"})
    if not states or not all(_shows_still(at_start, item, cited, e, before, typed) for e in states):
        return ""
    what = (f"element [{claim.element}]" if claim.element is not None
            else f"the checkable element showing {claim.quote!r}")
    shown = claim.attribute or claim.quote
    return (f"{what} showed {shown!r} already before the agent first acted (step {acted} pre-screen): the "
            "run changed nothing it shows")


_STATE_WORDS = frozenset({"on", "off"})
"""What a checkable element's own text says when it is its state (a switch reading "ON"), not its name."""


def _states(claim: CitationClaim, cited: ScreenView) -> list[UIElement]:
    """The cited elements whose state the claim shows: by an attribute (``checked=true``), or by the text
    of a checkable element when that text is its state (a switch reading "ON", not one labelled "Wi-Fi")."""
    name = claim.attribute.partition("=")[0].strip().casefold().replace("_", "-")
    return [e for e in _cited(claim, cited)
            if name in FLAGS or (e.checkable and normalise(e.label) in _STATE_WORDS)]


def _cited(claim: CitationClaim, view: ScreenView) -> list[UIElement]:
    """The elements of ``view`` a screen citation names: its element, or every element holding its quote."""
    if claim.element is not None:
        return [e for e in view.elements if e.index == claim.element]
    return [e for e in view.elements if contains(e.label, claim.quote)]


def _shows_still(
    claim: CitationClaim, item: CheckItem, cited: ScreenView, element: UIElement, other: ScreenView,
    typed: Sequence[str],
) -> bool:
    """Whether the same element as ``element`` (of the ``cited`` screen) is on ``other`` and shows what the
    claim (placed on ``other``) cites."""
    same = (e for e in other.elements if identity(other, e) == identity(cited, element))
    return any(on_view(claim.model_copy(update={"element": e.index}), item, other, typed)[0] is not None
               for e in same)


def _stale(
    claim: CitationClaim, item: CheckItem, window: Window, screens: RecordedScreens, typed: Sequence[str],
    cited: ScreenView,
) -> str:
    """Why an earlier screen cannot show that an item holds when it is judged ('' when it may): the state
    may have changed after it was recorded. An ``end`` item (the goal included) holds at exit, so at the
    final check what an earlier screen shows must still show on the final screen; a ``complete`` item
    holds when its subgoal was marked done, so what a screen before the ones served with its checkpoint
    (the anchor step and the one before) shows must still show at the anchor step."""
    if window.final and item.when == "end" and claim.screen != "final":
        finals = screens.finals()
        if not finals:
            return f"{where(claim)} is earlier than the end of the run, and no final screen was recorded"
        if absent := _shows_absent(item, finals[0], "the final screen"):
            return absent
        at_exit = claim.model_copy(update={"step": None, "screen": "final"})
        if _holds_on(at_exit, item, cited, finals[0], typed):
            return ""
        return (f"{where(claim)} shows it, but the final screen no longer does: an end-of-run check rests "
                "on the state at exit (cite the final screen or a probe)")
    anchor = window.anchor
    if anchor is None or claim.step is None:
        return ""
    if claim.step >= anchor - 1:
        return _changed_at_anchor(claim, item, window, screens, typed, cited)
    post = screens.view(anchor, "post")
    which: ScreenWhich = "post" if post is not None and post.elements else "pre"
    view = post if which == "post" else screens.view(anchor, "pre")
    at_anchor = claim.model_copy(update={"step": anchor, "screen": which})
    if view is not None and _holds_on(at_anchor, item, cited, view, typed):
        return ""
    return (f"{where(claim)} shows it, but step {anchor} (the anchor) no longer does: a checkpoint rests "
            f"on the state when its subgoal was marked done (cite step {anchor - 1} or {anchor})")
