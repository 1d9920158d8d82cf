"""What a checker's own words can take away from its verdict: a ``passed`` or ``failed`` whose evidence
says the checker is not sure, or a ``passed`` whose evidence says the item does not hold, is not a
verdict at all. Prose only ever weakens: no wording makes a verdict stand (its citation does)."""

from __future__ import annotations

import re

_HEDGE = re.compile(
    r"\b(probably|presumably|(un)?likely|maybe|perhaps|might|seems?|seemingly|apparently|assum(e|ed|ing)|"
    r"possibly|it is possible|appears? to|appeared to|looks? (like|as if|as though|to be)|"
    r"(could|may|should|would|must) (be|have)|suggest(s|ing)?|impl(y|ies|ied)|infer(s|red)?|"
    r"i (think|believe|guess|suppose)|i('d| would) say|my guess|expected to be|in theory|theoretically|"
    r"(as far as|from what) i can (tell|see)|to the best of my knowledge|"
    r"(fairly|reasonably|pretty|quite|mostly) (sure|confident|certain)|"
    r"not ((entirely|fully|completely|quite|totally|absolutely|100%) )?"
    r"(sure|certain|clear|confirmed|verified)|"
    r"unclear|uncertain|unconfirmed|unverified|(hard|difficult|impossible) to (tell|say|see|determine)|"
    r"no way to (tell|know|confirm|verify)|"
    r"(cannot|can't|can not|could not|couldn't) be (confirmed|verified|determined|certain|sure)|"
    r"(cannot|can't|can not|could not|couldn't|unable to) "
    r"(confirm|verify|tell|determine|be sure|be certain|see whether))(?!\w)",
    re.IGNORECASE)

_SHOWN = (r"(shown|seen|visible|displayed|present|found|listed|set|saved|enabled|checked|on|there|created|"
          r"added|applied|updated|selected|completed|stored|scheduled|turned on)")
_SHOW = (r"(show|appear|exist|contain|display|list|match|work|change|save|turn|find|locate|see|create|add|"
         r"apply|update|select|complete|succeed|take effect)")
_OPPOSITE = re.compile(
    rf"\b(not {_SHOWN}|no longer|"
    rf"(does|did|do|is|was|were|has|have|had|could|can|would)(n't| not) (been )?({_SHOW}|{_SHOWN})\w*|"
    rf"(unable|failed) to|never ({_SHOW}|{_SHOWN}|happen)\w*|no (sign|trace) of|"
    rf"no (clear |direct |visible )?evidence|nowhere|missing|absent)\b",
    re.IGNORECASE)

_ABSENCE = re.compile(r"^\s*(no|never|none|nothing)\b|\b(not|never|doesn't|does not|without|no longer)\b",
                      re.IGNORECASE)

_QUOTED = re.compile(r"(?<!\w)'([^']+?)'(?!\w)|\"([^\"]+?)\""
                     r"|\u2018([^\u2019]+)\u2019|\u201c([^\u201d]+)\u201d")


def quotes(text: str) -> tuple[str, ...]:
    """The on-screen texts ``text`` quotes (``'…'``, ``"…"`` or typographic quotes)."""
    return tuple(next(g for g in m.groups() if g) for m in _QUOTED.finditer(text))


def _own_words(text: str) -> str:
    """``text`` without the on-screen text it quotes ("the dialog reads 'This might take a while'"), its
    typographic apostrophes read as plain ones ("can’t confirm" hedges like "can't confirm")."""
    return _QUOTED.sub(" ", text).replace("\u2019", "'")


def about_absence(item_text: str) -> bool:
    """Whether an item is about an absence ("No 'keeps stopping' dialog appears"): confirmed in negative
    words, and only on the final screen."""
    return bool(_ABSENCE.search(_own_words(item_text)))


def hedge(evidence: str) -> str:
    """The first words in ``evidence`` by which the checker says it is not sure ('' when none)."""
    found = _HEDGE.search(_own_words(evidence))
    return found.group(0) if found else ""


def opposite(item_text: str, evidence: str) -> str:
    """The first words in ``evidence`` that say an item about a presence does not hold ('' when none, and
    always for an item about an absence, which is confirmed in such words)."""
    if about_absence(item_text):
        return ""
    found = _OPPOSITE.search(_own_words(evidence))
    return found.group(0) if found else ""


def undermined(item_text: str, status: str, evidence: str) -> str:
    """Why the checker's own evidence takes its ``passed``/``failed`` away ('' when it does not)."""
    if status not in ("passed", "failed"):
        return ""
    if said := hedge(evidence):
        return f"{status}, but the checker is not sure: its evidence says {said!r}"
    if status == "passed" and (said := opposite(item_text, evidence)):
        return f"passed, but its own evidence says otherwise: {said!r}"
    return ""
