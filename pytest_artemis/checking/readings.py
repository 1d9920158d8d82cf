"""What a piece of recorded evidence shows: one screen element (with its row) or one probe output (a line of
it, or the whole of a complete listing), read as the names it bears, the state it says, the kind of UI it
is and whether it is system UI — and, against a fact, whether it is about it and whether it shows it holds."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pytest_artemis.contracts import ScreenView, UIElement

from .facts import OFF_WORDS, ON_WORDS, Fact, State, Value
from .terms import contains, fold, normalise, numbers, same_time, spans, stem, terms, times, words

SYSTEM_PACKAGES = ("com.android.systemui",)
_DIALOG_IDS = frozenset({"alerttitle", "message", "parentpanel", "contentpanel", "title_template",
                         "toppanel", "buttonpanel"})
PROBE_KINDS_SHOW = {"window_focus": frozenset({"dialog"}),
                    "notifications": frozenset({"notification", "banner"})}
"""The kinds of UI a probe's output can show (window focus holds a dialog, notifications a banner)."""
LISTINGS = frozenset({"alarms", "content", "packages", "notifications", "settings"})
"""Probe kinds whose output is a complete listing: what it does not list is not there."""
_STATE_TEXT: dict[str, State] = {"on": "on", "off": "off", "enabled": "on", "disabled": "off",
               "connected": "on", "disconnected": "off", "active": "on", "inactive": "off", "yes": "on",
               "no": "off"}
_BOOLEAN: dict[str, State] = {"1": "on", "0": "off"}
_NEGATING = re.compile(r"\b(no|not|never|none|nothing|without|failed|unable|cannot|\w+n t)\b")
_CLAUSES = re.compile(r"[,;()\[\]\n|\u2022\u00b7]|\.(?!\d)|:(?!\d)")


@dataclass(frozen=True)
class Shown:
    """One reading: what ``label`` (with ``row`` around it) says, where and when it was recorded."""

    where: str
    moment: float
    """When it was read: 0 the baseline before the first action, ``2n-1``/``2n`` step n's pre/post screen,
    then probes by the step that had begun when they ran, the final screen last."""
    label: str
    row: tuple[str, ...] = ()
    names: frozenset[str] = frozenset()
    """Terms naming it: its own text, its row, its id (a probe: its kind, parameters, the line)."""
    state: State | None = None
    """Its own state: a checkable element's checked, a setting that is 0 or 1."""
    kinds: frozenset[str] = frozenset()
    system: bool = False
    complete: bool = False
    """A complete listing (a probe's whole output): a value it does not hold is not there."""
    screen: frozenset[str] = frozenset()
    """The terms of the whole screen it is on and its foreground app (for navigation facts)."""
    source: str = ""
    """The probe call it came from (its kind and parameters): the same call before the run is its baseline."""
    page: tuple[str, ...] = ()
    """The labels of the whole screen it is on (not system UI): what page it shows."""


def is_system(element: UIElement, view: ScreenView) -> bool:
    """The status bar, navigation bar and home screen: system UI, evidence only of itself."""
    package = element.package or (view.foreground if element.source == "ocr" else "")
    if element.resource_id.startswith(tuple(f"{p}:" for p in SYSTEM_PACKAGES)) or package in SYSTEM_PACKAGES:
        return True
    if "launcher" in package or package.endswith(".home"):
        return True
    if element.source == "ocr":  # text read inside a system bar
        x, y = element.center
        return any(is_system(e, view) for e in view.elements if e.source == "hierarchy" and e.label
                   and e.bounds.contains(x, y) and e.resource_id.startswith("com.android.systemui:"))
    return False


def element_kinds(element: UIElement) -> frozenset[str]:
    """The kinds of UI an element is: a toast (text only the screenshot shows), a dialog, a switch …"""
    short = element.class_name.rpartition(".")[2].casefold()
    rid = element.resource_id.rpartition(":id/")[2].casefold()
    kinds = set()
    if element.source == "ocr" or "toast" in short:
        kinds.add("toast")
    if "snackbar" in short or "snackbar" in rid:
        kinds.add("snackbar")
    if element.package == "android" or rid in _DIALOG_IDS or "dialog" in short or "dialog" in rid \
            or "alert" in rid:
        kinds.add("dialog")
    if element.checkable or "switch" in short or "toggle" in short:
        kinds.add("switch")
    if "checkbox" in short or element.checkable:
        kinds.add("checkbox")
    if short.endswith("button") or element.clickable:
        kinds.add("button")
    if "notification" in rid:
        kinds.add("notification")
    return frozenset(kinds)


def row_of(view: ScreenView, element: UIElement) -> tuple[str, ...]:
    """The labels shown on ``element``'s row (other elements whose vertical centre lies within it)."""
    top, bottom = element.bounds.top, element.bounds.bottom
    return tuple(e.label for e in view.elements
                 if e.index != element.index and e.label and top <= e.center[1] < bottom)


def _element_state(element: UIElement) -> State | None:
    if element.checkable:
        return "on" if element.checked else "off"
    return None


def element_shown(view: ScreenView, element: UIElement, where: str, moment: float) -> Shown:
    """What one element of a recorded screen shows."""
    row = row_of(view, element)
    rid = element.resource_id.rpartition(":id/")[2]
    names = terms(element.text) | terms(element.content_desc) | terms(rid) | frozenset(
        t for label in row for t in terms(label))
    page = tuple(e.label for e in view.elements if e.label and not is_system(e, view))
    # the home screen is no page
    home = view.foreground in SYSTEM_PACKAGES or "launcher" in view.foreground
    screen = frozenset(t for label in page for t in terms(label)) | (
        frozenset() if home else terms(view.foreground))
    own = " / ".join(dict.fromkeys(t for t in (element.text, element.content_desc) if t))
    return Shown(where=where, moment=moment, label=own, row=row, names=names,
                 state=_element_state(element), kinds=element_kinds(element), system=is_system(element, view),
                 screen=screen, page=page)


def probe_shown(kind: str, params: Mapping[str, str], text: str, where: str, moment: float,
                *, complete: bool = False, output: str = "") -> Shown:
    """What a probe's output (one line of it, or all of a listing) shows; ``output`` is the whole output a
    line is part of (what the line is about, as a page is for an element on it)."""
    named = terms(kind) | frozenset(t for v in params.values() for t in terms(v))
    line_terms = frozenset() if complete else terms(text)
    return Shown(where=where, moment=moment, label=text, names=named | line_terms,
                 state=_probe_state(kind, params, text), kinds=PROBE_KINDS_SHOW.get(kind, frozenset()),
                 complete=complete, source=probe_call(kind, params),
                 screen=terms(output) if output else named)


def probe_call(kind: str, params: Mapping[str, str]) -> str:
    """A probe call as one string: its kind and sorted parameters."""
    return kind + "".join(f" {k}={v}" for k, v in sorted(params.items()))


_SETTING_STATES: dict[str, dict[str, State]] = {"ui_night_mode": {"2": "on", "1": "off"}}
"""Settings whose values are not 1/0 (``ui_night_mode``: 2 dark theme on, 1 off, 0 automatic)."""


def _probe_state(kind: str, params: Mapping[str, str], text: str) -> State | None:
    """A boolean setting's state: ``wifi_on`` (or ``wifi_on=1`` in a listing) that is 1 or 0, or a setting
    whose values are known (``ui_night_mode``)."""
    key, value = params.get("key", ""), text.strip()
    if kind == "settings" and "=" in value:
        key, _, value = value.partition("=")
    elif kind != "setting":
        return None
    key, value = key.strip().casefold(), value.strip()
    if key in _SETTING_STATES:
        return _SETTING_STATES[key].get(value)
    if not key.endswith(("_on", "_enabled", "_enable")):
        return None
    return _BOOLEAN.get(value)


def about(fact: Fact, shown: Shown) -> bool:
    """Whether ``shown`` is about ``fact``: not system UI unless the fact is; of the kind of UI the fact
    names; and naming its topic or showing one of its values."""
    if shown.system and not fact.system:
        return False
    if fact.absent and fact.kinds & shown.kinds:
        return True
    if fact.kinds and not fact.absent and not fact.kinds & shown.kinds:
        return False
    if fact.navigation:
        return bool(named(fact.topic, shown.screen | shown.names)) or \
            any(contains(text, v.text) for text in shown.page for v in fact.values if v.text)
    if fact.event and not fact.strong and not fact.values:
        return True  # "A confirmation toast appears": any toast; what it confirms is not named
    if fact.strong and named(fact.strong, shown.names):
        return True
    if not fact.strong and fact.weak and named(fact.weak, shown.names):
        return True
    return any(_names_value(shown, value) for value in fact.values)


def lists(fact: Fact, shown: Shown) -> bool:
    """Whether a complete listing is a listing of what ``fact`` is about: its call (kind, parameters) names
    the fact's topic (``dumpsys alarm`` for an alarm, the contacts provider for a contact)."""
    return shown.complete and not fact.navigation and bool(fact.topic) and named(fact.topic, shown.names)


def _names_value(shown: Shown, value: Value) -> bool:
    """Whether ``shown`` holds the value at all (negated or not: relevance, not agreement)."""
    texts = _texts(shown)
    if value.time is not None:
        return any(same_time(value.time, t) for text in texts for t in times(text))
    if value.kind == "number":
        return any(n == value.digits for text in texts for n in numbers(text))
    return any(contains(text, value.text) for text in texts)


def named(topic: frozenset[str], names: frozenset[str]) -> bool:
    """A topic term among the names, or inside a compound one ("clock" in "deskclock")."""
    return bool(topic & names) or any(len(t) >= 4 and t in n for t in topic for n in names if len(n) > len(t))


def _texts(shown: Shown) -> Sequence[str]:
    return (shown.label, *shown.row)


def shows_value(shown: Shown, value: Value, fact: Fact) -> bool:
    """Whether ``shown`` shows ``value`` as the fact names it, not in a clause that negates it ("No alarm
    set" shows no alarm set; an absence is said in such words, so it is exempt)."""
    for text in _texts(shown):
        if value.kind == "time" or value.time is not None:
            wanted = value.time
            assert wanted is not None
            if ((any(same_time(wanted, t) for t in times(text))
                 or (value.text and contains(text, value.text)))
                    and (fact.absent or not negated(text, value.text or "", fact))):
                return True
        elif value.kind == "number":
            if any(n == value.digits or (len(value.digits) >= 7 and n.endswith(value.digits))
                   for n in numbers(text)):
                return True
        elif contains(text, value.text) and (fact.absent or not negated(text, value.text, fact)):
            return True
    return False


def state_of(shown: Shown, fact: Fact) -> State | None:
    """The state ``shown`` says of the fact's topic: its own (a switch, a boolean setting), else the state
    words of the clause of its text that names the topic ("Mobile, Wi‑Fi off, hotspot" says Wi-Fi is off),
    else its whole text when that is a state ("On")."""
    if shown.state is not None:
        return shown.state
    for clause in _CLAUSES.split(fold(shown.label)):
        clause_words = [stem(w) for w in words(clause)]
        if fact.topic & set(clause_words):
            said = [_STATE_TEXT[w] for w in clause_words if w in _STATE_TEXT]
            if said:
                return "off" if "off" in said else "on"
    bare = words(shown.label)
    return _STATE_TEXT.get(bare[0]) if len(bare) == 1 else None


def holds(fact: Fact, shown: Shown) -> bool | None:
    """Whether ``shown`` (about ``fact``) shows the fact holds (True), shows it does not (False), or says
    nothing either way (None). A navigation fact holds on a screen of the page or app it names."""
    if fact.navigation:
        return shows_page(fact, shown)
    if fact.absent:
        present = any(shows_value(shown, v, fact) for v in fact.values) or \
            (not fact.values and bool(fact.kinds & shown.kinds))
        return False if present else (True if shown.complete else None)
    if fact.state is not None:
        if shown.complete and fact.values and not all(shows_value(shown, v, fact) for v in fact.values):
            return False  # a listing without the 5:15 PM alarm: there is none to be on
        state = state_of(shown, fact)
        if state is None or (fact.values and not all(shows_value(shown, v, fact) for v in fact.values)):
            return None  # another alarm's switch says nothing of this one
        return state == fact.state
    if not fact.values:
        return None
    if all(shows_value(shown, v, fact) for v in fact.values):
        return True
    if shown.complete or _other_value(shown, fact):
        return False
    return None


def shows_page(fact: Fact, shown: Shown) -> bool:
    """Whether the screen ``shown`` is on is the page a navigation fact names: it shows every text the fact
    quotes, or (quoting none) names every word it is about."""
    if not shown.page and not shown.screen:
        return False
    texts = [v.text for v in fact.values if v.text]
    if texts:
        return all(any(contains(label, t) for label in shown.page) for t in texts)
    if fact.strong:
        return all(named(frozenset({t}), shown.screen) for t in fact.strong)
    return named(fact.weak, shown.screen)  # "Open the Settings app": its one generic word


def _other_value(shown: Shown, fact: Fact) -> bool:
    """It shows another time or number where the fact names one (a brightness of 20% against 40%)."""
    own = shown.label
    for value in fact.values:
        if value.kind == "time" and times(own) and not shows_value(shown, value, fact):
            return True
        if value.kind == "number" and numbers(own) and not shows_value(shown, value, fact):
            return True
    return False


def negated(text: str, quote: str, fact: Fact) -> str:
    """A negating word that the fact does not say itself in the clause of ``text`` holding ``quote`` ('' when
    some occurrence of it stands plainly): "No alarm set" shows no alarm set. Only the clauses the quote
    overlaps are read (its line, in a probe's output), never the whole text."""
    said = set(words(fact.text))
    first = ""
    for line in (ln for ln in text.splitlines() if contains(ln, quote)) if quote else [text]:
        clauses = _clause_spans(line)
        for start, end in spans(line, quote) if quote else [(0, len(line))]:
            hits = [w for s, e, clause in clauses if s < end and start < e
                    for w in _NEGATING.findall(clause) if w.split()[0] not in said]
            if not hits:
                return ""
            first = first or hits[0]
    return first


def _clause_spans(line: str) -> list[tuple[int, int, str]]:
    """The clauses of ``line`` as spans of its normalised form (what ``spans`` positions refer to)."""
    spans, offset = [], 0
    full = normalise(line)
    for raw in _CLAUSES.split(line):
        part = normalise(raw)
        if not part:
            continue
        start = full.find(part, offset)
        if start < 0:
            continue
        spans.append((start, start + len(part), part))
        offset = start + len(part)
    return spans


__all__ = ["LISTINGS", "Shown", "about", "element_shown", "holds", "lists", "named", "negated", "probe_shown",
           "shows_value", "state_of", "ON_WORDS", "OFF_WORDS"]
