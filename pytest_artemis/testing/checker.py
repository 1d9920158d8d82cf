"""An honest scripted checker: text checks are answered only by citing the recorded screens' text."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from pytest_artemis.agents.schemas import CheckReport, ModelVerdict
from pytest_artemis.contracts import CheckItem, ScreenView, UIElement
from pytest_artemis.models.scripted import ScriptedRequest

from .steps import describe, normalize

_QUOTE = re.compile(r"(?<!\w)'([^']+?)'(?!\w)|\"([^\"]+?)\""
                    r"|\u2018([^\u2019]+)\u2019|\u201c([^\u201d]+)\u201d")
_NEGATED = re.compile(r"^\s*(no|never|none)\b|\b(not|never|doesn't|does not|without)\b", re.IGNORECASE)


def quotes(text: str) -> tuple[str, ...]:
    """The on-screen texts an item quotes (``'…'``, ``"…"`` or typographic quotes)."""
    return tuple(next(g for g in m.groups() if g) for m in _QUOTE.finditer(text))


@dataclass(frozen=True)
class Seen:
    """One recorded screen the checker may cite: which step, which of its screens, and its elements."""

    step: int | None
    screen: str
    view: ScreenView

    @property
    def name(self) -> str:
        return f"the {self.screen} screen" if self.step is None else f"step {self.step} {self.screen}"

    def find(self, quote: str) -> UIElement | None:
        wanted = normalize(quote)
        return next((e for e in self.view.elements
                     if wanted in normalize(e.text) or wanted in normalize(e.content_desc)), None)


def recorded_screens(request: ScriptedRequest) -> list[Seen]:
    """The screens in the request, in order: the recorded window, else the final screen."""
    seen = [Seen(s.step, s.screen, s.view) for s in request.screens]
    if not seen and request.screen is not None and request.entry == "final":
        seen.append(Seen(None, "final", request.screen))
    return seen


class HonestChecker:
    """The checker role of a scripted agent; it never guesses.

    Probe-backed items are judged by their probes, as in every run. A text item is judged from the
    screens recorded for it (the anchored steps at a checkpoint, the final screen at exit):

    * every text it quotes (``'Airplane mode'``) is on one of those screens → ``passed``, citing the
      step, the screen and the element that shows it;
    * a quoted text is on none of them → ``failed``, naming the screens searched and what they show;
    * it quotes nothing, or states an absence ("No 'keeps stopping' dialog"), or no screen was
      recorded → ``inconclusive``, saying why: a recorded screen can show a text, not prove a vague
      claim or an absence (use a probe such as ``probes.no_error_dialog()`` for that).
    """

    def __call__(self, request: ScriptedRequest) -> CheckReport:
        screens = recorded_screens(request)
        return CheckReport(verdicts=[self.judge(item, screens) for item in request.checks])

    def judge(self, item: CheckItem, screens: Sequence[Seen]) -> ModelVerdict:
        """One item's verdict from the recorded screens."""
        said = quotes(item.text)
        if item.probe is not None:
            return _verdict(item, "inconclusive", "a probe-backed item is judged by its probe, not here")
        if not said:
            return _verdict(item, "inconclusive", "this item quotes no on-screen text ('…'), and a recorded "
                                                  "screen can only confirm text it shows; not judged")
        if _NEGATED.search(item.text):
            return _verdict(item, "inconclusive", "an absence cannot be cited from a recorded screen; back "
                                                  "this item with a probe (e.g. probes.no_error_dialog())")
        if not screens:
            return _verdict(item, "inconclusive", "no recorded screen was given for this check; not judged")
        cited: list[str] = []
        for quote in said:
            place = next(((s, e) for s in screens if (e := s.find(quote)) is not None), None)
            if place is None:
                searched = ", ".join(s.name for s in screens)
                return _verdict(item, "failed", f"none of the recorded screens ({searched}) shows {quote!r}; "
                                                f"{screens[-1].name}: {describe(screens[-1].view)}")
            seen, element = place
            cited.append(f"{seen.name} shows {element.label!r} (element {element.index}"
                         f"{', ' + element.resource_id if element.resource_id else ''})")
        return _verdict(item, "passed", "; ".join(cited))


def _verdict(item: CheckItem, status: str, evidence: str) -> ModelVerdict:
    return ModelVerdict(item=item.text, status=status, evidence=evidence)  # type: ignore[arg-type]
