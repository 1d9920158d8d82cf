"""Read-only evidence for the checker: recorded steps and screens, probes, (final entry) the live screen."""

from __future__ import annotations

import asyncio
from typing import Literal

from pytest_artemis.contracts import ProbeSpec, StepRecord
from pytest_artemis.device import ProbeRefused
from pytest_artemis.device.perception import model_jpeg
from pytest_artemis.models import ImagePart
from pytest_artemis.store.journal import SCREENS_DIR

from .context import describe_results, step_summary
from .state import RunState


class RunEvidence:
    """Serves the checker's tools from the run's records; nothing here can act on the device."""

    def __init__(self, state: RunState) -> None:
        self._state = state

    def _step(self, number: int) -> StepRecord | None:
        steps = self._state.steps
        return steps[number - 1] if 1 <= number <= len(steps) else None

    def step_detail(self, step: int) -> str:
        record = self._step(step)
        if record is None:
            return "no such step"
        actions = ", ".join(a.model_dump_json() for a in record.actions) or "none"
        results = describe_results(record.results)
        return (f"decision: {record.decision!r}; actions: {actions}; results: {results}; "
                f"foreground: {record.foreground}; flags: {', '.join(record.flags) or 'none'}")

    def step_screenshot(self, step: int, which: Literal["pre", "post"]) -> ImagePart | None:
        record = self._step(step)
        sha = None if record is None else (record.pre_screen if which == "pre" else record.post_screen)
        if sha is None:
            return None
        path = self._state.journal.dir / SCREENS_DIR / f"{sha}.png"
        if not path.exists():
            return None
        return ImagePart(model_jpeg(path.read_bytes(), sha, self._state.config.image_max_side))

    def plan(self) -> str:
        return self._state.plan_text

    async def probe(self, spec: ProbeSpec) -> str:
        try:
            result = await asyncio.to_thread(self._state.device.probe_spec, spec)
        except ProbeRefused as exc:
            return f"refused: {exc}"
        return f"exit {result.exit_code}; argv {' '.join(result.argv)}\n{result.raw[:4000]}"

    async def live_screen(self) -> tuple[str, ImagePart | None]:
        from pytest_artemis.device.perception import perceive

        screen = await asyncio.to_thread(perceive, self._state.device, ocr=self._state.ocr,
                                   image_max_side=self._state.config.image_max_side)
        image = await asyncio.to_thread(screen.model_image, self._state.config.image_max_side)
        return screen.prompt_listing(), ImagePart(image)

    def anchored(self, anchor: int) -> tuple[tuple[str, ...], tuple[ImagePart, ...], str]:
        """History around an anchor step: summaries up to it, and the pre/post screenshots of the
        step before and of the anchor step itself (oldest first), with a caption naming them."""
        first = max(1, anchor - 3)
        history = tuple(step_summary(s) for s in self._state.steps[first - 1:anchor])
        images: list[ImagePart] = []
        captions: list[str] = []
        for number in (anchor - 1, anchor):
            for which in ("pre", "post"):
                image = self.step_screenshot(number, which)  # type: ignore[arg-type]
                if image is not None:
                    images.append(image)
                    captions.append(f"step {number} {which}")
        caption = f"Anchor step: {anchor}. Attached screenshots, in order: {', '.join(captions) or 'none'}."
        return history, tuple(images), caption
