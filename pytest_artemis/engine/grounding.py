"""Grounding: a model verdict's citation is checked mechanically against what the harness recorded."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pytest_artemis.agents.prose import about_absence, quotes
from pytest_artemis.agents.schemas import CitationClaim
from pytest_artemis.contracts import CheckItem, Citation, ScreenView, ScreenWhich, StepRecord, UIElement

from .screens import RecordedScreens
from .wording import contains, negated, normalise

_BOOL = {"true": True, "on": True, "yes": True, "1": True,
         "false": False, "off": False, "no": False, "0": False}
_FLAGS = {"checked": "checked", "selected": "selected", "enabled": "enabled", "focused": "focused",
          "clickable": "clickable", "checkable": "checkable", "scrollable": "scrollable",
          "long-clickable": "long_clickable", "focusable": "focusable", "password": "password"}
_SHOWN_TEXTS = ("text", "content-desc", "content_desc", "desc", "label")
_TEXTS = {"text": "text", "content-desc": "content_desc", "desc": "content_desc",
          "resource-id": "resource_id",
          "id": "resource_id", "label": "label"}


def _negated(text: str, quote: str, item: CheckItem | None) -> str:
    """Why ``quote`` of ``text`` cannot show a pass of ``item`` ('' when it may, or no pass is claimed)."""
    word = negated(text, quote, item) if item is not None and quote else ""
    if not word:
        return ""
    shown = next((line.strip() for line in text.splitlines() if contains(line, quote)), text)[:120]
    return f"quoted {quote!r} is part of {shown!r}, which says {word!r}: that is no evidence of a pass"


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
        return f"{_where(claim)} was recorded before the agent first acted (step {acted})"
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


_EDITABLE = ("EditText", "AutoCompleteTextView", "SearchView", "SearchAutoComplete")


def _editable(element: UIElement, view: ScreenView) -> bool:
    """An input field, or OCR text read inside one."""
    def field(e: UIElement) -> bool:
        return e.source == "hierarchy" and any(k in e.class_name.rpartition(".")[2] for k in _EDITABLE)

    if element.source == "ocr":
        x, y = element.center
        return any(field(e) and e.bounds.contains(x, y) for e in view.elements)
    return field(element)


def _own_input(element: UIElement, view: ScreenView, text: str, typed_texts: Sequence[str]) -> str:
    """Why ``text`` in ``element`` shows only what the agent typed ('' when it may be evidence): what it
    typed at once or in parts (typing appends: "Alarm set fo", then "r 7:30 AM"), or a part of it, word
    boundaries or not (typed "Alarm set for 7:30 AMX", then the X erased)."""
    if not text or not typed_texts or not _editable(element, view):
        return ""
    joined = ("".join(typed_texts), " ".join(typed_texts)) if len(typed_texts) > 1 else ()
    typed = next((t for t in (*typed_texts, *joined) if normalise(text) in normalise(t)), None)
    return "" if typed is None else (f"{text!r} is in an input field and is what the operator typed "
                                     f"({typed!r}): the agent's own input is not evidence")


def _bounds(e: UIElement) -> tuple[int, int, int, int]:
    b = e.bounds
    return (b.left, b.top, b.right, b.bottom)


def _where(claim: CitationClaim) -> str:
    return "the final screen" if claim.screen == "final" else f"step {claim.step} {claim.screen}-screen"


def _found(
    claim: CitationClaim, view: ScreenView, element: UIElement | None, *, visual: bool = False
) -> Citation:
    return Citation(step=claim.step, screen=claim.screen, quote=claim.quote, element=claim.element,
                    attribute=claim.attribute, visual=visual, found=True,
                    found_in="screenshot" if visual or element is None else element.source,
                    screenshot=view.screenshot, bounds=_bounds(element) if element is not None else None)


def _attribute_holds(element: UIElement, attribute: str) -> str:
    """Empty when ``name=value`` holds for the element, else why not."""
    name, sep, value = attribute.partition("=")
    name, value = name.strip().casefold().replace("_", "-"), value.strip()
    if not sep or not name:
        return f"attribute {attribute!r} is not name=value"
    if name in _FLAGS:
        wanted = _BOOL.get(value.casefold())
        if wanted is None:
            return f"attribute {attribute!r} needs true or false"
        if name == "checked" and not element.checkable:  # its checked=false would hold of any text
            return "it is not checkable: it has no checked state"
        actual = bool(getattr(element, _FLAGS[name]))
        return "" if actual == wanted else f"it is {name}={'true' if actual else 'false'}"
    if name in _TEXTS:
        actual_text = element.label if name == "label" else str(getattr(element, _TEXTS[name]))
        return "" if value and contains(actual_text, value) else f"its {name} is {actual_text!r}"
    return f"unknown attribute {name!r} (use text, content-desc, resource-id, checked, selected, enabled, …)"


def _by_element(
    claim: CitationClaim, view: ScreenView, typed: Sequence[str], passing: CheckItem | None
) -> tuple[Citation | None, str]:
    element = next((e for e in view.elements if e.index == claim.element), None)
    if element is None:
        return None, f"element [{claim.element}] is not on {_where(claim)} ({len(view.elements)} elements)"
    if not claim.attribute and not claim.quote:
        return None, f"element [{claim.element}] cited without the attribute or text the verdict relies on"
    if claim.attribute and (why := _attribute_holds(element, claim.attribute)):
        return None, f"element [{claim.element}] on {_where(claim)} does not show {claim.attribute!r}: {why}"
    if claim.quote and not contains(element.label, claim.quote):
        return None, (f"quoted {claim.quote!r} not found in element [{claim.element}] on {_where(claim)} "
                      f"(it reads {element.label!r})")
    if why := _own_input(element, view, claim.quote or element.label, typed):
        return None, f"element [{claim.element}] on {_where(claim)}: {why}"
    name, _, value = claim.attribute.partition("=")
    quoted = claim.quote or (value.strip() if name.strip().casefold() in _SHOWN_TEXTS else "")
    if why := _negated(element.label, quoted, passing):
        return None, f"element [{claim.element}] on {_where(claim)}: {why}"
    return _found(claim, view, element), ""


def _by_quote(
    claim: CitationClaim, view: ScreenView, typed: Sequence[str], passing: CheckItem | None
) -> tuple[Citation | None, str]:
    unfit = ""
    for element in (e for e in view.elements if contains(e.label, claim.quote)):
        why = _own_input(element, view, claim.quote, typed) or _negated(element.label, claim.quote, passing)
        if not why:
            return _found(claim, view, element), ""
        unfit = unfit or why
    if unfit:
        return None, f"on {_where(claim)}, {unfit}"
    sources = "hierarchy and OCR text" if any(e.source == "ocr" for e in view.elements) else "text"
    return None, f"quoted {claim.quote!r} not found in {_where(claim)} {sources}"


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
    negating = [_negated(raw, claim.quote, passing) for raw in holding]
    if all(negating):
        return None, f"in the output of probe {claim.probe!r}, {negating[0]}"
    return Citation(probe=claim.probe, quote=claim.quote, found=True, found_in="probe"), ""


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
    return (view, "") if view is not None else (None, f"{_where(claim)} was not recorded")


def ground(
    claim: CitationClaim | None, item: CheckItem, window: Window, screens: RecordedScreens,
    probes: Sequence[ProbeOutput] = (), *, passed: bool = True,
) -> tuple[Citation | None, str]:
    """Resolve a verdict's citation; returns the resolved citation and, when it does not hold, why.

    A ``passed`` stands only on what shows the item holds when it is judged: for the goal or a completion
    criterion, nothing recorded before the agent first acted, nor an element state it already showed then;
    for an ``end`` item (the goal included), the final screen, a probe run now, or an earlier screen whose
    cited text or element still shows there in the same element; for a ``complete`` item, the screens
    served with its checkpoint (the anchor step and the one before) or an older one still showing it at
    the anchor, and a probe only if no later step had begun to act; never a quote from a text that says
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
    found, why = _on_view(claim, item, view, typed, passed=passed)
    if found is not None and passed:
        why = (_misses_quotes(claim, item, view) or _shows_absent(item, view, _where(claim))
               or _absence_served(item, window, screens)
               or _stale(claim, item, window, screens, typed, view)
               or _held_before(claim, item, window, screens, typed, view))
    return (found, "") if found is not None and not why else (unfound, why)


def _on_view(
    claim: CitationClaim, item: CheckItem, view: ScreenView, typed: Sequence[str] = (), *, passed: bool = True
) -> tuple[Citation | None, str]:
    """The claim resolved on one recorded screen: the citation found there, or why it is not."""
    passing = item if passed else None
    if claim.element is not None:
        found, why = _by_element(claim, view, typed, passing)
    elif claim.quote and len(normalise(claim.quote)) >= 2:
        found, why = _by_quote(claim, view, typed, passing)
    elif claim.quote:
        found, why = None, f"quote {claim.quote!r} is too short to identify anything"
    else:
        found, why = None, "the citation names a screen but no quote, element or probe"
    if found is None and claim.visual and item.visual and view.screenshot is not None:
        return _found(claim, view, None, visual=True), ""
    if found is None and claim.visual and not item.visual:
        why += "; a visual judgement counts only for checks declared visual=True"
    return found, why


def _misses_quotes(claim: CitationClaim, item: CheckItem, view: ScreenView) -> str:
    """Why a pass of a check item that quotes on-screen text rests on something else ('' when the cited
    element, or an element holding the cited quote, shows one of the item's quotes, itself or on its row):
    a real text that has nothing to do with the item ("Display" for "The page lists 'Dark theme'") shows
    nothing about it. Items about an absence, the goal, and visual judgements are not held to it."""
    wanted = quotes(item.text)
    if not wanted or item.kind == "goal" or about_absence(item.text) or claim.visual:
        return ""
    if claim.element is not None:
        cited = [e for e in view.elements if e.index == claim.element]
    else:
        cited = [e for e in view.elements if contains(e.label, claim.quote)]
    shown = [e.label for e in cited] + [label for e in cited for label in _row(view, e)]
    if any(contains(text, q) for text in shown for q in wanted):
        return ""
    what = f"element [{claim.element}]" if claim.element is not None else f"quote {claim.quote!r}"
    return (f"the item quotes {' / '.join(repr(q) for q in wanted)}, but the cited {what} on {_where(claim)} "
            "shows none of it, nor does its row: it is not evidence about this item")


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


def _row(view: ScreenView, element: UIElement) -> tuple[str, ...]:
    """The labels shown on ``element``'s row (other elements whose vertical centre lies within it)."""
    top, bottom = element.bounds.top, element.bounds.bottom
    return tuple(sorted(normalise(e.label) for e in view.elements
                        if e.index != element.index and e.label and top <= e.center[1] < bottom))


def _holds_on(claim: CitationClaim, item: CheckItem, cited: ScreenView, reference: ScreenView,
              typed: Sequence[str]) -> bool:
    """Whether what ``claim`` shows on the ``cited`` screen still shows on the ``reference`` one. It must
    show in the same element there, not only at the same index or in the same words: the same class and
    id, with the same labels on its row (element [4], or the text "ON", is the Wi-Fi switch on one page and
    the Bluetooth switch on another). A visual judgement names nothing that can be found again: it holds
    only on the screen it judged."""
    found = _on_view(claim, item, reference, typed)[0]
    if found is None or found.visual:
        return False
    if claim.element is not None:
        old, new = (next(e for e in v.elements if e.index == claim.element) for v in (cited, reference))
        return _identity(cited, old) == _identity(reference, new)
    then, now = ({_identity(v, e) for e in v.elements if contains(e.label, claim.quote)}
                 for v in (cited, reference))
    return bool(then & now)


def _identity(view: ScreenView, element: UIElement) -> tuple[str, str, tuple[str, ...]]:
    return element.class_name, element.resource_id, _row(view, element)


def _held_before(
    claim: CitationClaim, item: CheckItem, window: Window, screens: RecordedScreens, typed: Sequence[str],
    cited: ScreenView,
) -> str:
    """Why an element's state cannot show the goal or a completion criterion reached by the agent ('' when
    it may): the same element showed that state before the agent first acted, so the run changed nothing
    it shows (a vacuous pass). Only states (``checked=true``) are compared, not texts: the same words may
    show before and after for different reasons."""
    acted = window.first_acted
    name = claim.attribute.partition("=")[0].strip().casefold().replace("_", "-")
    if item.kind not in ("goal", "verify") or acted is None or claim.element is None or name not in _FLAGS:
        return ""
    before = screens.view(acted, "pre")
    at_start = claim.model_copy(update={"step": acted, "screen": "pre"})
    if before is None or not _holds_on(at_start, item, cited, before, typed):
        return ""
    return (f"element [{claim.element}] showed {claim.attribute!r} already before the agent first acted "
            f"(step {acted} pre-screen): the run changed nothing it shows")


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
            return f"{_where(claim)} is earlier than the end of the run, and no final screen was recorded"
        if absent := _shows_absent(item, finals[0], "the final screen"):
            return absent
        at_exit = claim.model_copy(update={"step": None, "screen": "final"})
        if _holds_on(at_exit, item, cited, finals[0], typed):
            return ""
        return (f"{_where(claim)} shows it, but the final screen no longer does: an end-of-run check rests "
                "on the state at exit (cite the final screen or a probe)")
    anchor = window.anchor
    if anchor is None or claim.step is None or claim.step >= anchor - 1:
        return ""
    post = screens.view(anchor, "post")
    which: ScreenWhich = "post" if post is not None and post.elements else "pre"
    view = post if which == "post" else screens.view(anchor, "pre")
    at_anchor = claim.model_copy(update={"step": anchor, "screen": which})
    if view is not None and _holds_on(at_anchor, item, cited, view, typed):
        return ""
    return (f"{_where(claim)} shows it, but step {anchor} (the anchor) no longer does: a checkpoint rests "
            f"on the state when its subgoal was marked done (cite step {anchor - 1} or {anchor})")
