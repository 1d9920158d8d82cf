"""The timeline strip: steps on one lane, each check attempt on a lane of its own, on one time axis.

A checkpoint is spawned after the step it is anchored at and runs while the operator goes on; its
verdicts are taken in at the start of the first turn that begins after they finished (or at exit
settlement when no turn followed). Times come from the step records and the verdicts' own timestamps.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pytest_artemis.contracts import CheckVerdict, StepRecord

from .markup import esc, fmt_duration, section, tag

_WORST = ("failed", "inconclusive", "unchecked", "passed", "superseded")


@dataclass(frozen=True)
class Lane:
    """One check attempt's span on the axis (a checkpoint's repairs are attempts of their own)."""

    attempt: str
    anchor: int | None
    start: float
    end: float
    status: str
    harvested_by: int | None
    items: int


def _lanes(steps: Sequence[StepRecord], verdicts: Sequence[CheckVerdict]) -> list[Lane]:
    groups: dict[str, list[CheckVerdict]] = {}
    for v in verdicts:
        groups.setdefault(v.attempt_id, []).append(v)
    lanes = []
    for attempt, group in groups.items():
        end = max(v.finished_at for v in group)
        statuses = {v.status for v in group}
        worst = next((s for s in _WORST if s in statuses), "passed")
        harvested = next((s.step for s in steps if s.started_at >= end), None)
        lanes.append(
            Lane(
                attempt,
                group[0].anchor_step,
                min(v.started_at for v in group),
                end,
                worst,
                harvested,
                len({v.item_key for v in group}),
            )
        )
    return sorted(lanes, key=lambda lane: lane.start)


class _Axis:
    def __init__(self, t0: float, t1: float) -> None:
        self.t0, self.span = t0, max(t1 - t0, 1e-6)

    def pct(self, t: float) -> float:
        return min(max((t - self.t0) / self.span * 100.0, 0.0), 100.0)

    def box(self, start: float, end: float) -> str:
        left = self.pct(start)
        return f"left:{left:.2f}%;width:{max(self.pct(end) - left, 0.25):.2f}%"


def _step_lane(axis: _Axis, steps: Sequence[StepRecord]) -> str:
    blocks = "".join(
        tag(
            "a",
            esc(str(s.step)),
            href=f"#step-{s.step}",
            class_=f"sblock t-{s.turn}",
            style=axis.box(s.started_at, s.finished_at),
            title=f"step {s.step} ({s.turn}), {fmt_duration(s.finished_at - s.started_at)}",
        )
        for s in steps
    )
    return tag(
        "div", tag("span", "steps", class_="lname") + tag("div", blocks, class_="ltrack"), class_="lane"
    )


def _check_lane(axis: _Axis, n: int, lane: Lane) -> str:
    spawned = f"after step {lane.anchor}" if lane.anchor is not None else "at exit"
    taken = f"taken in at step {lane.harvested_by}" if lane.harvested_by is not None else "taken in at exit"
    title = (
        f"attempt {lane.attempt}: {lane.items} item(s), spawned {spawned}, ran "
        f"{fmt_duration(lane.end - lane.start)}, {taken}; worst status {lane.status}"
    )
    bar = tag("span", "", class_=f"cspan s-{lane.status}", style=axis.box(lane.start, lane.end), title=title)
    spawn = tag(
        "span", "", class_="spawn", style=f"left:{axis.pct(lane.start):.2f}%", title=f"spawned {spawned}"
    )
    marks = bar + spawn
    if lane.harvested_by is not None:
        marks += tag(
            "a",
            "",
            href=f"#step-{lane.harvested_by}",
            class_="harvest",
            style=f"left:{axis.pct(lane.end):.2f}%",
            title=taken,
        )
    name = tag("span", esc(f"⚑ {n}. {spawned}"), class_="lname", title=title)
    return tag("div", name + tag("div", marks, class_="ltrack"), class_="lane", data_attempt=lane.attempt)


def strip_section(
    steps: Sequence[StepRecord],
    verdicts: Sequence[CheckVerdict],
    started_at: float,
    finished_at: float | None,
) -> str:
    """The strip as a page section (empty when nothing ran)."""
    if not steps and not verdicts:
        return ""
    ends = [s.finished_at for s in steps] + [v.finished_at for v in verdicts] + [finished_at or started_at]
    axis = _Axis(started_at, max(ends))
    lanes = [_check_lane(axis, n, lane) for n, lane in enumerate(_lanes(steps, verdicts), start=1)]
    legend = tag(
        "p",
        "◆ spawned · bar: checks running · ▲ taken in by the operator's next turn (click: that step)",
        class_="muted legend",
    )
    body = tag("div", _step_lane(axis, steps) + "".join(lanes), class_="strip") + legend
    return section(f"Timeline ({len(lanes)} check attempts)", body, id_="strip")
