"""Engine test fixtures: an in-memory phone (where the ADB path adds nothing), journals, scripted runs."""

from __future__ import annotations

import io
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image

from pytest_artemis.contracts import CheckItem, ProbeResult, ProbeSpec, TaskSpec, UIElement
from pytest_artemis.contracts import Bounds
from pytest_artemis.device import Capture, DeviceInfo, DeviceUnavailable, Hierarchy
from pytest_artemis.device.probes import DEFAULT_PROBES
from pytest_artemis.engine import RunConfig, run_task
from pytest_artemis.models import ModelSet
from pytest_artemis.store.journal import RunHeader, RunJournal
from pytest_artemis.testing import ScriptedModel

W, H = 360, 640
TOGGLES = ("wifi_on", "bluetooth_on")


class FakePhone:
    """A settings screen with two switches (Wi-Fi, Bluetooth) backed by ``settings global`` values.

    Element 0 toggles wifi_on, element 1 toggles bluetooth_on, element 2 is a label. ``ignore_taps``
    makes taps do nothing (for the no-effect breaker); ``offline_after`` makes the device fail after
    that many screenshots.
    """

    serial = "fake-0"

    def __init__(self, **settings: str) -> None:
        self.settings = {"wifi_on": "0", "bluetooth_on": "0", **settings}
        self.ignore_taps = False
        self.offline_after: int | None = None
        self.shots = 0
        self.taps: list[tuple[int, int]] = []
        self.probes: list[ProbeSpec] = []
        self._lock = threading.Lock()

    def _elements(self) -> tuple[UIElement, ...]:
        rows = []
        for i, key in enumerate(TOGGLES):
            rows.append(UIElement(index=i, text=key.replace("_on", "").title(), resource_id=f"switch_{key}",
                                  class_name="android.widget.Switch", package="com.android.settings",
                                  bounds=Bounds(left=0, top=100 + i * 100, right=W, bottom=180 + i * 100),
                                  clickable=True, checkable=True, checked=self.settings[key] == "1"))
        rows.append(UIElement(index=2, text="Settings", class_name="android.widget.TextView",
                              package="com.android.settings", bounds=Bounds(left=0, top=0, right=W, bottom=80)))
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

    def key(self, name: str) -> None:
        """Keys change nothing here."""

    def launch(self, package: str, activity: str | None = None) -> None:
        """Always on the settings screen."""

    def stop(self, package: str) -> None:
        """Nothing to stop."""

    def current_app(self) -> str:
        return "com.android.settings"

    def probe_spec(self, spec: ProbeSpec) -> ProbeResult:
        DEFAULT_PROBES.validate(spec)
        self.probes.append(spec)
        if spec.kind != "setting":
            raise AssertionError(f"the fake phone only answers setting probes, not {spec.kind}")
        raw = self.settings.get(spec.params["key"], "null") + "\n"
        return ProbeResult(spec=spec, argv=tuple(DEFAULT_PROBES.argv(spec)), raw=raw,
                           parsed=DEFAULT_PROBES.parse(spec, raw))

    def probe(self, kind: str, **params: str) -> ProbeResult:
        return self.probe_spec(ProbeSpec(kind=kind, params=params))

    def info(self) -> DeviceInfo:
        return DeviceInfo(serial=self.serial, width=W, height=H)


def make_journal(root: Path, spec: TaskSpec, run_id: str = "run-1") -> RunJournal:
    return RunJournal.create(root, RunHeader(run_id=run_id, goal=spec.goal, checks=spec.checks))


Respond = Callable[..., object]


def run(tmp_path: Path, spec: TaskSpec, phone: object, model: ScriptedModel, **config: object):
    """Run ``spec`` on ``phone`` with one scripted model for every role; returns (outcome, journal dir)."""
    journal = make_journal(tmp_path, spec)
    outcome = run_task(spec, phone, ModelSet.uniform(model), RunConfig(**config), journal)  # type: ignore[arg-type]
    return outcome, journal.dir


@pytest.fixture
def phone() -> FakePhone:
    return FakePhone()


def wifi_item(kind: str = "verify", when: str = "complete", *, probe: bool = True, text: str = "") -> CheckItem:
    from pytest_artemis import probes

    return CheckItem(kind=kind, when=when, text=text or "Wi-Fi is on",  # type: ignore[arg-type]
                     probe=probes.setting("global", "wifi_on", equals=True) if probe else None)
