"""The rules of evidence: one definition per rule (id, name, statement, reason), read by the grounding code,
the checker's prompt, ``docs/writing-checks.md`` and every message that names a rule.

A rule's ``statement`` is the sentence the checker is told and the one its verdict is held to; a verdict
that breaks a rule is recorded ``inconclusive`` with a reason that starts with the rule's id (``[E4] …``).
Which rules a request states is decided by ``active`` from the same facts the grounding uses, so no rule is
enforced that the prompt does not state, and no instruction is dead.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal

Entry = Literal["checkpoint", "final"]


@dataclass(frozen=True)
class Rule:
    """One rule of evidence. ``statement`` may differ per entry (``at``), as the moment judged does."""

    id: str
    name: str
    statement: str
    reason: str
    applies_to: str
    """Which verdicts it binds, in words (the docs' table)."""
    at: Mapping[Entry, str] = field(default_factory=dict)

    def stated(self, entry: Entry | None = None) -> str:
        """The statement for ``entry`` (None: every entry's, for the docs)."""
        if entry is not None and entry in self.at:
            return self.at[entry]
        if entry is None and self.at:
            return " ".join(f"{'At a checkpoint' if e == 'checkpoint' else 'At the final check'}: "
                            f"{text[0].lower()}{text[1:]}" for e, text in self.at.items())
        return self.statement


RULES: tuple[Rule, ...] = (
    Rule("E1", "cited",
         "A `passed` or `failed` verdict cites what the harness recorded: a recorded screen (a `quote` of "
         "its text or an `element` of its listing) or a probe you ran in this judgement.",
         "The model's word is a claim, not evidence: only what the harness can find again decides.",
         "every passed or failed verdict"),
    Rule("E2", "found",
         "Each citation is there: the quoted text on that screen (its element listing, or text the harness "
         "read from its screenshot in this run), the element at that index with the attribute you name, or "
         "the quote in the readable output of the probe you name.",
         "A citation the record does not hold shows nothing; an error message, an edited cache or a "
         "remembered reading is not a reading of this device now.",
         "every passed or failed verdict"),
    Rule("E3", "in-window",
         "Each citation lies inside the item's window.",
         "Evidence recorded after the moment judged shows another state of the device.",
         "every passed or failed verdict",
         at={"checkpoint": "Each citation lies inside the checkpoint's window: the anchor step or an earlier "
                           "one; a probe counts only if no later step had begun to act when it ran.",
             "final": "Each citation lies inside the run: any recorded step, the final screen, or a probe "
                      "run in this judgement."}),
    Rule("E4", "about-the-item",
         "A fact is shown only by a citation about it: the cited element's own text, its row or its id — or "
         "the probe's kind, parameters and the quoted output line — name what the fact is about; what it is "
         "said of (\"a Bluetooth headset\") and what it says happens, when that is no state or presence "
         "(\"the alarm repeats\"), must be named there or on the page (the probe output) it is part of. The "
         "status bar, the navigation bar and the "
         "home screen count only for items about them, and an item that names "
         "a kind of UI (a toast, a dialog, a switch) is shown only by an element of that kind (a toast or "
         "snackbar is text read from the screenshot, listed as `ocr-text`). Other citations (the page a "
         "switch is on) are context: they may accompany, never replace, one about it.",
         "Real but unrelated evidence (the clock, the battery, another switch, another setting) shows "
         "nothing about the item.",
         "passed verdicts"),
    Rule("E5", "every-fact",
         "Every fact the item states is shown: give one citation per fact in `citations` (all of them must "
         "hold); an ordered goal (\"X, then Y\") is cited in that order; a fact of the goal that a passed "
         "probe check of this run shows (the ledger lists them) needs no citation of its own.",
         "Half an item is not the item.",
         "passed verdicts"),
    Rule("E6", "shows-it-holds",
         "What a passing citation shows agrees with the item: the state it wants (a switch ON for \"turn "
         "on\", OFF for \"turn off\" or \"disable\"), every time, number and quoted text it names, and no "
         "negation of what it claims (\"Wi-Fi off\", \"No alarms\"). A citation of the state before the "
         "change (Wi-Fi ON before \"turn off Wi-Fi\") may accompany one that shows it holding.",
         "A citation of the opposite is evidence of the opposite, and one of a name is not one of a claim.",
         "passed verdicts"),
    Rule("E7", "brought-about-by-the-run",
         "A passed goal or `verify` item rests on a fact that was not already true before the agent acted: "
         "the harness must have seen it otherwise earlier in this run (on an earlier screen, or in the "
         "baseline it read from the device before the first action). An unknown baseline is not a pass. A "
         "later step of an ordered goal that undoes an earlier one (\"…, then turn it off again\") is "
         "brought about after that one.",
         "A state an earlier test left behind proves nothing about what this run did.",
         "passed goal and verify verdicts"),
    Rule("E8", "still-holds",
         "The fact still holds when the item is judged.",
         "A state undone later is not the state judged.",
         "passed verdicts",
         at={"checkpoint": "The fact still holds at the anchor step: cite the anchor step or the step "
                           "before it (an older screen only if its element still shows it at the anchor "
                           "step); nothing on the anchor step's post-screen may show it otherwise. A toast "
                           "or dialog counts where it appeared.",
             "final": "The goal and `@end` items hold at the end of the run: cite the final screen, a probe "
                      "run now, or an earlier screen whose element still shows it on the final screen; "
                      "nothing on the final screen may show it otherwise. A step of an ordered goal that a "
                      "later step undoes held when it was done: cite where it did."}),
    Rule("E9", "not-own-input",
         "Text the operator typed, shown in an input field, is the agent's own words, not the app's state.",
         "The agent cannot certify its own typing; what the app shows back elsewhere is the app's.",
         "passed verdicts"),
    Rule("E10", "absence",
         "An item about something that must not appear (\"No 'keeps stopping' dialog appears\") passes only "
         "when no screen its judgement was served shows it; one about a state that must be gone (\"The list "
         "no longer shows 8:30 AM\") only when the screen of the moment judged (the anchor step's "
         "post-screen, the final screen) does not show it. Cite such a screen or a probe whose output shows "
         "it absent.",
         "An absence is a property of whole screens: one screen that shows it decides.",
         "passed verdicts of items about an absence"),
    Rule("E11", "visual",
         "A `visual` judgement counts only for items marked \"visual judgement accepted\", and only of the "
         "screenshot the item rests on.",
         "Pixels hold no text the harness can find again; a test opts in to trusting the checker's eyes.",
         "passed or failed verdicts citing visual: true"),
    Rule("E12", "one-verdict-per-item",
         "Give one verdict per item, naming it by its id; verdicts that disagree on one item are all "
         "inconclusive, and a verdict naming no listed item is recorded as unmatched.",
         "Two answers are no answer, and an answer to no question cannot count.",
         "every verdict"),
)

RULE: dict[str, Rule] = {rule.id: rule for rule in RULES}


def broken(rule_id: str, detail: str) -> str:
    """The reason a verdict does not stand: the rule's id, then what the citation lacked."""
    return f"[{RULE[rule_id].id}] {detail}"


_ID = re.compile(r"\[(E\d+)\]")


def rule_of(reason: str) -> str:
    """The id of the rule a reason names ('' when it names none)."""
    found = _ID.search(reason)
    return found.group(1) if found and found.group(1) in RULE else ""


def active(
    entry: Entry, kinds: Iterable[str], *, absence: bool = False, typed: bool = False,
) -> tuple[Rule, ...]:
    """The rules one checker request states and its verdicts are held to: E7 only with a goal or verify
    item, E9 only when the operator typed something, E10 only with an item about an absence. (E11 is always
    stated: every reply may say ``visual``, and only a visual item accepts it.)"""
    kinds = set(kinds)
    off = {"E7"} if not kinds & {"goal", "verify"} else set()
    off |= {"E9"} if not typed else set()
    off |= {"E10"} if not absence else set()
    return tuple(rule for rule in RULES if rule.id not in off)


def render_prompt(rules: Iterable[Rule], entry: Entry) -> str:
    """The rules section of a checker prompt."""
    lines = [f"- [{rule.id}] {rule.stated(entry)}" for rule in rules]
    return ("Rules of evidence (the harness applies each one to your verdicts; a verdict that breaks one is "
            "recorded inconclusive with the rule's id):\n" + "\n".join(lines))


def render_markdown() -> str:
    """The rules as the table ``docs/writing-checks.md`` carries (generated; a test keeps them equal)."""
    rows = ["| id | rule | applies to | why |", "|---|---|---|---|"]
    for rule in RULES:
        rows.append(f"| **{rule.id}** {rule.name} | {_cell(rule.stated())} | {rule.applies_to} | "
                    f"{_cell(rule.reason)} |")
    return "\n".join(rows)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


DOCS_START, DOCS_END = "<!-- rules:start -->", "<!-- rules:end -->"


def with_rules_table(page: str) -> str:
    """``page`` (Markdown) with the rules table between its markers replaced by ``render_markdown()``."""
    head, _, rest = page.partition(DOCS_START)
    _, _, tail = rest.partition(DOCS_END)
    return f"{head}{DOCS_START}\n{render_markdown()}\n{DOCS_END}{tail}"


if __name__ == "__main__":  # python -m pytest_artemis.checking.rules docs/writing-checks.md
    import sys
    from pathlib import Path

    for name in sys.argv[1:]:
        path = Path(name)
        path.write_text(with_rules_table(path.read_text(encoding="utf-8")), encoding="utf-8")
