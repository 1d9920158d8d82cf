"""A citation resolved on one recorded screen: the elements it names (its element, or every element holding
its quote), whether the attribute it relies on holds there, and whether what it names is the agent's own
typing ([E2] found, [E9] not own input, [E11] visual)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from pytest_artemis.agents.schemas import CitationClaim
from pytest_artemis.contracts import CheckItem, Citation, ScreenView, UIElement

from .rules import broken
from .terms import contains, normalise

_BOOL = {"true": True, "on": True, "yes": True, "1": True,
         "false": False, "off": False, "no": False, "0": False}
FLAGS = {"checked": "checked", "selected": "selected", "enabled": "enabled", "focused": "focused",
         "clickable": "clickable", "checkable": "checkable", "scrollable": "scrollable",
         "long-clickable": "long_clickable", "focusable": "focusable", "password": "password"}
_TEXTS = {"text": "text", "content-desc": "content_desc", "desc": "content_desc",
          "resource-id": "resource_id", "id": "resource_id", "label": "label"}
_EDITABLE = ("EditText", "AutoCompleteTextView", "SearchView", "SearchAutoComplete")


@dataclass(frozen=True)
class Resolved:
    """A claim found on one screen: the citation as found, and the elements it names there."""

    citation: Citation
    elements: tuple[UIElement, ...]


def where(claim: CitationClaim | Citation) -> str:
    """The cited screen in words ("step 3 post-screen", "the final screen")."""
    return "the final screen" if claim.screen == "final" else f"step {claim.step} {claim.screen}-screen"


def resolve(
    claim: CitationClaim, item: CheckItem, view: ScreenView, typed: Sequence[str] = ()
) -> tuple[Resolved | None, str]:
    """The claim resolved on ``view``, or why it is not there."""
    if claim.element is not None:
        found, why = _by_element(claim, view, typed)
    elif claim.quote and len(normalise(claim.quote)) >= 2:
        found, why = _by_quote(claim, view, typed)
    elif claim.quote:
        found, why = None, broken("E2", f"quote {claim.quote!r} is too short to identify anything")
    elif claim.visual:
        found, why = None, ""
    else:
        found, why = None, broken("E2", "the citation names a screen but no quote, element or probe")
    if found is None and claim.visual:
        if item.visual and view.screenshot is not None:
            return Resolved(found_on(claim, view, None, visual=True), ()), ""
        return None, broken("E11", "a visual judgement counts only for checks declared visual=True")
    return found, why


def _by_element(claim: CitationClaim, view: ScreenView, typed: Sequence[str]) -> tuple[Resolved | None, str]:
    element = next((e for e in view.elements if e.index == claim.element), None)
    if element is None:
        return None, broken("E2", f"element [{claim.element}] is not on {where(claim)} "
                                  f"({len(view.elements)} elements)")
    if not claim.attribute and not claim.quote:
        return None, broken("E2", f"element [{claim.element}] cited without the attribute or text the "
                                  "verdict relies on")
    if claim.attribute and (why := _attribute_holds(element, claim.attribute)):
        return None, broken("E2", f"element [{claim.element}] on {where(claim)} does not show "
                                  f"{claim.attribute!r}: {why}")
    if claim.quote and not any(contains(t, claim.quote) for t in _texts(element)):
        return None, broken("E2", f"quoted {claim.quote!r} not found in element [{claim.element}] on "
                                  f"{where(claim)} (it reads {element.label!r})")
    if why := _own_input(element, view, claim.quote or element.label, typed):
        return None, broken("E9", f"element [{claim.element}] on {where(claim)}: {why}")
    return Resolved(found_on(claim, view, element), (element,)), ""


def _by_quote(claim: CitationClaim, view: ScreenView, typed: Sequence[str]) -> tuple[Resolved | None, str]:
    holding = [e for e in view.elements if any(contains(t, claim.quote) for t in _texts(e))]
    if not holding:
        sources = "hierarchy and OCR text" if any(e.source == "ocr" for e in view.elements) else "text"
        return None, broken("E2", f"quoted {claim.quote!r} not found in {where(claim)} {sources}")
    if claim.attribute:  # what the citation says of the element holding the quote must be true of it
        said = [e for e in holding if not _attribute_holds(e, claim.attribute)]
        if not said:
            return None, broken("E2", f"the element holding {claim.quote!r} on {where(claim)} does not show "
                                      f"{claim.attribute!r}: {_attribute_holds(holding[0], claim.attribute)}")
        holding = said
    theirs = [e for e in holding if not _own_input(e, view, claim.quote, typed)]
    if not theirs:
        return None, broken("E9", f"on {where(claim)}, {_own_input(holding[0], view, claim.quote, typed)}")
    return Resolved(found_on(claim, view, theirs[0]), tuple(theirs)), ""


def _texts(element: UIElement) -> tuple[str, ...]:
    """What a quote of an element may be of: its text and its content description (listed as desc=)."""
    return tuple(t for t in (element.text, element.content_desc) if t)


_ATTRIBUTE = re.compile(r"^\s*([\w-]+)\s*(?:[=:]\s*(.*?))?\s*$")


def _attribute_holds(element: UIElement, attribute: str) -> str:
    """Empty when the attribute holds for the element, else why not: ``name=value`` (or ``name: value``,
    as a listing reads; a flag named alone, ``checked``, means it is true)."""
    parsed = _ATTRIBUTE.match(attribute)
    if parsed is None:
        return f"attribute {attribute!r} is not name=value"
    name = parsed.group(1).casefold().replace("_", "-")
    value = parsed.group(2) if parsed.group(2) is not None else ("true" if name in FLAGS else "")
    value = value.strip().strip("'\"")
    if name in FLAGS:
        wanted = _BOOL.get(value.casefold())
        if wanted is None:
            return f"attribute {attribute!r} needs true or false"
        if name == "checked" and not element.checkable:  # its checked=false would hold of any text
            return "it is not checkable: it has no checked state"
        actual = bool(getattr(element, FLAGS[name]))
        return "" if actual == wanted else f"it is {name}={'true' if actual else 'false'}"
    if name in _TEXTS:
        actual_text = element.label if name == "label" else str(getattr(element, _TEXTS[name]))
        return "" if value and contains(actual_text, value) else f"its {name} is {actual_text!r}"
    return f"unknown attribute {name!r} (use text, content-desc, resource-id, checked, selected, enabled, …)"


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


def found_on(
    claim: CitationClaim, view: ScreenView, element: UIElement | None, *, visual: bool = False
) -> Citation:
    """The claim as a found citation on ``view`` (in ``element``, or in the screenshot itself)."""
    bounds = None if element is None else (element.bounds.left, element.bounds.top, element.bounds.right,
                                           element.bounds.bottom)
    return Citation(step=claim.step, screen=claim.screen, quote=claim.quote, element=claim.element,
                    attribute=claim.attribute, visual=visual, found=True,
                    found_in="screenshot" if visual or element is None else element.source,
                    screenshot=view.screenshot, bounds=bounds)


def identity(view: ScreenView, element: UIElement) -> tuple[str, str, tuple[str, ...]]:
    """What makes an element the same one on another screen: its class, id and the labels on its row."""
    top, bottom = element.bounds.top, element.bounds.bottom
    row = tuple(sorted(normalise(e.label) for e in view.elements
                       if e.index != element.index and e.label and top <= e.center[1] < bottom))
    return element.class_name, element.resource_id, row
