"""UI elements as perceived on a device screen (shared by the device layer and model requests)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ._base import Contract


class Bounds(Contract):
    """A screen rectangle in device pixels, ``[left,top][right,bottom]`` as uiautomator prints it."""

    left: int
    top: int
    right: int
    bottom: int

    @property
    def center(self) -> tuple[int, int]:
        return ((self.left + self.right) // 2, (self.top + self.bottom) // 2)

    @property
    def width(self) -> int:
        return self.right - self.left

    @property
    def height(self) -> int:
        return self.bottom - self.top

    def contains(self, x: int, y: int) -> bool:
        return self.left <= x < self.right and self.top <= y < self.bottom


class UIElement(Contract):
    """One on-screen element, from the uiautomator hierarchy or fused in from OCR."""

    index: int = Field(ge=0)
    text: str = ""
    resource_id: str = ""
    class_name: str = ""
    package: str = ""
    content_desc: str = ""
    bounds: Bounds
    clickable: bool = False
    long_clickable: bool = False
    checkable: bool = False
    checked: bool = False
    enabled: bool = True
    focusable: bool = False
    focused: bool = False
    scrollable: bool = False
    selected: bool = False
    password: bool = False
    source: Literal["hierarchy", "ocr"] = "hierarchy"

    @property
    def center(self) -> tuple[int, int]:
        return self.bounds.center

    @property
    def label(self) -> str:
        """The text a person would read for this element (text, else content description)."""
        return self.text or self.content_desc


class ScreenView(Contract):
    """What the agent sees of one screen: a screenshot reference and the indexed elements."""

    screenshot: str | None = None
    """The screenshot's name: the sha256 of the frame the device sent (a raw frame, or a PNG); its lossless
    PNG is stored as ``screens/<name>.png``."""
    width: int = Field(gt=0)
    height: int = Field(gt=0)
    foreground: str = ""
    elements: tuple[UIElement, ...] = ()

    def find(
        self, text: str | None = None, *, resource_id: str | None = None, content_desc: str | None = None
    ) -> UIElement | None:
        """The first element matching every given field (text and description match case-insensitively
        as substrings; resource ids match exactly or by their ``:id/NAME`` suffix)."""
        for element in self.elements:
            if text is not None and text.casefold() not in element.text.casefold():
                continue
            if content_desc is not None and content_desc.casefold() not in element.content_desc.casefold():
                continue
            if resource_id is not None and resource_id not in (
                element.resource_id,
                element.resource_id.rpartition(":id/")[2],
            ):
                continue
            return element
        return None
