"""Engine test helpers: an in-memory phone (where the ADB path adds nothing), journals, scripted runs."""

from __future__ import annotations

import io
import threading
from collections.abc import Callable
from pathlib import Path

from PIL import Image

from pytest_artemis import probes
from pytest_artemis.agents.schemas import (
    CheckReport,
    CitationClaim,
    ModelVerdict,
    OperatorDecision,
    PlanReply,
)
from pytest_artemis.contracts import Bounds, CheckItem, Finish, ProbeResult, ProbeSpec, TaskSpec, UIElement
from pytest_artemis.device import Capture, DeviceCommandFailed, DeviceInfo, DeviceUnavailable, Hierarchy
from pytest_artemis.device.probe_table import builtin_probes
from pytest_artemis.engine import RunConfig, run_task
from pytest_artemis.models import ModelSet
from pytest_artemis.store.journal import RunHeader, RunJournal
from pytest_artemis.testing import ScriptedModel, ScriptedRequest, citations_for

W, H = 360, 640
TOGGLES = ("wifi_on", "bluetooth_on")


class FakePhone:
    """A settings screen with two switches (Wi-Fi, Bluetooth) backed by ``settings global`` values.

    Element 0 toggles wifi_on, element 1 toggles bluetooth_on, element 2 is a label. ``ignore_taps``
    makes taps do nothing (for the no-effect breaker); ``offline_after`` makes the device fail after
    that many screenshots.
    """

    serial = "fake-0"
    name = "fake-0"  # how reports name it (an adb device: HOST:PORT/SERIAL)

    def __init__(self, **settings: str) -> None:
        self.settings = {"wifi_on": "0", "bluetooth_on": "0", **settings}
        self.ignore_taps = False
        self.offline_after: int | None = None
        self.shots = 0
        self.taps: list[tuple[int, int]] = []
        self.probes: list[ProbeSpec] = []
        self.probe_table = builtin_probes()
        self._lock = threading.Lock()

    def _elements(self) -> tuple[UIElement, ...]:
        rows = []
        for i, key in enumerate(TOGGLES):
            rows.append(UIElement(index=i, text=key.replace("_on", "").title(), resource_id=f"switch_{key}",
                                  class_name="android.widget.Switch", package="com.android.settings",
                                  bounds=Bounds(left=0, top=100 + i * 100, right=W, bottom=180 + i * 100),
                                  clickable=True, checkable=True, checked=self.settings[key] == "1"))
        rows.append(UIElement(index=2, text="Settings", class_name="android.widget.TextView",
                              package="com.android.settings",
                              bounds=Bounds(left=0, top=0, right=W, bottom=80)))
        return tuple(rows)

    def screenshot(self) -> Capture:
        with self._lock:
            self.shots += 1
            if self.offline_after is not None and self.shots > self.offline_after:
                raise DeviceUnavailable("fake phone went offline")
            colour = tuple(255 if self.settings[k] == "1" else 40 for k in TOGGLES) + (90,)
        img = Image.new("RGB", (W, H), colour)
        buf = io.BytesIO()
        img.save(buf, format="PNG")
        return Capture.from_png(buf.getvalue(), W, H)

    def hierarchy(self) -> Hierarchy:
        return Hierarchy(xml="<hierarchy rotation=\"0\"/>", elements=self._elements())

    def tap(self, x: int, y: int) -> None:
        self.taps.append((x, y))
        if self.ignore_taps:
            return
        for element in self._elements()[:2]:
            if element.bounds.contains(x, y):
                key = element.resource_id.removeprefix("switch_")
                self.settings[key] = "0" if self.settings[key] == "1" else "1"

    def long_press(self, x: int, y: int, duration_ms: int = 800) -> None:
        self.tap(x, y)

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> None:
        """Nothing scrolls on this screen."""

    def type_text(self, text: str) -> None:
        """No text fields on this screen."""

    def clear_text(self, chars: int) -> None:
        """No text fields on this screen."""

    def key(self, name: str) -> None:
        """Keys change nothing here."""

    def launch(self, package: str, activity: str | None = None) -> None:
        """Always on the settings screen."""

    def stop(self, package: str) -> None:
        """Nothing to stop."""

    def current_app(self) -> str:
        return "com.android.settings"

    def probe_spec(self, spec: ProbeSpec) -> ProbeResult:
        self.probe_table.validate(spec)
        if spec.kind == "settings":  # the baseline's listing of a namespace (this phone has one)
            raw = "".join(f"{k}={v}\n" for k, v in sorted(self.settings.items()))
            return ProbeResult(spec=spec, argv=tuple(self.probe_table.argv(spec)), raw=raw,
                               parsed=self.probe_table.parse(spec, raw))
        if spec.kind != "setting":  # what a phone without that service answers
            raise DeviceCommandFailed(f"the fake phone only answers setting probes, not {spec.kind}")
        self.probes.append(spec)
        raw = self.settings.get(spec.params["key"], "null") + "\n"
        return ProbeResult(spec=spec, argv=tuple(self.probe_table.argv(spec)), raw=raw,
                           parsed=self.probe_table.parse(spec, raw))

    def probe(self, kind: str, **params: str) -> ProbeResult:
        return self.probe_spec(ProbeSpec(kind=kind, params=params))

    def info(self) -> DeviceInfo:
        return DeviceInfo(serial=self.serial, width=W, height=H)


def make_journal(root: Path, spec: TaskSpec, run_id: str = "run-1") -> RunJournal:
    return RunJournal.create(root, RunHeader(run_id=run_id, goal=spec.goal, checks=spec.checks))


Turn = OperatorDecision | Callable[[ScriptedRequest], object]


def cite(request: ScriptedRequest) -> CitationClaim | None:
    """A citation of something really on the newest citable screen of the request (its first labelled
    element), or None when the request offers no such screen."""
    for screen in reversed(request.screens):
        element = next((e for e in screen.view.elements if e.label), None)
        if element is not None:
            return CitationClaim(step=screen.step, screen=screen.screen, element=element.index,
                                 quote=element.label)
    return None


def cited(request: ScriptedRequest, item: CheckItem, status: str, evidence: str) -> ModelVerdict:
    """One verdict: a pass citing what shows each of the item's facts (``citations_for``), anything else
    citing what ``cite`` finds."""
    claims = citations_for(item, request.screens) if status == "passed" else []
    fallback = [c for c in [cite(request)] if c is not None]
    return ModelVerdict(item=item.text, status=status, evidence=evidence,  # type: ignore[arg-type]
                        citations=claims or fallback)


def passing_checker(request: ScriptedRequest) -> CheckReport:
    """Passes every item it is asked about (the goal included), citing a recorded screen."""
    return CheckReport(verdicts=[cited(request, i, "passed", f"step {request.turn} post screen shows it")
                                 for i in request.checks])


def script(plan: str, turns: list[Turn], checker: Callable[[ScriptedRequest], object] = passing_checker,
           *, after: Turn | None = None) -> ScriptedModel:
    """A scripted model: the planner answers ``plan``; operator turn N plays ``turns[N-1]`` (a decision or a
    function of the request), then ``after`` (default: finish); the checker answers ``checker(request)``."""
    done = after or OperatorDecision(decision="claim the goal", actions=[Finish()])

    def respond(request: ScriptedRequest) -> object:
        if request.role == "planner":
            return PlanReply(plan=plan)
        if request.role == "checker":
            return checker(request)
        turn = turns[request.turn - 1] if request.turn <= len(turns) else done
        return turn(request) if callable(turn) else turn

    return ScriptedModel(respond)


def mark(plan: str, *subgoals: str) -> str:
    """``plan`` with these subgoals marked ``[x]``."""
    for subgoal in subgoals:
        for box in ("- [ ]", "- [/]"):
            plan = plan.replace(f"{box} {subgoal}", f"- [x] {subgoal}")
    return plan


def step_marking(*subgoals: str, actions: tuple = ()) -> Callable[[ScriptedRequest], OperatorDecision]:
    """An operator turn running ``actions`` and marking ``subgoals`` done in the plan it was shown."""
    return lambda request: OperatorDecision(decision=f"do {', '.join(subgoals)}", actions=list(actions),
                                            plan=mark(request.plan, *subgoals))


def run(
    tmp_path: Path, spec: TaskSpec, phone: object, model: ScriptedModel, *, observer=None, **config: object
):
    """Run ``spec`` on ``phone`` with one scripted model for every role; returns (outcome, journal dir)."""
    journal = make_journal(tmp_path, spec)
    models = ModelSet.uniform(model)
    outcome = run_task(spec, phone, models, RunConfig(**config), journal, observer=observer)  # type: ignore[arg-type]
    return outcome, journal.dir


def setting_item(key: str = "wifi_on", kind: str = "verify", when: str = "complete", *, probe: bool = True,
                 text: str = "", hint: str | None = None) -> CheckItem:
    """A check that ``settings global key`` is 1 (probe-backed unless ``probe=False``)."""
    return CheckItem(kind=kind, when=when, text=text or f"{key} is 1", subgoal_hint=hint,  # type: ignore[arg-type]
                     probe=probes.setting("global", key, equals=True) if probe else None)
