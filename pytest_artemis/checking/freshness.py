"""When a fact was true: brought about by the run ([E7]: the harness saw it otherwise first) and still true
when judged ([E8]: at the end of the run for the goal and ``end`` items, at the anchor step for a
checkpoint)."""

from __future__ import annotations

from collections.abc import Sequence

from pytest_artemis.agents.schemas import CitationClaim
from pytest_artemis.contracts import CheckItem, ScreenView, ScreenWhich

from .facts import Fact
from .history import History, contradicted
from .on_screen import identity, resolve, where
from .readings import about, holds
from .rules import broken
from .screens import RecordedScreens
from .terms import contains


def brought_about(
    fact: Fact, moment: float, history: History, first_acted: int | None, calls: frozenset[str] = frozenset(),
    since: float = 0.0,
) -> str:
    """Why ``fact``, shown at ``moment``, is not shown brought about by the run ('' when it is): the first
    reading the harness has of it must say otherwise, and come before. A later step of an ordered goal
    ("…, then turn it off again") is brought about after the step before it: ``since`` is when that one was
    shown."""
    if first_acted is None:
        return broken("E7", "the agent never acted: everything recorded shows the state before the run")
    if fact.absent:  # gone by the run's doing: something recorded before showed it there
        if any(r.moment < moment and about(fact, r) and holds(fact, r) is False for r in history.readings()):
            return ""
        return broken("E7", f"nothing the harness read before it shows {_named(fact)} there: it may never "
                            "have been; an unknown baseline is not a pass")
    if fact.event:  # a toast or dialog is brought about when it appears after the agent acted
        if moment <= 2 * first_acted - 1:
            return broken("E7", f"it was recorded before the agent first acted (step {first_acted})")
        return ""
    seen = history.first_seen(fact, calls, since)
    if seen is None or seen[0].moment >= moment:
        return broken("E7", f"nothing the harness read before it shows {_named(fact)} otherwise (no earlier "
                            "screen or baseline): it may have been so before the run; an unknown baseline is "
                            "not a pass")
    reading, held = seen
    if held:
        when = "in the baseline read before the first action" if reading.moment == 0 else \
            f"on {reading.where}, the first the harness saw of it"
        return broken("E7", f"{_named(fact)} already showed so {when} ({reading.label[:80]!r}): the run "
                            "changed nothing it shows")
    return ""


def _named(fact: Fact) -> str:
    return repr(" ".join(sorted(fact.strong or fact.weak))) if fact.topic else repr(fact.text)


def still_holds(
    claim: CitationClaim, item: CheckItem, shown: Sequence[Fact], screens: RecordedScreens, *,
    final: bool, anchor: int | None, typed: Sequence[str], cited: ScreenView,
) -> str:
    """Why a screen citation cannot show ``shown`` still holding when ``item`` is judged ('' when it may)."""
    if final and item.when == "end":
        if claim.screen == "final":
            return ""
        finals = screens.finals()
        if not finals:
            return broken("E8", f"{where(claim)} is earlier than the end of the run, and no final screen was "
                                "recorded")
        at_exit = claim.model_copy(update={"step": None, "screen": "final"})
        if _holds_on(at_exit, item, cited, finals[0], typed):
            return ""
        return broken("E8", f"{where(claim)} shows it, but the final screen no longer does: an end-of-run "
                            "check rests on the state at exit (cite the final screen or a probe)")
    if anchor is None or claim.step is None:
        return ""
    post = screens.hierarchy(anchor, "post")
    if claim.step >= anchor - 1:
        if post is None or not post.elements or (claim.step, claim.screen) == (anchor, "post"):
            return ""
        for fact in (f for f in shown if not f.event):
            against = contradicted(fact, post, f"step {anchor} post-screen", 2.0 * anchor)
            if against is not None:
                return broken("E8", f"{where(claim)} shows it, but step {anchor} post-screen (the anchor) "
                                    f"shows otherwise ({against.label[:60]!r}): a checkpoint rests on the "
                                    "state when its subgoal was marked done")
        return ""
    which: ScreenWhich = "post" if post is not None and post.elements else "pre"
    view = screens.view(anchor, which)
    at_anchor = claim.model_copy(update={"step": anchor, "screen": which})
    if view is not None and _holds_on(at_anchor, item, cited, view, typed):
        return ""
    return broken("E8", f"{where(claim)} shows it, but step {anchor} (the anchor) no longer does: a "
                        "checkpoint rests on the state when its subgoal was marked done (cite step "
                        f"{anchor - 1} or {anchor})")


def _holds_on(claim: CitationClaim, item: CheckItem, cited: ScreenView, reference: ScreenView,
              typed: Sequence[str]) -> bool:
    """Whether what ``claim`` shows on the ``cited`` screen still shows on the ``reference`` one, in the same
    element: the same class and id with the same labels on its row (element [4], or the text "ON", is the
    Wi-Fi switch on one page and the Bluetooth switch on another). A visual judgement holds only on the
    screen it judged."""
    found, _ = resolve(claim, item, reference, typed)
    if found is None or found.citation.visual:
        return False
    if claim.element is not None:
        old = next(e for e in cited.elements if e.index == claim.element)
        return identity(cited, old) == identity(reference, found.elements[0])
    then = {identity(cited, e) for e in cited.elements if contains(e.label, claim.quote)}
    now = {identity(reference, e) for e in found.elements}
    return bool(then & now)
