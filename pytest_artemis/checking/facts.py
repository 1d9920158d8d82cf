"""What an item states: its text read as facts, each with what it is about (topic terms), the values it
names (quoted texts, times, numbers), the state it wants, the kind of UI it expects, whether it is about an
absence, and its place in an ordered goal ("X, then Y"). The rules of evidence hold citations to these."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Literal

from .clauses import required_terms
from .terms import fold, numbers, stem, times, words

State = Literal["on", "off"]
Time = tuple[int, int, str]

_QUOTED = re.compile(r"(?<!\w)'([^']+?)'(?!\w)|\"([^\"]+?)\"|"
                     r"\u2018([^\u2019]+)\u2019|\u201c([^\u201d]+)\u201d")


def quotes(text: str) -> tuple[str, ...]:
    """The on-screen texts ``text`` quotes (``'…'``, ``"…"`` or typographic quotes)."""
    return tuple(next(g for g in m.groups() if g) for m in _QUOTED.finditer(text))


@dataclass(frozen=True)
class Value:
    """A value a fact names, to be shown as it is: a quoted text, a clock time or a number."""

    kind: Literal["text", "time", "number"]
    text: str
    time: Time | None = None
    digits: str = ""


@dataclass(frozen=True)
class Fact:
    """One fact an item states."""

    text: str
    strong: frozenset[str]
    """Terms that name what it is about ("wifi", "marie", "alarm")."""
    weak: frozenset[str]
    """Generic words that count only when it has no strong ones ("mode", "page", "settings")."""
    values: tuple[Value, ...] = ()
    state: State | None = None
    kinds: frozenset[str] = frozenset()
    absent: bool = False
    navigation: bool = False
    step: int = 0
    """Its place in an ordered goal: facts after a "then" come later."""
    system: bool = False
    """About system UI (the status bar, a notification, the home screen)."""
    appears: bool = False
    """Said to appear ("a 'Saved' message appears"): a moment, not a lasting state."""
    required: frozenset[str] = frozenset()
    """What a passing citation must name besides its topic: the subject's head and an unknown main verb
    (``clauses.required_terms``)."""

    @property
    def topic(self) -> frozenset[str]:
        return self.strong or self.weak

    @property
    def appearing(self) -> bool:
        """Said of something that appears (a toast, a dialog, a crash), present or absent: a moment."""
        return bool(self.kinds & EVENT_KINDS) or self.appears

    @property
    def event(self) -> bool:
        """Something that appears (a toast, a dialog): shown where it appeared, not held to still show."""
        return (bool(self.kinds & EVENT_KINDS) or self.appears) and not self.absent


STOP = frozenset("""\
a an the is are was were be been being it its this that these those of in at to for from by as and
or then after before when while right any all every each some there here has have had do does did so
than into onto up down out now again still also only just new own my your their our which who what
where how time times once first least more most very same other another please correctly
successfully properly immediately visible shown seen listed present named called titled labelled
labeled with no not am pm longer final end having run test step agent user i me we us you he him his she
her they them""".split())
VERBS = frozenset("""\
turn turned turning switch switched toggle toggled enable enabled disable disabled activate
activated deactivate deactivated open opened opening close closed launch launched start started go
goes going navigate navigated visit visited return returned tap tapped press pressed click clicked
select selected choose chose set setting create created add added make made save saved delete
deleted remove removed clear cleared dismiss dismissed type typed enter entered show showing display
displayed displaying appear appeared appearing exist existing say said read reading contain
containing become became stay stayed remain remained keep kept work worked get got put use used find
found see look looking check checked verify confirm ensure want need should must can will would may
might schedule scheduled update updated change changed edit edited rename renamed tell lets let
saving says ring rings ringing sound sounds fire fires trigger triggers wake""".split())
ON_WORDS = frozenset({"on", "enable", "enabled", "activate", "activated", "active", "connected", "checked"})
OFF_WORDS = frozenset({"off", "disable", "disabled", "deactivate", "deactivated", "inactive", "disconnected",
                       "unchecked"})
KIND_WORDS = {"toast": "toast", "snackbar": "snackbar", "dialog": "dialog", "popup": "dialog",
              "alert": "dialog", "prompt": "dialog", "switch": "switch", "toggle": "switch",
              "checkbox": "checkbox", "button": "button", "notification": "notification", "banner": "banner"}
EVENT_KINDS = frozenset({"toast", "snackbar", "dialog", "notification", "banner"})
WEAK = frozenset("""\
screen page app application list item row entry menu tab view section option field setting text
label message value mode theme level number name title card window icon panel content state status
one confirmation success phone device bar""".split())
_SYSTEM_PHRASES = re.compile(r"\b(status bar|navigation bar|home screen|launcher|lock screen|quick settings|"
                             r"notification)", re.IGNORECASE)
_APPEAR = frozenset({"appear", "appears", "appeared", "pop", "pops", "popped", "flash", "flashe", "flashed"})
_CRASH = frozenset({"crash", "crashed", "crashe", "anr", "freeze", "froze"})
NAVIGATE = frozenset({"open", "opened", "launch", "launched", "start", "started", "go", "navigate", "visit",
                      "return", "returned"})
_REMOVE = frozenset({"delete", "deleted", "remove", "removed", "clear", "cleared", "dismiss", "dismissed",
                     "uninstall", "uninstalled", "disappear", "disappears", "disappeared", "vanish",
                     "vanishes", "vanished", "gone", "hidden"})
_NEGATION = re.compile(r"\b(not|never|no longer|without|isn't|aren't|doesn't|don't|didn't|wasn't|hasn't|"
                       r"cannot|can't|won't)\b|n't\b")
_LEADING_NO = re.compile(r"^\s*(no|never|none|nothing|neither)\b|\b(no|without)\s+(?!longer\b)[\w⟦]")
_ON = re.compile(r"\b(turn(?:ed|s)?|switch(?:ed|es)?|toggl(?:e|ed|es)|is|are|was|were|be|been|stays?|"
                 r"remains?|set|shows?|reads?|kept|keeps?|left|leaves?|with)\b(?:\s+[\w⟦⟧]+){0,4}?\s+on\b"
                 r"(?!\s+(?:the|a|an|this|that|its|their|his|her|my|your)\b)|\bon\s*$")
_OFF = re.compile(r"\boff\b(?!\s+(?:the|a|an)\b)")
_NAMED = re.compile(r"\b(?:named|called|titled|labell?ed)\s+(.+?)(?=\s+(?:with|and|in|on|at|for|to|from)\b|"
                    r"[,.;]|$)")
_NAMES = re.compile(r"(?<![\w'\u2010-\u2012-])((?:[A-Z][a-z]+)(?:\s+[A-Z][a-z]+)+)(?![\w'\u2010-\u2012-])")
"""A proper name: two or more capitalised words ("Katherine Johnson"), shown as it is."""
_THEN = re.compile(r",?\s*\b(?:and\s+then|then|after\s+that|afterwards)\b\s*", re.IGNORECASE)
_AND = re.compile(r"\s*(?:;|,?\s+\band\b\s+|,\s+|\s+\bas well as\b\s+|\s+\bplus\b\s+)\s*", re.IGNORECASE)


_KNOWN = STOP | VERBS | ON_WORDS | OFF_WORDS | frozenset(KIND_WORDS) | _APPEAR | _CRASH | NAVIGATE | _REMOVE
"""Words the rules read (what an item does, its states, the kinds of UI): never a thing to be named."""


@lru_cache(maxsize=1024)
def facts(text: str) -> tuple[Fact, ...]:
    """The facts ``text`` states, in order. Navigation ("open the Display settings") is only a means
    when the item states anything else; pieces with no predicate share their neighbour's ("Wi-Fi and
    Bluetooth are on"), pieces with no subject their predecessor's ("… and its switch is on")."""
    said = quotes(text)
    marked = _QUOTED.sub(lambda m: f" ⟦{_index(m, said)}⟧ ", text)
    pieces: list[Fact] = []
    for step, part in enumerate(p for p in _THEN.split(marked) if p.strip()):
        for clause in (c for c in _AND.split(part) if c.strip()):
            pieces.append(_read(clause, said, step))
    pieces = _share(pieces)
    if not pieces:
        return ()
    meant = [f for f in pieces if not f.navigation]
    return tuple(meant) if meant else (pieces[-1],)


def _index(match: re.Match[str], said: tuple[str, ...]) -> int:
    quoted = next(g for g in match.groups() if g)
    return said.index(quoted)


def _read(clause: str, said: tuple[str, ...], step: int) -> Fact:
    placeholders = [int(n) for n in re.findall(r"⟦(\d+)⟧", clause)]
    plain = re.sub(r"⟦\d+⟧", " ", clause)
    folded = fold(plain).strip()
    tokens = words(plain)
    values = [_quoted(said[n]) for n in placeholders]
    named = _NAMED.search(plain)
    if named and not placeholders:
        values.append(Value("text", named.group(1).strip()))
    values += [Value("text", name) for name in map(_proper, _NAMES.findall(plain))
               if name and not any(fold(name) in fold(v.text) or fold(v.text) in fold(name)
                                   for v in values if v.text)]
    values += [Value("time", "", time=t) for t in times(plain)]
    values += [Value("number", n, digits=n) for n in numbers(plain) if len(n) >= 2]
    negated = bool(_NEGATION.search(folded))
    state = _state(folded, tokens)
    if negated and state is not None:
        state, negated = ("off" if state == "on" else "on"), False
    absent = bool(_LEADING_NO.search(folded)) or negated or bool(_REMOVE & set(tokens))
    kinds = frozenset(KIND_WORDS[stem(t)] for t in tokens if stem(t) in KIND_WORDS
                      and not (stem(t) == "switch" and state is not None and _verb_switch(folded)))
    if _CRASH & {stem(t) for t in tokens}:  # a crash is seen as its dialog ("… keeps stopping")
        kinds |= {"dialog"}
    first = plain.strip().split()[0] if plain.strip() else ""
    strong, weak = _topic(plain, tokens, first)
    navigation = bool(NAVIGATE & set(tokens[:2])) and state is None and not absent
    return Fact(text=clause.strip(), strong=strong, weak=weak, values=tuple(values), state=state,
                kinds=kinds, absent=absent, navigation=navigation, step=step,
                system=bool(_SYSTEM_PHRASES.search(plain)), appears=bool(_APPEAR & {stem(t) for t in tokens}),
                required=required_terms(tokens, _KNOWN, WEAK))


def _proper(run: str) -> str:
    """A run of capitalised words as a name: its leading common words ("The", "Turn") left out, and at least
    two words left ("Katherine Johnson", not "The Network")."""
    names = run.split()
    while names and (names[0].casefold() in STOP or stem(names[0].casefold()) in VERBS):
        names = names[1:]
    return " ".join(names) if len(names) >= 2 else ""


def _quoted(text: str) -> Value:
    found = times(text)
    return Value("text", text, time=found[0] if len(found) == 1 else None)


def _state(folded: str, tokens: tuple[str, ...]) -> State | None:
    if _OFF.search(folded) or OFF_WORDS & set(tokens) - {"off"}:
        return "off"
    if _ON.search(folded) or ON_WORDS & set(tokens) - {"on"}:
        return "on"
    return None


def _verb_switch(folded: str) -> bool:
    """"Switch on Wi-Fi", "switch Wi-Fi off": the verb, not the control."""
    return bool(re.search(r"^\s*switch(ed)?\b|\b(to|and|then|please)\s+switch\b|"
                          r"\bswitch(ed)?\s+(on|off)\s+\w", folded))


def _topic(plain: str, tokens: tuple[str, ...], first: str) -> tuple[frozenset[str], frozenset[str]]:
    capitalised = {stem(w) for raw in plain.split()[1:] if raw[:1].isupper()
                   for w in words(raw)}
    strong, weak = set(), set()
    for token in tokens:
        term = stem(token)
        if len(term) < 2 or term in STOP or term in _CRASH or term in ON_WORDS or term in OFF_WORDS \
                or term in KIND_WORDS or any(c.isdigit() for c in term):
            continue
        if term in VERBS and term not in capitalised:
            continue
        if term in WEAK and term not in capitalised or term in WEAK and term == "setting":
            weak.add(term)
        else:
            strong.add(term)
    return frozenset(strong), frozenset(weak)


def _share(pieces: list[Fact]) -> list[Fact]:
    """Predicates and subjects shared between neighbouring pieces of one clause list."""
    shared = list(pieces)
    for i, fact in enumerate(shared):
        if _bare(fact):
            donor = next((f for f in shared[i + 1:] if not _bare(f)), None) or \
                next((f for f in reversed(shared[:i]) if not _bare(f)), None)
            if donor is not None:
                shared[i] = replace(fact, state=donor.state, kinds=donor.kinds, absent=donor.absent,
                                    navigation=donor.navigation)
    for i, fact in enumerate(shared):
        if i and not fact.topic and not fact.values:
            before = shared[i - 1]
            shared[i] = replace(fact, strong=before.strong, weak=before.weak, values=before.values,
                                kinds=fact.kinds or before.kinds)
    return shared


def _bare(fact: Fact) -> bool:
    """A piece with a subject but no predicate of its own ("Wi-Fi" in "Wi-Fi and Bluetooth are on")."""
    verbs = VERBS & {stem(w) for w in words(fact.text)}
    return (fact.state is None and not fact.kinds and not fact.absent and not fact.navigation and not verbs
            and bool(fact.topic or fact.values))


def about_absence(text: str) -> bool:
    """Whether an item is about an absence ("No 'keeps stopping' dialog appears")."""
    return any(f.absent for f in facts(text))
