"""What a clause is said of and what it says happens: the head of its subject ("a Bluetooth *headset* is
connected") and a main verb the harness cannot read as a state or a presence ("the alarm *repeats*"). A
passing citation must name both: evidence of the Bluetooth switch is no evidence of a headset, and a
listed alarm is none of it repeating."""

from __future__ import annotations

from collections.abc import Collection

from .terms import stem

COPULAS = frozenset("""\
is are was were be been being has have had will would can could should must may might shall does do did
gets get got stays stay stayed remains remain remained becomes become became keeps keep kept looks look
seems seem""".split())
"""Words after which the predicate is a state, a place or a participle: nothing more to name ("am" is not
one: here it is the time of day)."""
PREPOSITIONS = frozenset("for of in on at with next from to under above below beside near inside by".split())


def required_terms(
    tokens: tuple[str, ...], known: Collection[str], generic: Collection[str]
) -> frozenset[str]:
    """The subject's head and an unknown main verb, as terms (stemmed). ``known`` are words the rules read
    (verbs of action and presence, states, kinds of UI, stop words); ``generic`` are words that name no
    thing of their own ("page", "screen"). A clause that starts with its verb (a goal: "Install Spotify")
    has no subject to name."""
    start = next((i for i, word in enumerate(tokens) if i and _predicate(word, known, generic)), None)
    if start is None:
        return frozenset()
    required = set()
    head = _head(tokens[:start], known, generic)
    if head:
        required.add(head)
    verb = tokens[start]
    if verb not in COPULAS and stem(verb) not in known:
        required.add(stem(verb))
    return frozenset(required)


def _predicate(word: str, known: Collection[str], generic: Collection[str]) -> bool:
    """Whether ``word`` starts the predicate: a copula or auxiliary, a verb the rules know, or a word with a
    verb's ending that names no thing the rules know."""
    term = stem(word)
    if word in COPULAS or (term in known and term not in generic and _verb_like(word)):
        return True
    return _verb_like(word) and term not in known and term not in generic and not word.isdigit()


def _verb_like(word: str) -> bool:
    return len(word) > 3 and word.endswith(("s", "ed")) and not word.endswith(("ss", "us", "is"))


def _head(subject: tuple[str, ...], known: Collection[str], generic: Collection[str]) -> str:
    """The last word of the subject before its first preposition that names a thing of its own."""
    cut = next((i for i, word in enumerate(subject) if word in PREPOSITIONS), len(subject))
    for word in reversed(subject[:cut]):
        term = stem(word)
        if len(term) >= 2 and not term.isdigit() and term not in known and term not in generic:
            return term
    return ""
