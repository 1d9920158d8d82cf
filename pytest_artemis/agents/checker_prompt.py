"""The checker's system prompt, assembled per request: its role, how to name items and write citations, the
rules of evidence this request is held to (rendered from ``checking.rules``, only the active ones), the
entry it judges at, the probes and tools it may use, and worked examples. No section for a mechanism that
is off."""

from __future__ import annotations

import json
from collections.abc import Sequence

from pytest_artemis.checking.rules import Entry, Rule, render_prompt
from pytest_artemis.device.probe_table import ProbeKind, ProbeTable

from .prompts import join

_ROLE = """\
You are an independent checker of an automated Android test. Judge each listed item from evidence only:
the operator's own words ("done", summaries, its ticks) are claims, never evidence. For each item give one
verdict: its `item` id, a `status`, a short `evidence` sentence in your own words, and the `citations` you
rely on. "passed": the evidence shows the item holds. "failed": the evidence shows it does not (cite what
shows that). "inconclusive": the evidence does not decide it — say why. Write naturally: the harness reads
your status and your citations, never the wording of your evidence."""

_ITEMS = """\
Items are listed as `- [ID] kind: text` (`kind@end` for items judged on the final state). Name each
verdict's `item` by its ID exactly, e.g. "v1" or "goal"."""

_CITING = """\
How to cite (each entry of `citations` is one of):
- a recorded screen: {"step": N, "screen": "pre"|"post", ...} (before or after step N's actions), or
  {"screen": "final"} for the final screen, with either "quote": its text as listed (case, spacing and
  punctuation do not matter), or "element": its [index] in that screen's listing with the "attribute" you
  rely on ("checked=true", "text=7:30 AM") or a "quote" of its text;
- a probe you ran in this judgement: {"probe": KIND, "quote": "<a line of its output>"} (no step or screen;
  add "params": {...} to say which run you mean when that kind ran more than once);
- a judgement of the screenshot itself: {"step": N, "screen": "post", "visual": true}.
A step's pre-screen not listed may be cited too, by the element index its history line names ("tap … on
[4] 'OFF'"). Screen listings name each element as \
`[index] Class 'text' desc=… id=… checked=… row='…' [l,t][r,b]`:
`row` is the label of the row a switch or button sits on, and bounds are in device pixels (attached
screenshots are scaled down from them)."""

_CHECKPOINT = """\
You judge at a checkpoint: the items belong to a subgoal marked done at the anchor step. You are served the
anchor step's screens and the step before's; later steps are not served, and the device has moved on since
(its current screen is not evidence here). Transient and ordering expectations are judged from these steps."""

_FINAL = """\
You judge at the end of the run, against the user's original goal (not the plan's wording): the goal and
`@end` items on the final state (the final screen is attached). Also list in `unmet_subgoals`, verbatim,
every plan subgoal the final state shows is not achieved for the goal."""

_HELD = """\
Items marked "judged at step N" belong to a subgoal marked done at step N: judge them as at a checkpoint
anchored at step N (its screens and the step before's; not the final state, not later steps)."""

_GOAL = """\
The `goal` item is the user's original goal itself: "passed" only when the evidence shows it reached."""

_VERIFY = """\
`verify` items are completion criteria: "failed" sends the agent back to repair, so add a short `suggestion`
saying what is missing."""

_ASSERT = """\
`assert` items are test assertions: a failure is a test result, never repaired. Missing evidence is
"inconclusive", not "failed"."""

_OUTPUT = """\
Reply with JSON: {"verdicts": [{"item": "<ID>", "status": "passed|failed|inconclusive", "evidence": "...",
"suggestion": "", "citations": [...]}], "requests": [], "unmet_subgoals": []}."""

_ROUNDS = """\
To look at more evidence first, reply with only "requests" (see the tools; ask for all you need at once)
and no verdicts. You may do so {rounds}; the reply after that must give the verdicts."""


def _example(item: str, status: str, evidence: str, *citations: dict[str, object]) -> str:
    return json.dumps({"item": item, "status": status, "evidence": evidence, "citations": list(citations)},
                      ensure_ascii=False)


_EXAMPLES = {
    "absence": ("An absence, cited by the final screen that lacks it:",
                _example("a1", "passed", "The final screen is the Display page; no crash dialog is showing.",
                         {"screen": "final", "element": 1, "quote": "Display"})),
    "probe": ("A probe citation (after requesting the probe):",
              _example("v1", "passed", "The setting reads 1: Wi-Fi is on.",
                       {"probe": "setting", "quote": "1"})),
    "compound": ("A goal stating two facts, one citation each:",
                 _example("goal", "passed",
                          "Bluetooth's switch was turned on at step 4, and the final screen "
                          "shows Dark theme ON.",
                          {"probe": "setting", "params": {"key": "bluetooth_on"}, "quote": "1"},
                          {"screen": "final", "element": 4, "attribute": "checked=true"})),
}


def _probe_syntax(kind: ProbeKind) -> str:
    params = ", ".join(f"{name}{'?' if name in kind.optional else ''}" for name in sorted(kind.params))
    example = {"tool": "probe_device", "probe": {"kind": kind.name, "params": dict(kind.example)}}
    return f"- {kind.name}({params}): {kind.description}; e.g. {json.dumps(example)}"


def probes_section(table: ProbeTable) -> str:
    """The probe kinds with their parameter syntax and one call each."""
    kinds = "\n".join(_probe_syntax(k) for k in table)
    return ("Probes read persistent device state and are the strongest evidence for it (a probe whose output "
            "could not be read, an error message, shows nothing). Kinds (parameters marked ? are optional; a "
            "probe reads the device when it runs):\n" + kinds)


def checker_system(
    rules: Sequence[Rule], *, entry: Entry, kinds: set[str], tool_docs: Sequence[str],
    probes: ProbeTable | None, held: bool = False, absence: bool = False, rounds: int = 2,
) -> str:
    """The checker's system prompt for one request: ``rules`` are the rules of evidence its verdicts are held
    to (``checking.rules.active``), ``kinds`` the kinds of items it judges, ``rounds`` how many times it may
    ask for evidence before it must answer."""
    tools = "Tools (read-only):\n" + "\n".join(f"- {doc}" for doc in tool_docs) if tool_docs else ""
    examples = [_EXAMPLES["absence"]] if absence else []
    examples += [_EXAMPLES["probe"]] if probes is not None else []
    examples += [_EXAMPLES["compound"]] if "goal" in kinds and probes is not None else []
    shown = ("Examples of verdicts:\n" + "\n".join(f"{why}\n{json}" for why, json in examples)
             if examples else "")
    return join(
        _ROLE,
        _ITEMS,
        _CITING,
        render_prompt(rules, entry),
        _CHECKPOINT if entry == "checkpoint" else _FINAL,
        _HELD if held else "",
        _GOAL if "goal" in kinds else "",
        _VERIFY if "verify" in kinds else "",
        _ASSERT if "assert" in kinds else "",
        probes_section(probes) if probes is not None else "",
        tools,
        shown,
        _OUTPUT,
        _ROUNDS.format(rounds="once" if rounds == 1 else f"{rounds} times") if tool_docs and rounds else "",
    )
