"""The step timeline: one row per recorded turn with pre/post screenshots, drawn actions and the plan."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pytest_artemis.contracts import ActionResult, CheckVerdict, Citation, StepRecord

from .markup import esc, fmt_duration, tag
from .overlay import describe, drawn, png_size, step_overlay
from .reasons import verdict_step

_SHA = re.compile(r"[0-9a-f]{64}")
_BLOB = re.compile(r"[0-9a-f]{64}\.[A-Za-z0-9]{1,16}")
_EAGER_ROWS = 4  # the rows a reader sees first load at once; later ones as they are scrolled to
_BAD_FLAGS = {"planner_rejected", "actions_refused", "guard_restored", "model_failed", "no_effect"}


@dataclass(frozen=True)
class Drawing:
    """What to draw on one screenshot: the actions executed on it and the evidence cited on it."""

    results: tuple[ActionResult, ...] = ()
    cited: tuple[tuple[Citation, str, str], ...] = field(default_factory=tuple)


def screen_src(ref: str | None) -> str | None:
    """The page-relative path of a screenshot reference, or None if it is not a content hash.

    Only hashes are accepted: a path from an untrusted journal must not point outside ``screens/``.
    """
    if not ref:
        return None
    name = ref.removeprefix("screens/").removesuffix(".png")
    return f"screens/{name}.png" if _SHA.fullmatch(name) else None


def figure(run_dir: Path, ref: str | None, caption: str, drawing: Drawing, *, lazy: bool = False) -> str:
    """A screenshot with its overlay (click to enlarge), or a placeholder saying why there is none.

    ``lazy`` leaves loading the image to the browser until it is scrolled near (long runs open fast).
    """
    src = screen_src(ref)
    size = png_size(run_dir / src) if src else None
    if src is None or size is None:
        why = "no screenshot" if not ref else "screenshot missing"
        return tag("figure", tag("div", esc(why), class_="noshot") + tag("figcaption", esc(caption)))
    loading = ' loading="lazy"' if lazy else ""
    img = f'<img src="{esc(src)}" alt="{esc(caption)} screenshot"{loading}>'
    overlay = step_overlay(drawing.results, drawing.cited, size) if drawing.results or drawing.cited else ""
    shot = tag(
        "div", img + overlay, class_="shot", tabindex="0", title="click to enlarge", data_caption=caption
    )
    untargeted = [
        f"{n}. {describe(r.action)}" for n, r in enumerate(drawing.results, start=1) if r.ok and not drawn(r)
    ]
    notes = tag("div", esc(" · ".join(untargeted)), class_="untargeted") if untargeted else ""
    return tag("figure", shot + tag("figcaption", esc(caption)) + notes)


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
    """Links to the ledger rows resting on this step (``#verdict-N`` is the 1-based ledger index)."""
    links = [
        tag(
            "a",
            esc(f"{v.kind}: {v.status}"),
            href=f"#verdict-{n}",
            class_=f"badge s-{v.status}",
            title=v.item_text,
        )
        for n, v in enumerate(verdicts, start=1)
        if verdict_step(v) == step.step
    ]
    return tag("div", "checks resting here: " + " ".join(links), class_="anchored") if links else ""


def _flags(step: StepRecord) -> str:
    flags = "".join(tag("span", esc(f), class_="flag bad" if f in _BAD_FLAGS else "flag") for f in step.flags)
    if step.replayed:
        flags += tag("span", "replayed from a recording", class_="flag replayed")
    if step.completed:
        flags += tag("span", "completed " + esc(", ".join(step.completed)), class_="flag")
    if step.foreground:
        flags += tag("span", esc(step.foreground), class_="flag")
    if step.hierarchy and _BLOB.fullmatch(step.hierarchy):
        flags += tag("a", "hierarchy", href=f"screens/{step.hierarchy}", class_="flag")
    return tag("div", flags)


def _detail(
    step: StepRecord, plans: Mapping[int, str], verdicts: Sequence[CheckVerdict], previous: int | None
) -> str:
    decision = esc(step.decision) if step.decision else "<i class=muted>no decision text</i>"
    parts = [tag("p", decision, class_="decision"), _actions(step)]
    if step.error:
        parts.append(tag("p", "error: " + esc(step.error), class_="error"))
    parts += [_flags(step), _anchored(step, verdicts), _plan(plans, step.plan_version, previous)]
    return tag("div", "".join(parts), class_="detail")


def cite_marks(v: CheckVerdict) -> tuple[tuple[Citation, str, str], ...]:
    """A verdict's citations as outlines to draw (label by kind and status), those that have a place."""
    if v.status == "superseded":
        return ()
    sign = {"passed": "✓", "failed": "✗"}.get(v.status, "?")
    return tuple((c, f"{sign} {v.kind}: {_what(c)}", f"ev-{v.status}")
                 for c in v.citations if c.bounds is not None)


def _what(c: Citation) -> str:
    return "visual" if c.visual else (f"“{c.quote}”" if c.quote else f"#{c.element}")


def cited_on(
    step: StepRecord, screen: str, verdicts: Sequence[CheckVerdict]
) -> tuple[tuple[Citation, str, str], ...]:
    """The citations resolved on ``step``'s ``pre`` or ``post`` screen (by screenshot hash when recorded)."""
    ref = step.pre_screen if screen == "pre" else step.post_screen
    marks = []
    for mark in (m for v in verdicts for m in cite_marks(v)):
        c = mark[0]
        if c.step == step.step and ((c.screenshot == ref) if c.screenshot else (c.screen == screen)):
            marks.append(mark)
    return tuple(marks)


def step_row(
    run_dir: Path,
    step: StepRecord,
    plans: Mapping[int, str],
    verdicts: Sequence[CheckVerdict],
    previous: int | None,
    *,
    lazy: bool = False,
) -> str:
    """One timeline row (``#step-N``): the actions drawn on the pre screenshot, evidence on the post."""
    turn = f"<small>{esc(step.turn.replace('_', ' '))}</small>" if step.turn != "act" else ""
    took = esc(fmt_duration(step.finished_at - step.started_at))
    num = f'<div class="num"><a href="#step-{step.step}">#{step.step}</a>{turn}<small>{took}</small></div>'
    before = figure(
        run_dir,
        step.pre_screen,
        f"step {step.step} before",
        Drawing(results=step.results, cited=cited_on(step, "pre", verdicts)),
        lazy=lazy,
    )
    after = figure(
        run_dir,
        step.post_screen,
        f"step {step.step} after",
        Drawing(cited=cited_on(step, "post", verdicts)),
        lazy=lazy,
    )
    return tag(
        "div",
        num + tag("div", before + after, class_="shots") + _detail(step, plans, verdicts, previous),
        class_="step",
        id=f"step-{step.step}",
        data_step=str(step.step),
    )


def timeline(
    run_dir: Path,
    steps: Sequence[StepRecord],
    plans: Mapping[int, str],
    verdicts: Sequence[CheckVerdict] = (),
) -> str:
    """All step rows in journal order (``data-steps`` carries the count for tools and tests)."""
    rows: list[str] = []
    previous: int | None = None
    for step in steps:
        lazy = len(rows) >= _EAGER_ROWS
        rows.append(step_row(run_dir, step, plans, verdicts, previous, lazy=lazy))
        previous = step.plan_version
    body = "".join(rows) if rows else '<p class="muted">No steps were recorded.</p>'
    return tag("div", body, class_="timeline", data_steps=str(len(steps)))
