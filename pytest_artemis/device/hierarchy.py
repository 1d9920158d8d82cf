"""Parse ``uiautomator dump`` XML into indexed UI elements."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from pytest_artemis.contracts import Bounds, UIElement

_BOUNDS = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")
_FLAGS = {
    "clickable": "clickable",
    "long-clickable": "long_clickable",
    "checkable": "checkable",
    "checked": "checked",
    "enabled": "enabled",
    "focusable": "focusable",
    "focused": "focused",
    "scrollable": "scrollable",
    "selected": "selected",
    "password": "password",
}


class HierarchyParseError(ValueError):
    """The text is not a uiautomator hierarchy."""


def parse_bounds(text: str) -> Bounds:
    """``[x1,y1][x2,y2]`` → Bounds (raises HierarchyParseError on anything else)."""
    m = _BOUNDS.fullmatch(text.strip())
    if m is None:
        raise HierarchyParseError(f"bad bounds {text!r}")
    left, top, right, bottom = (int(g) for g in m.groups())
    return Bounds(left=left, top=top, right=right, bottom=bottom)


def _element(node: ET.Element, index: int) -> UIElement:
    attrs = node.attrib
    flags = {field: attrs.get(attr, "true" if attr == "enabled" else "false") == "true"
             for attr, field in _FLAGS.items()}
    return UIElement(
        index=index,
        text=attrs.get("text", ""),
        resource_id=attrs.get("resource-id", ""),
        class_name=attrs.get("class", ""),
        package=attrs.get("package", ""),
        content_desc=attrs.get("content-desc", ""),
        bounds=parse_bounds(attrs.get("bounds", "[0,0][0,0]")),
        **flags,
    )


def parse_hierarchy(xml: str) -> tuple[UIElement, ...]:
    """Every ``<node>`` in document (pre-)order, indexed from 0 in that order.

    The order is the drawing order, so indexes are stable for a given dump.
    """
    start = xml.find("<")
    if start < 0:
        raise HierarchyParseError("no XML in uiautomator output")
    try:
        root = ET.fromstring(xml[start:].strip())
    except ET.ParseError as exc:
        raise HierarchyParseError(f"malformed hierarchy XML: {exc}") from exc
    if root.tag != "hierarchy":
        raise HierarchyParseError(f"root element is <{root.tag}>, not <hierarchy>")
    return tuple(_element(node, i) for i, node in enumerate(root.iter("node")))
