"""How a citation's words are matched against what a screen or a probe shows: text normalised, whole
words, and whether the clause holding a quote negates it."""

from __future__ import annotations

import re
import unicodedata

from pytest_artemis.agents.prose import about_absence
from pytest_artemis.contracts import CheckItem


def normalise(text: str) -> str:
    """Text as citations are matched: compatibility forms, case, punctuation and spacing folded away."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return " ".join(re.sub(r"[\W_]+", " ", folded).split())


def contains(haystack: str, needle: str) -> bool:
    """Whether normalised ``needle`` occurs in normalised ``haystack`` on word boundaries."""
    hay, pin = f" {normalise(haystack)} ", f" {normalise(needle)} "
    return len(pin.strip()) > 0 and pin in hay


_NEGATING = re.compile(r"\b(no|not|never|none|nothing|without|off|disabled|unavailable|failed|unable|cannot"
                       r"|\w+n t)\b")  # normalised text: "isn't" reads "isn t"
_CLAUSES = re.compile(r"[,;:()\[\]\n|\u2022\u00b7]|\.(?!\d)")


def negated(text: str, quote: str, item: CheckItem) -> str:
    """A negating word in the clause of on-screen ``text`` that holds ``quote`` which the item does not say
    itself ('' when none): "No alarm set" (quoted whole, or as "Alarm set") or the "Wi-Fi off" of "Mobile,
    Wi-Fi off, hotspot" (quoted as "Wi-Fi") cannot show that an alarm is set or Wi-Fi on, though they
    hold the words. An item about an absence is confirmed in negative words: it is exempt."""
    if about_absence(item.text):
        return ""
    pin, said = f" {normalise(quote)} ", set(normalise(item.text).split())
    whole = f" {normalise(text)} "
    clauses = [f" {c} " for c in map(normalise, _CLAUSES.split(text)) if pin in f" {c} "]
    if not clauses and pin in whole:  # the quote spans clauses
        clauses = [whole]
    first = ""
    for clause in clauses:
        words = [w for w in _NEGATING.findall(clause) if w.split()[0] not in said]
        if not words:
            return ""
        first = first or words[0]
    return first
