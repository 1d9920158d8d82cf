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


_FORBIDDEN = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]|&#(?:x0*[0-8bcef]|x0*1[0-9a-f]|0*(?:[0-8]|1[1249]|"
                        r"1[5-9]|2[0-9]|3[01]));", re.IGNORECASE)


def _without_forbidden_chars(xml: str) -> str:
    return _FORBIDDEN.sub("\ufffd", xml)


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
    return UIElement.model_validate({
        "index": index,
        "text": attrs.get("text", ""),
        "resource_id": attrs.get("resource-id", ""),
        "class_name": attrs.get("class", ""),
        "package": attrs.get("package", ""),
        "content_desc": attrs.get("content-desc", ""),
        "bounds": parse_bounds(attrs.get("bounds", "[0,0][0,0]")),
        **flags,
    })


def parse_hierarchy(xml: str) -> tuple[UIElement, ...]:
    """Every ``<node>`` in document (pre-)order, indexed from 0 in that order.

    The order is the drawing order, so indexes are stable for a given dump. Text around the document
    (``uiautomator dump /dev/tty`` appends ``UI hierchary dumped to: …``) is ignored, and control
    characters some apps put in their texts (raw or as ``&#N;``, which XML forbids) read as U+FFFD.
    """
    start = xml.find("<")
    if start < 0:
        raise HierarchyParseError("no XML in uiautomator output")
    end = xml.rfind("</hierarchy>")
    document = xml[start:end + len("</hierarchy>")] if end > start else xml[start:].strip()
    try:
        root = ET.fromstring(document)
    except ET.ParseError:
        try:
            root = ET.fromstring(_without_forbidden_chars(document))
        except ET.ParseError as exc:
            raise HierarchyParseError(f"malformed hierarchy XML: {exc}") from exc
    if root.tag != "hierarchy":
        raise HierarchyParseError(f"root element is <{root.tag}>, not <hierarchy>")
    return tuple(_element(node, i) for i, node in enumerate(root.iter("node")))
