"""Perception: one screen as the agent sees it (screenshot, indexed elements, prompt listing, model image)."""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from pytest_artemis.contracts import ScreenView, UIElement

from .base import Capture, Device, Hierarchy
from .listing import listing
from .model_image import model_jpeg, prerender_jpeg
from .ocr import OcrEngine, fuse_ocr
from .ocr_cache import read_screen


def meaningful(elements: Sequence[UIElement]) -> tuple[UIElement, ...]:
    """Elements worth showing a model (labelled, clickable or checkable, with a visible box),
    re-indexed 0..n-1 so an element's index is its position in the screen view."""
    keep = [e for e in elements
            if e.bounds.width > 0 and e.bounds.height > 0
            and (e.label.strip() or e.clickable or e.long_clickable or e.checkable or e.source == "ocr")]
    return tuple(e.model_copy(update={"index": i}) for i, e in enumerate(keep))


@dataclass(frozen=True)
class Screen:
    """One perceived screen: the view (elements, screenshot hash), the capture and the raw XML."""

    view: ScreenView
    capture: Capture = field(repr=False)
    hierarchy_xml: str = field(repr=False)

    def prompt_listing(self) -> str:
        """The screen as every role's prompt lists it (``listing``): ``[index] Class 'text' … [l,t][r,b]``."""
        return listing(self.view, "Current screen")

    def model_image(self, max_side: int = 1280) -> bytes:
        """The screenshot as JPEG, downscaled so its longest side is at most ``max_side``."""
        return model_jpeg(self.capture, max_side)


def foreground(hierarchy: Hierarchy) -> str:
    """The package of the dump's first window: the focused window on a phone (``uiautomator dump`` dumps
    the active window), so a system dialog over an app names the dialog's package. Empty when unnamed."""
    return next((e.package for e in hierarchy.elements if e.package), "")


_DUMPS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="artemis-dump")


def perceive(device: Device, *, ocr: OcrEngine | None = None, image_max_side: int | None = None) -> Screen:
    """Screenshot, hierarchy and foreground app of ``device`` (OCR words fused in when ``ocr`` is given).

    The screenshot and the hierarchy dump are taken at the same time, on two connections: the pair shows
    one moment more closely than two calls in a row, and a step waits for the slower of the two (on a
    phone, the dump), not for their sum. The foreground app is read from the dump (see ``foreground``);
    the device is asked separately only when the dump names no package.

    With ``image_max_side`` the model's JPEG is rendered as soon as the screenshot is in, while the dump
    may still be running and after ``perceive`` returned; ``Screen.model_image`` waits for it.
    """
    dump = _DUMPS.submit(device.hierarchy)
    try:
        capture = device.screenshot()
    except BaseException:
        dump.cancel()
        raise
    if image_max_side:
        prerender_jpeg(capture, image_max_side)
    hierarchy = dump.result()
    elements = meaningful(hierarchy.elements)
    if ocr is not None:
        elements = fuse_ocr(elements, read_screen(ocr, capture.sha256, lambda: capture.png))
    view = ScreenView(screenshot=capture.sha256, width=capture.width, height=capture.height,
                      foreground=foreground(hierarchy) or device.current_app(), elements=elements)
    return Screen(view=view, capture=capture, hierarchy_xml=hierarchy.xml)
