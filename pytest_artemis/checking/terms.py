"""Words as the rules of evidence compare them: text folded to terms (case, hyphens, plurals, a few
synonyms), times and numbers read to canonical values, and quoted text matched with spacing folded."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_DASHES = "-\u2010\u2011\u2012\u2013\u2212"
_JOIN = re.compile(rf"(?<=[^\W\d_])[{_DASHES}](?=[^\W\d_])")
_SPLIT = re.compile(r"[^\w%]+|_")

SYNONYMS = {"night": "dark", "flight": "airplane", "aeroplane": "airplane", "plane": "airplane",
            "wlan": "wifi", "people": "contact", "deskclock": "clock"}
"""Words Android's own names use for what an item calls otherwise (``ui_night_mode`` is the dark theme)."""


def fold(text: str) -> str:
    """Compatibility forms and case folded, hyphenated words joined ("Wi‑Fi" reads "wifi")."""
    return _JOIN.sub("", unicodedata.normalize("NFKC", text).casefold())


def stem(word: str) -> str:
    """A word's plural and synonyms folded: "alarms" → "alarm", "night" → "dark"."""
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")) and not word.isdigit():
        word = word[:-1]
    return SYNONYMS.get(word, word)


@lru_cache(maxsize=4096)
def words(text: str) -> tuple[str, ...]:
    """The folded words of ``text`` in order (identifiers split at dots, colons, slashes, underscores)."""
    return tuple(w for w in _SPLIT.split(fold(text)) if w)


@lru_cache(maxsize=4096)
def terms(text: str) -> frozenset[str]:
    """The stemmed words of ``text`` (what relevance is compared on)."""
    return frozenset(stem(w) for w in words(text))


def normalise(text: str) -> str:
    """Text as quotes are matched: compatibility forms, case, punctuation and spacing folded away, and a
    space between digits and letters ("6:45AM" reads like "6:45 AM")."""
    folded = re.sub(r"[\W_]+", " ", fold(text))
    folded = re.sub(r"(?<=\d)(?=[^\W\d_])|(?<=[^\W\d_])(?=\d)", " ", folded)
    return " ".join(folded.split())


@lru_cache(maxsize=4096)
def _pattern(needle: str) -> re.Pattern[str] | None:
    tokens = normalise(needle).split()
    if not tokens:
        return None
    # Between two tokens the space is optional: "555 0142" is "5550142", "Wi Fi" is "WiFi".
    return re.compile(r"(?<![^\W_])" + r" ?".join(map(re.escape, tokens)) + r"(?![^\W_])")


def contains(haystack: str, needle: str) -> bool:
    """Whether ``needle`` occurs in ``haystack`` on word boundaries, case, punctuation and spacing folded."""
    pattern = _pattern(needle)
    return pattern is not None and pattern.search(normalise(haystack)) is not None


def spans(haystack: str, needle: str) -> list[tuple[int, int]]:
    """Where ``needle`` occurs in the normalised ``haystack``."""
    pattern = _pattern(needle)
    return [m.span() for m in pattern.finditer(normalise(haystack))] if pattern is not None else []


_TIME = re.compile(r"(?<![\d:])(\d{1,2})\s?[:.h]\s?(\d{2})(?::\d{2}(?:\.\d+)?)?(?!\d)"
                   r"(?:\s?([ap])\.?\s?m\b\.?)?", re.IGNORECASE)


def times(text: str) -> tuple[tuple[int, int, str], ...]:
    """The clock times ``text`` holds, as (hour, minute, "am"/"pm"/"") ("6:45 AM", "06:45:00.000")."""
    found = []
    for m in _TIME.finditer(fold(text)):
        hour, minute = int(m.group(1)), int(m.group(2))
        if hour <= 23 and minute <= 59:
            found.append((hour, minute, (m.group(3) or "").lower() + ("m" if m.group(3) else "")))
    return tuple(found)


def same_time(wanted: tuple[int, int, str], shown: tuple[int, int, str]) -> bool:
    """Whether two times are the same clock time: a 12-hour time with AM/PM against a 24-hour one ("6:45
    PM" is "18:45"); a time without AM/PM may be either ("6:45" is "6:45 AM" and "18:45")."""
    (wh, wm, whalf), (sh, sm, shalf) = wanted, shown
    if wm != sm:
        return False
    if whalf and shalf:
        return _h24(wh, whalf) == _h24(sh, shalf)
    if whalf or shalf:
        (twelve, half), bare = ((wh, whalf), sh) if whalf else ((sh, shalf), wh)
        return _h24(twelve, half) == bare or (bare <= 12 and bare % 12 == twelve % 12)
    return wh % 12 == sh % 12


def _h24(hour: int, half: str) -> int:
    return hour % 12 + (12 if half == "pm" else 0)


_DIGITS = re.compile(r"\d(?:[\d\s().\-]*\d)?")


def numbers(text: str) -> tuple[str, ...]:
    """Digit groups of ``text`` with spaces, dashes and brackets inside them dropped ("555 0142" →
    "5550142"), times left out."""
    without_times = _TIME.sub(" ", fold(text))
    return tuple(re.sub(r"\D", "", m.group(0)) for m in _DIGITS.finditer(without_times))
