"""A citation resolved on one recorded screen: the element or quote it names, its attribute, and whether
what it shows is the agent's own input or a text that says the opposite."""

from __future__ import annotations

from collections.abc import Sequence

from pytest_artemis.agents.schemas import CitationClaim
from pytest_artemis.contracts import CheckItem, Citation, ScreenView, UIElement

from .wording import contains, negated, normalise

_BOOL = {"true": True, "on": True, "yes": True, "1": True,
         "false": False, "off": False, "no": False, "0": False}
FLAGS = {"checked": "checked", "selected": "selected", "enabled": "enabled", "focused": "focused",
          "clickable": "clickable", "checkable": "checkable", "scrollable": "scrollable",
          "long-clickable": "long_clickable", "focusable": "focusable", "password": "password"}
_SHOWN_TEXTS = ("text", "content-desc", "content_desc", "desc", "label")
_TEXTS = {"text": "text", "content-desc": "content_desc", "desc": "content_desc",
          "resource-id": "resource_id",
          "id": "resource_id", "label": "label"}


def contrary(text: str, quote: str, item: CheckItem | None) -> str:
    """Why ``quote`` of ``text`` cannot show a pass of ``item`` ('' when it may, or no pass is claimed)."""
    word = negated(text, quote, item) if item is not None and quote else ""
    if not word:
        return ""
    shown = next((line.strip() for line in text.splitlines() if contains(line, quote)), text)[:120]
    return f"quoted {quote!r} is part of {shown!r}, which says {word!r}: that is no evidence of a pass"


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


def where(claim: CitationClaim) -> str:
    """The cited screen in words ("step 3 post-screen", "the final screen")."""
    return "the final screen" if claim.screen == "final" else f"step {claim.step} {claim.screen}-screen"


def found_on(
    claim: CitationClaim, view: ScreenView, element: UIElement | None, *, visual: bool = False
) -> Citation:
    """The claim as a found citation on ``view`` (in ``element``, or in the screenshot itself)."""
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


def _by_element(
    claim: CitationClaim, view: ScreenView, typed: Sequence[str], passing: CheckItem | None
) -> tuple[Citation | None, str]:
    element = next((e for e in view.elements if e.index == claim.element), None)
    if element is None:
        return None, f"element [{claim.element}] is not on {where(claim)} ({len(view.elements)} elements)"
    if not claim.attribute and not claim.quote:
        return None, f"element [{claim.element}] cited without the attribute or text the verdict relies on"
    if claim.attribute and (why := _attribute_holds(element, claim.attribute)):
        return None, f"element [{claim.element}] on {where(claim)} does not show {claim.attribute!r}: {why}"
    if claim.quote and not contains(element.label, claim.quote):
        return None, (f"quoted {claim.quote!r} not found in element [{claim.element}] on {where(claim)} "
                      f"(it reads {element.label!r})")
    if why := _own_input(element, view, claim.quote or element.label, typed):
        return None, f"element [{claim.element}] on {where(claim)}: {why}"
    name, _, value = claim.attribute.partition("=")
    quoted = claim.quote or (value.strip() if name.strip().casefold() in _SHOWN_TEXTS else "")
    if why := contrary(element.label, quoted, passing):
        return None, f"element [{claim.element}] on {where(claim)}: {why}"
    return found_on(claim, view, element), ""


def _by_quote(
    claim: CitationClaim, view: ScreenView, typed: Sequence[str], passing: CheckItem | None
) -> tuple[Citation | None, str]:
    unfit = ""
    for element in (e for e in view.elements if contains(e.label, claim.quote)):
        why = _own_input(element, view, claim.quote, typed) or contrary(element.label, claim.quote, passing)
        if not why:
            return found_on(claim, view, element), ""
        unfit = unfit or why
    if unfit:
        return None, f"on {where(claim)}, {unfit}"
    sources = "hierarchy and OCR text" if any(e.source == "ocr" for e in view.elements) else "text"
    return None, f"quoted {claim.quote!r} not found in {where(claim)} {sources}"


def on_view(
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
        return found_on(claim, view, None, visual=True), ""
    if found is None and claim.visual and not item.visual:
        why += "; a visual judgement counts only for checks declared visual=True"
    return found, why


def row(view: ScreenView, element: UIElement) -> tuple[str, ...]:
    """The labels shown on ``element``'s row (other elements whose vertical centre lies within it)."""
    top, bottom = element.bounds.top, element.bounds.bottom
    return tuple(sorted(normalise(e.label) for e in view.elements
                        if e.index != element.index and e.label and top <= e.center[1] < bottom))


def identity(view: ScreenView, element: UIElement) -> tuple[str, str, tuple[str, ...]]:
    """What makes an element the same one on another screen: its class, id and the labels on its row."""
    return element.class_name, element.resource_id, row(view, element)
