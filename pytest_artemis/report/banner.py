"""The banner at the top of a run page: the outcome word and the reason, each ground linked to its step."""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from functools import cache

from pytest_artemis.checking.rules import RULE
from pytest_artemis.contracts import CheckItem, CheckVerdict, Citation, ProbeCheck
from pytest_artemis.device.errors import ProbeRefused
from pytest_artemis.device.probe_table import ProbeTable, builtin_probes

from .markup import esc, tag, word_class
from .reasons import Ground, Reason


@cache
def _table() -> ProbeTable:
    return builtin_probes()


def probe_command(probe: ProbeCheck) -> str:
    """The command a check's probe runs on the device, as the enumerated table builds it; a probe a
    plugin registered (not in the built-in table) is shown as its kind and parameters."""
    try:
        return shlex.join(_table().argv(probe.probe))
    except ProbeRefused:
        params = " ".join(f"{k}={v}" for k, v in probe.probe.params.items())
        return f"{probe.probe.kind} {params}".strip()


def probes_by_item(checks: Sequence[CheckItem]) -> dict[str, ProbeCheck]:
    """Declared probe-backed checks by their text."""
    return {c.text: c.probe for c in checks if c.probe is not None}


def evidence_block(verdict: CheckVerdict | None, detail: str, probes: Mapping[str, ProbeCheck]) -> str:
    """A verdict's evidence: for a probe, the command and the decisive lines the citation quotes."""
    # Only a verdict the probe gave shows its command: an item settled without running it shows no probe.
    probe = probes.get(verdict.item_text) if verdict is not None and verdict.source == "probe" else None
    parts = []
    if probe is not None:
        parts.append(tag("div", "probe " + tag("code", esc(probe_command(probe))), class_="probe-cmd"))
        parts.append(tag("div", esc(probe.description), class_="muted") if probe.description else "")
    for citation in verdict.citations if verdict is not None else ():
        parts.append(_citation(citation))
    if verdict is not None and verdict.rule in RULE:
        rule = RULE[verdict.rule]
        parts.append(tag("div", "not standing by rule " + tag("b", esc(f"{rule.id} {rule.name}"))
                         + esc(f": {rule.reason}"), class_="rule", title=rule.stated()))
    if detail:
        parts.append(tag("pre", esc(detail), class_="evidence"))
    return "".join(parts)


def _citation(c: Citation) -> str:
    """One citation as the checker gave it and as the harness found it (or did not)."""
    if c.visual:
        return tag("div", "visual judgement of the screenshot (the check opted in)", class_="cite visual")
    if c.probe:
        where = f"probe {c.probe}"
    else:
        where = "the final screen" if c.screen == "final" else f"step {c.step} {c.screen}-screen"
    what = [f"element [{c.element}]"] if c.element is not None else []
    what += [c.attribute] if c.attribute else []
    body = f"cites {esc(where)}" + (esc(", " + " ".join(what)) if what else "")
    body += ": " + tag("q", esc(c.quote)) if c.quote else ""
    body += esc(f" ({c.found_in})" if c.found and c.found_in else "")
    body += "" if c.found else esc(" — not found in the recorded artifacts")
    return tag("div", body, class_="cite" + ("" if c.found else " unfound"))


def _links(ground: Ground, step_ids: set[int]) -> str:
    links = []
    if ground.step is not None:
        href = f"#step-{ground.step}" if ground.step in step_ids else None
        text = f"step {ground.step}"
        links.append(tag("a", esc(text), href=href, class_="to-step") if href else esc(text))
    if ground.verdict is not None:
        links.append(tag("a", f"verdict #{ground.verdict}", href=f"#verdict-{ground.verdict}"))
    return tag("span", " · ".join(links), class_="links") if links else ""


def _ground(
    ground: Ground, verdicts: Sequence[CheckVerdict], step_ids: set[int], probes: Mapping[str, ProbeCheck]
) -> str:
    verdict = verdicts[ground.verdict - 1] if ground.verdict is not None else None
    head = (
        (tag("span", esc(ground.label), class_="glabel") if ground.label else "")
        + tag("span", esc(ground.text), class_="gtext")
        + _links(ground, step_ids)
    )
    return tag("li", tag("div", head, class_="ghead") + evidence_block(verdict, ground.detail, probes))


def banner(
    word: str,
    why: Reason,
    verdicts: Sequence[CheckVerdict] = (),
    step_ids: set[int] | None = None,
    checks: Sequence[CheckItem] = (),
) -> str:
    """The outcome word, colour-coded, the reason's headline, and every ground it rests on (once each)."""
    steps = step_ids or set()
    probes = probes_by_item(checks)
    grounds = "".join(
        _ground(g, verdicts, steps, probes)
        for g in why.grounds
        if g.text not in why.headline or g.detail or g.step is not None
    )
    head = tag(
        "div",
        tag("span", esc(word), class_="word") + tag("span", esc(why.headline), class_="why"),
        class_="bhead",
    )
    body = head + (tag("ol", grounds, class_="grounds") if grounds else "")
    return tag("div", body, class_=f"banner {word_class(word)}", id="banner", data_outcome=word)
