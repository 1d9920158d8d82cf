"""The demo checker: judges items only from the screens the harness recorded, and cites what it read.

It reads the "recorded screens" of its request (``request.screens``: each screen's hierarchy elements
plus the OCR text of its screenshot, as the harness perceived them) and cites a step, a screen and a
quote or an element for every passed or failed verdict, so the harness can find the evidence itself:

* a positive item passes when every text it quotes ('…' or "…") is on one recorded screen, citing that
  screen; it fails when a quoted text is on none of them, citing what the newest screen does show;
* an item about something NOT appearing ("No 'keeps stopping' dialog appears") is judged only at the
  final entry, on the final screen: it passes when the quoted text is absent there;
* the goal itself is judged on the final screen with the demo's recipes (an alarm time listed, a
  contact's name shown, a settings switch in the wanted state); what they cannot read is inconclusive;
* an item that quotes nothing ("The screen looks darker") is ``inconclusive`` — never a guess.

Text that only the screenshot shows (a toast) is recorded only when the run has OCR on
(``artemis_ocr = rapidocr`` in the examples' ``pytest.ini``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pytest_artemis import CheckItem, UIElement
from pytest_artemis.testing import CheckReport, CitationClaim, EvidenceScreen, ModelVerdict, ScriptedRequest

_QUOTE = re.compile(r"(?<!\w)'([^']+?)'(?!\w)|\"([^\"]+?)\""
                    r"|\u2018([^\u2019]+)\u2019|\u201c([^\u201d]+)\u201d")
_NEGATED = re.compile(r"^\s*(no|never|none)\b|\b(not|never|doesn't|does not|without)\b", re.IGNORECASE)


def _norm(text: str) -> str:
    """Letters and digits only, casefolded: spacing and punctuation do not decide a match."""
    return re.sub(r"[\W_]+", "", text.replace("\u2011", "-")).casefold()


def quotes(text: str) -> tuple[str, ...]:
    """The on-screen texts an item quotes."""
    return tuple(next(g for g in m.groups() if g) for m in _QUOTE.finditer(text))


def _name(screen: EvidenceScreen) -> str:
    return "final screen" if screen.screen == "final" else f"step {screen.step} {screen.screen}-screen"


def _holding(needle: str, screen: EvidenceScreen) -> UIElement | None:
    return next((e for e in screen.view.elements if _norm(needle) in _norm(e.label)), None)


def _cite(screen: EvidenceScreen, element: UIElement, attribute: str = "") -> CitationClaim:
    return CitationClaim(step=screen.step, screen=screen.screen, element=element.index,
                         quote="" if attribute else element.label, attribute=attribute)


def _read(screen: EvidenceScreen) -> str:
    labels = [e.label for e in screen.view.elements if e.label]
    return "; ".join(labels[:10]) + (" …" if len(labels) > 10 else "") if labels else "no text"


def _verdict(
    item: CheckItem, status: str, evidence: str, citation: CitationClaim | None = None
) -> ModelVerdict:
    return ModelVerdict(item=item.text, status=status, evidence=evidence, citation=citation)  # type: ignore[arg-type]


def _first_text(screen: EvidenceScreen) -> UIElement | None:
    return next((e for e in screen.view.elements if e.label.strip()), None)


def _absence(item: CheckItem, said: Sequence[str], final: EvidenceScreen) -> ModelVerdict:
    present = next(((q, e) for q in said if (e := _holding(q, final)) is not None), None)
    if present is not None:
        shown = present[1]
        return _verdict(item, "failed", f"the final screen shows {shown.label!r}", _cite(final, shown))
    seen = _first_text(final)
    if seen is None:
        return _verdict(item, "inconclusive", "the final screen has no recorded text to read")
    return _verdict(item, "passed", f"the final screen has no {said[0]!r} (it reads: {_read(final)})",
                    _cite(final, seen))


def judge_item(item: CheckItem, entry: str | None, screens: Sequence[EvidenceScreen]) -> ModelVerdict:
    """One item's verdict from the recorded screens (see the module docstring for the rules)."""
    said = quotes(item.text)
    if not said:
        return _verdict(item, "inconclusive", "the item quotes no on-screen text, and the demo checker can "
                                              "only confirm text it reads on the recorded screens")
    if not screens:
        return _verdict(item, "inconclusive", "no recorded screen was given to this check")
    if _NEGATED.search(item.text):
        finals = [s for s in screens if s.screen == "final"]
        if entry != "final" or not finals:
            return _verdict(item, "inconclusive", "an absence can only be judged on the final screen")
        return _absence(item, said, finals[-1])
    for screen in reversed(screens):
        found = [_holding(q, screen) for q in said]
        if all(found):
            return _verdict(item, "passed", f"{_name(screen)} shows {found[0].label!r}",  # type: ignore[union-attr]
                            _cite(screen, found[0]))  # type: ignore[arg-type]
    newest = screens[-1]
    seen = _first_text(newest)
    if seen is None:
        return _verdict(item, "inconclusive", f"{_name(newest)} has no recorded text")
    return _verdict(item, "failed", f"no recorded screen shows {said[0]!r} ({_name(newest)} reads: "
                                    f"{_read(newest)})", _cite(newest, seen))


def _switch_row(screen: EvidenceScreen, label: str) -> UIElement | None:
    """The switch on the same row as the element labelled ``label``."""
    title = next((e for e in screen.view.elements if _norm(e.label) == _norm(label)), None)
    if title is None:
        return None
    row = (title.bounds.top + title.bounds.bottom) // 2
    switches = (e for e in screen.view.elements if e.checkable and e.bounds.top <= row < e.bounds.bottom)
    return next(switches, None)


def judge_goal(item: CheckItem, screens: Sequence[EvidenceScreen]) -> ModelVerdict:
    """The goal, on the final screen, by the demo's recipes; what they cannot read is inconclusive."""
    from demo_agent import parse_goal  # the recipes live with the demo agent (imported on use)

    finals = [s for s in screens if s.screen == "final"]
    task = parse_goal(item.text)
    if task is None or not finals or task.family == "brightness":
        return _verdict(item, "inconclusive", "the demo checker has no way to read this goal on the screen")
    final = finals[-1]
    if task.family == "switch":
        switch = _switch_row(final, task.target)
        wanted = "true" if task.want_on else "false"
        if switch is None:
            return _verdict(item, "inconclusive", f"the final screen shows no {task.target!r} switch")
        status = "passed" if switch.checked == task.want_on else "failed"
        return _verdict(item, status, f"the {task.target!r} switch is {switch.label}",
                        _cite(final, switch, f"checked={'true' if switch.checked else 'false'}"
                              if status == "failed" else f"checked={wanted}"))
    shown = _holding(task.target, final)
    if shown is None:
        return _verdict(item, "inconclusive", f"the final screen does not show {task.target!r} "
                                              f"(it reads: {_read(final)})")
    return _verdict(item, "passed", f"the final screen shows {shown.label!r}", _cite(final, shown))


def check(request: ScriptedRequest) -> CheckReport:
    """The checker role: verdicts for the request's items, each citing a recorded screen."""
    if not request.checks:
        return CheckReport()
    screens = request.screens
    return CheckReport(verdicts=[judge_goal(i, screens) if i.kind == "goal" else
                                 judge_item(i, request.entry, screens) for i in request.checks])
