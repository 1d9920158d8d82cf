"""The demo checker: ``HonestChecker``'s rules, with the goal read by the demo's recipes.

It judges only from the recorded screens of its request (``request.screens``: each screen's hierarchy
elements plus the OCR text of its screenshot, as the harness perceived them) and cites a step, a screen
and a quote or an element for every passed or failed verdict, so the harness can find the evidence
itself. The rules for check items are ``pytest_artemis.testing.HonestChecker``'s:

* a positive item passes when every text it quotes ('…' or "…") is on one recorded screen, citing that
  screen; it fails when a quoted text is on none of them, citing what the newest screen does show;
* an item about something NOT appearing ("No 'keeps stopping' dialog appears") is judged only at the
  final entry, on the final screen: it passes when the quoted text is absent there;
* an item that quotes nothing ("The screen looks darker") is ``inconclusive`` — never a guess.

What the demo adds is the goal: one checker serves every example, so the expectation comes from the
goal's text by the demo agent's recipes (an alarm time listed, a contact's name shown, a settings
switch in the wanted state), judged on the final screen as ``HonestChecker`` judges ``on_screen(…)``;
a goal the recipes cannot read on a screen (brightness) is inconclusive.

Text that only the screenshot shows (a toast) is recorded only when the run has OCR on
(``artemis_ocr = rapidocr`` in the examples' ``pytest.ini``): the harness reads it, not this checker.
"""

from __future__ import annotations

from collections.abc import Sequence

from pytest_artemis import CheckItem
from pytest_artemis.testing import EvidenceScreen, HonestChecker, ModelVerdict, OnScreen, on_screen


def expectation(goal: str) -> OnScreen | None:
    """What the final screen shows when the demo's recipe for ``goal`` is done; None when unreadable."""
    from demo_agent import parse_goal  # the recipes live with the demo agent (imported on use)

    task = parse_goal(goal)
    if task is None or task.family == "brightness":
        return None
    return on_screen(task.target, checked=task.want_on if task.family == "switch" else None)


class DemoChecker(HonestChecker):
    """``HonestChecker`` whose goal expectation comes from each goal's text (see the module docstring)."""

    def judge_goal(self, item: CheckItem, screens: Sequence[EvidenceScreen]) -> ModelVerdict:
        """The goal, on the final screen, by the demo's recipes; what they cannot read is inconclusive."""
        expected = expectation(item.text)
        if expected is None:
            return ModelVerdict(item=item.text, status="inconclusive",
                                evidence="the demo checker has no way to read this goal on the screen")
        return HonestChecker(goal=expected).judge_goal(item, screens)


check = DemoChecker()
"""The checker role: verdicts for the request's items, each citing a recorded screen."""
