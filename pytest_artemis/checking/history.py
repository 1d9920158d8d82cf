"""The run's readings in time order — the baseline the harness read from the device before the first action,
every recorded screen (as its hierarchy showed it), the probes checkers ran — and the two questions the
rules ask of them: what was first seen of a fact ([E7] brought about by the run), and whether a screen
shows it otherwise ([E8] still holds)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from pytest_artemis.contracts import ProbeSpec, ScreenView
from pytest_artemis.contracts.probe_outputs import Unreadable
from pytest_artemis.device import Device, DeviceCommandFailed, ProbeRefused

from .facts import Fact
from .readings import LISTINGS, Shown, about, element_shown, holds, lists, probe_shown
from .screens import RecordedScreens
from .terms import terms

_NEUTRAL = frozenset({"on", "off", "enabled", "enable", "mode", "state", "status", "switch", "widget",
                      "title", "summary", "id", "android", "com", "setting", "value"})


@dataclass(frozen=True)
class ProbeOutput:
    """A probe's raw output and, when it could not be read as the probe's format (an error message, a failed
    command), why; ``acted`` is the latest step whose actions had started on the device when it ran
    (0: before the first action, the baseline)."""

    kind: str
    raw: str
    unreadable: str = ""
    acted: int = 0
    params: Mapping[str, str] = field(default_factory=dict)

    @property
    def moment(self) -> float:
        """After the pre-screen of the step that had begun when it ran (what it read is that step's doing)."""
        return 2 * self.acted + 0.5


async def take_baseline(device: Device) -> tuple[ProbeOutput, ...]:
    """What the probe table's state listings read before the agent acts (alarms, settings, contacts, …)."""
    readings = []
    for kind in device.probe_table:
        for params in kind.baseline:
            spec = ProbeSpec(kind=kind.name, params=dict(params))
            try:
                result = await asyncio.to_thread(device.probe_spec, spec)
            except (DeviceCommandFailed, ProbeRefused):
                # a listing it cannot give leaves that baseline unknown
                continue
            if result.exit_code == 0 and not isinstance(result.parsed, Unreadable):
                readings.append(ProbeOutput(kind.name, result.raw, params=dict(params)))
    return tuple(readings)


def probe_readings(output: ProbeOutput, where: str) -> Iterator[Shown]:
    """One reading per line of a probe's output, and the whole output when it is a complete listing."""
    if output.unreadable:
        return
    moment = 0.0 if where == "the baseline" else output.moment
    if output.kind in LISTINGS:
        yield probe_shown(output.kind, output.params, output.raw, where, moment, complete=True)
    for line in (ln.strip() for ln in output.raw.splitlines()):
        if line:
            yield probe_shown(output.kind, output.params, line, where, moment, output=output.raw)


def screen_readings(moment: float, where: str, view: ScreenView) -> Iterator[Shown]:
    for element in view.elements:
        yield element_shown(view, element, where, moment)


class History:
    """Every reading of one judgement's run, oldest first."""

    def __init__(self, screens: RecordedScreens, baseline: Sequence[ProbeOutput] = (),
                 probes: Sequence[ProbeOutput] = ()) -> None:
        self._screens = screens
        self._baseline = baseline
        self._probes = probes

    def readings(self) -> list[Shown]:
        found = [r for b in self._baseline for r in probe_readings(b, "the baseline")]
        for moment, where, view in self._screens.timeline():
            found += screen_readings(moment, where, view)
        found += [r for p in self._probes for r in probe_readings(p, f"probe {p.kind!r}")]
        return sorted(found, key=lambda r: r.moment)

    def first_seen(self, fact: Fact, calls: frozenset[str] = frozenset(), since: float = 0.0
                   ) -> tuple[Shown, bool] | None:
        """The earliest reading from ``since`` on that says whether ``fact`` holds, and what it says (the
        most specific readings of that moment decide: ``wifi_on`` over ``wifi_scan_always_enabled``). A
        complete listing witnesses a fact when its call names what the fact is about (the alarm listing for
        an alarm), or when it is one of ``calls`` (the probe calls a verdict cites)."""
        moments: dict[float, list[tuple[Shown, bool]]] = {}
        for reading in self.readings():
            if reading.moment < since:
                continue
            if reading.complete and reading.source not in calls and not lists(fact, reading):
                continue  # a listing of other things says nothing of this fact
            if fact.navigation and reading.source:
                continue  # a page is seen on screens
            if not fact.navigation and not reading.complete and not about(fact, reading):
                continue
            said = holds(fact, reading)
            if said is not None:
                moments.setdefault(reading.moment, []).append((reading, said))
        if not moments:
            return None
        known = moments[min(moments)]
        least = min(_extra(fact, r) for r, _ in known)
        known = [(r, said) for r, said in known if _extra(fact, r) == least]
        return next(((r, True) for r, said in known if said), known[0])


def _extra(fact: Fact, reading: Shown) -> int:
    """How much more than the fact a reading names (a listing line naming other things is less specific)."""
    return len(reading.names - fact.topic - _NEUTRAL - terms(fact.text))


def contradicted(fact: Fact, view: ScreenView, where: str, moment: float) -> Shown | None:
    """A reading of ``view`` that shows ``fact`` does not hold, when none of it shows it holds."""
    said = [(r, holds(fact, r)) for r in screen_readings(moment, where, view) if about(fact, r)]
    if any(s is True for _, s in said):
        return None
    return next((r for r, s in said if s is False), None)
