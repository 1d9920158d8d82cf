"""The step timeline: one row per recorded turn with pre/post screenshots, drawn actions and the plan."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from pytest_artemis.contracts import CheckVerdict, StepRecord

from .markup import esc, fmt_duration, tag
from .overlay import action_overlay, describe, png_size

_SHA = re.compile(r"[0-9a-f]{64}")
_BLOB = re.compile(r"[0-9a-f]{64}\.[A-Za-z0-9]{1,16}")
_BAD_FLAGS = {"planner_rejected", "actions_refused", "guard_restored", "model_failed", "no_effect"}


def screen_src(ref: str | None) -> str | None:
    """The page-relative path of a screenshot reference, or None if it is not a content hash.

    Only hashes are accepted: a path from an untrusted journal must not point outside ``screens/``.
    """
    if not ref:
        return None
    name = ref.removeprefix("screens/").removesuffix(".png")
    return f"screens/{name}.png" if _SHA.fullmatch(name) else None


def _figure(run_dir: Path, ref: str | None, caption: str, step: StepRecord | None) -> str:
    src = screen_src(ref)
    size = png_size(run_dir / src) if src else None
    if src is None or size is None:
        why = "no screenshot" if not ref else "screenshot missing"
        return tag("figure", tag("div", esc(why), class_="noshot") + tag("figcaption", esc(caption)))
    img = f'<img src="{esc(src)}" width="160" alt="{esc(caption)} screenshot">'
    overlay = action_overlay(step.actions, step.results, size) if step is not None and step.actions else ""
    shot = tag("a", img, href=src, title="open full size") + overlay
    return tag("figure", tag("div", shot, class_="shot") + tag("figcaption", esc(caption)))


def _actions(step: StepRecord) -> str:
    items = []
    for n, action in enumerate(step.actions):
        result = step.results[n] if n < len(step.results) else None
        text = esc(describe(action))
        if result is None:
            items.append(f"<li>{text} <span class=muted>(not executed)</span></li>")
            continue
        state = "refused" if result.refused else ("ok" if result.ok else "failed")
        detail = f" — {esc(result.detail)}" if result.detail else ""
        bad = ' class="bad"' if state != "ok" else ""
        items.append(f"<li{bad}>{text} <span class=muted>[{state}]{detail}</span></li>")
    return tag("ol", "".join(items), class_="actions") if items else '<p class="muted">no actions</p>'


def _plan(plans: Mapping[int, str], version: int, previous: int | None) -> str:
    if version <= 0 or version not in plans:
        return '<p class="muted">no plan recorded for this step</p>' if version > 0 else ""
    changed = ' <span class="changed">changed</span>' if previous is not None and previous != version else ""
    summary = f"Plan v{version} <span class=muted>(plan/{version:04d}.md)</span>{changed}"
    # Open where the plan first appears or changes, so a reader sees each version once without clicking.
    opened = " open" if previous != version else ""
    return f"<details{opened}><summary>{summary}</summary><pre>{esc(plans[version])}</pre></details>"


def _anchored(step: StepRecord, verdicts: Sequence[CheckVerdict]) -> str:
    """Links to the ledger rows anchored at this step (``#verdict-N`` is the 1-based ledger index)."""
    links = [
        tag(
            "a",
            esc(f"{v.kind}: {v.status}"),
            href=f"#verdict-{n}",
            class_=f"badge s-{v.status}",
            title=v.item_text,
        )
        for n, v in enumerate(verdicts, start=1)
        if v.anchor_step == step.step
    ]
    return tag("div", "checks anchored here: " + " ".join(links), class_="anchored") if links else ""


def _detail(
    step: StepRecord, plans: Mapping[int, str], verdicts: Sequence[CheckVerdict], previous: int | None
) -> str:
    parts = [
        tag(
            "p",
            esc(step.decision) if step.decision else "<i class=muted>no decision text</i>",
            class_="decision",
        )
    ]
    parts.append(_actions(step))
    if step.error:
        parts.append(tag("p", "error: " + esc(step.error), class_="error"))
    flags = "".join(tag("span", esc(f), class_="flag bad" if f in _BAD_FLAGS else "flag") for f in step.flags)
    if step.completed:
        flags += tag("span", "completed " + esc(", ".join(step.completed)), class_="flag")
    if step.foreground:
        flags += tag("span", esc(step.foreground), class_="flag")
    if step.hierarchy and _BLOB.fullmatch(step.hierarchy):
        flags += tag("a", "hierarchy", href=f"screens/{step.hierarchy}", class_="flag")
    parts.append(tag("div", flags))
    parts.append(_anchored(step, verdicts))
    parts.append(_plan(plans, step.plan_version, previous))
    return tag("div", "".join(parts), class_="detail")


def step_row(
    run_dir: Path,
    step: StepRecord,
    plans: Mapping[int, str],
    verdicts: Sequence[CheckVerdict],
    previous: int | None,
) -> str:
    """One timeline row (anchor ``#step-N``), the pre screenshot carrying the drawn actions."""
    turn = f"<small>{esc(step.turn.replace('_', ' '))}</small>" if step.turn != "act" else ""
    took = esc(fmt_duration(step.finished_at - step.started_at))
    num = f'<div class="num">#{step.step}{turn}<small>{took}</small></div>'
    shots = tag(
        "div",
        _figure(run_dir, step.pre_screen, "before", step) + _figure(run_dir, step.post_screen, "after", None),
        class_="shots",
    )
    return tag(
        "div", num + shots + _detail(step, plans, verdicts, previous), class_="step", id=f"step-{step.step}"
    )


def timeline(
    run_dir: Path,
    steps: Sequence[StepRecord],
    plans: Mapping[int, str],
    verdicts: Sequence[CheckVerdict] = (),
) -> str:
    """All step rows in journal order (``data-steps`` carries the count for tools and tests)."""
    rows, previous = [], None
    for step in steps:
        rows.append(step_row(run_dir, step, plans, verdicts, previous))
        previous = step.plan_version
    body = "".join(rows) if rows else '<p class="muted">No steps were recorded.</p>'
    return tag("div", body, class_="timeline", data_steps=str(len(steps)))
