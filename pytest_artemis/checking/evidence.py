"""Read-only evidence for the checker: recorded steps and screens up to its window, probes, (final entry)
the live screen. Everything it serves is what a citation may then be checked against."""

from __future__ import annotations

import asyncio
from typing import Literal

from pytest_artemis.agents.checker import screen_listing
from pytest_artemis.contracts import EvidenceScreen, ProbeSpec, ScreenWhich, StepRecord
from pytest_artemis.contracts.probe_outputs import Unreadable
from pytest_artemis.device import ProbeRefused
from pytest_artemis.device.model_image import stored_jpeg
from pytest_artemis.device.perception import perceive
from pytest_artemis.engine.context import describe_results, step_summary
from pytest_artemis.engine.state import RunProgress, RunServices
from pytest_artemis.models import ImagePart

from .grounding import Window
from .history import ProbeOutput


async def final_screen(svc: RunServices) -> tuple[EvidenceScreen, ImagePart]:
    """The device screen now, recorded as a final screen a verdict may cite, and its image for the model."""
    screen = await asyncio.to_thread(perceive, svc.device, ocr=svc.ocr,
                                     image_max_side=svc.config.image_max_side)
    svc.journal.put_screen(screen.capture)
    svc.screens.record_final(screen.view, ocr_done=True)
    image = await asyncio.to_thread(screen.model_image, svc.config.image_max_side)
    return EvidenceScreen(step=None, screen="final", view=screen.view), ImagePart(image)


class RunEvidence:
    """Serves the checker's tools from the run's records, never past its window; nothing here can act on
    the device. One per judgement: it remembers the probes it ran, which that judgement may cite."""

    def __init__(self, svc: RunServices, run: RunProgress, window: Window) -> None:
        self._svc = svc
        self._run = run
        self.window = window
        self.probes: list[ProbeOutput] = []

    def _step(self, number: int) -> StepRecord | None:
        steps = self._run.steps
        return steps[number - 1] if 1 <= number <= min(len(steps), self.window.last_step) else None

    def _refused(self, number: int) -> str:
        if self.window.anchor is not None and number > self.window.anchor:
            return (f"not available: step {number} is after the anchor step {self.window.anchor} "
                    "(this checkpoint judges from the anchor step and earlier)")
        return "no such step"

    async def step_detail(self, step: int) -> str:
        record = self._step(step)
        if record is None:
            return self._refused(step)
        actions = ", ".join(a.model_dump_json() for a in record.actions) or "none"
        screens = [s for s in (await self.screens(step, ("pre", "post"))) if s is not None]
        listings = "\n".join(screen_listing(s) for s in screens)
        return (f"decision: {record.decision!r}; actions: {actions}; results: "
                f"{describe_results(record.results)}; foreground: {record.foreground}; flags: "
                f"{', '.join(record.flags) or 'none'}\n{listings}")

    async def step_screenshot(self, step: int, which: Literal["pre", "post"]) -> ImagePart | None:
        record = self._step(step)
        sha = None if record is None else (record.pre_screen if which == "pre" else record.post_screen)
        if sha is None:
            return None
        png = await asyncio.to_thread(self._svc.journal.screen_png, sha)
        if png is None:
            return None
        return ImagePart(await asyncio.to_thread(stored_jpeg, png, sha, self._svc.config.image_max_side))

    def plan(self) -> str:
        return self._run.plan_text

    async def probe(self, spec: ProbeSpec) -> str:
        acted = self._run.acting  # before the read: a step starting meanwhile makes it late
        try:
            result = await asyncio.to_thread(self._svc.device.probe_spec, spec)
        except ProbeRefused as exc:
            return f"refused: {exc}"
        unreadable = result.parsed.reason if isinstance(result.parsed, Unreadable) else ""
        self.probes.append(ProbeOutput(spec.kind, result.raw, unreadable, acted=acted,
                                       params=dict(spec.params)))
        note = f"; unreadable ({unreadable}): not evidence" if unreadable else ""
        return f"exit {result.exit_code}; argv {' '.join(result.argv)}{note}\n{result.raw[:4000]}"

    async def live_screen(self) -> tuple[str, ImagePart | None]:
        """The device screen now (final entry only); it is recorded as a final screen a verdict may cite."""
        final, image = await final_screen(self._svc)
        return screen_listing(final), image

    async def screens(self, step: int, which: tuple[ScreenWhich, ...]) -> list[EvidenceScreen | None]:
        """The recorded screens of one step inside the window (OCR, when on, runs off the event loop)."""
        if self._step(step) is None:
            return []
        return [await asyncio.to_thread(self._svc.screens.evidence, step, w) for w in which]

    async def anchored(self, anchor: int) -> tuple[tuple[str, ...], tuple[ImagePart, ...], str,
                                                   tuple[EvidenceScreen, ...]]:
        """History up to an anchor step: summaries, the pre/post screenshots of the step before and of the
        anchor step (oldest first) with a caption naming them, and those screens as citable evidence."""
        first = max(1, anchor - 3)
        history = tuple(step_summary(s) for s in self._run.steps[first - 1:anchor])
        images: list[ImagePart] = []
        captions: list[str] = []
        cited: list[EvidenceScreen] = []
        for number in (anchor - 1, anchor):
            for which in ("pre", "post"):
                image = await self.step_screenshot(number, which)  # type: ignore[arg-type]
                if image is not None:
                    images.append(image)
                    captions.append(f"step {number} {which}")
            cited += [s for s in await self.screens(number, ("pre", "post")) if s is not None]
        caption = f"Anchor step: {anchor}. Attached screenshots, in order: {', '.join(captions) or 'none'}."
        return history, tuple(images), caption, tuple(cited)
