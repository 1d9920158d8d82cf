"""Screen signatures: a hash of the uiautomator hierarchy with the volatile system bars left out.

A signature answers "is this the screen a recorded decision was made on?". It is computed from the
hierarchy XML alone (never from pixels) as the SHA-256 of a canonical listing of the dump:

* the ``rotation`` of ``<hierarchy>``;
* for every ``<node>``, in document order, its depth and these attributes, verbatim: ``class``,
  ``package``, ``resource-id``, ``text``, ``content-desc``, ``bounds``, ``checkable``, ``checked``,
  ``clickable``, ``long-clickable``, ``enabled``, ``focused``, ``scrollable``, ``selected``,
  ``password`` (``index``, ``focusable`` and the dump's ``NAF`` marks are left out: they follow from
  the rest or vary between Android builds);
* except that the status bar and the navigation bar are left out whole: any node of the package
  ``com.android.systemui`` whose resource id is one of :data:`BAR_IDS`, with everything inside it
  (the clock, battery, signal, Wi-Fi and notification icons live there);
* and that in every other ``com.android.systemui`` node (notification shade, quick settings), each run
  of digits in ``text`` and ``content-desc`` reads ``#`` — the shade's clock and date, "2 minutes ago",
  battery percentages and notification counts — while app content keeps its digits (an alarm's
  "7:30 AM" is the app's state, not noise).
"""

from __future__ import annotations

import hashlib
import re
import xml.etree.ElementTree as ET

from pytest_artemis.contracts import UIElement

from .hierarchy import HierarchyParseError

SIGNATURE_VERSION = "s1"
"""Prefix of every signature; bumped when the canonical form changes (old recordings then mismatch)."""
SYSTEMUI = "com.android.systemui"
BAR_IDS = frozenset({
    "status_bar", "status_bar_container", "status_bar_launch_animation_container",
    "navigation_bar_frame", "navigation_bar", "navigation_bar_view",
})
"""Resource-id names (the part after ``:id/``) of the system bars whose subtrees are left out."""
ATTRIBUTES = ("class", "package", "resource-id", "text", "content-desc", "bounds", "checkable",
              "checked", "clickable", "long-clickable", "enabled", "focused", "scrollable", "selected",
              "password")
_DIGITS = re.compile(r"\d+")


def _is_bar(node: ET.Element) -> bool:
    rid = node.get("resource-id", "")
    return node.get("package") == SYSTEMUI and rid.rpartition(":id/")[2] in BAR_IDS


def _value(node: ET.Element, name: str) -> str:
    value = node.get(name, "")
    if name in ("text", "content-desc") and node.get("package") == SYSTEMUI:
        return _DIGITS.sub("#", value)
    return value


def _listing(node: ET.Element, depth: int, out: list[str]) -> None:
    for child in node:
        if child.tag != "node" or _is_bar(child):
            continue
        out.append(f"{depth}\x1f" + "\x1f".join(_value(child, name) for name in ATTRIBUTES))
        _listing(child, depth + 1, out)


def canonical_listing(xml: str) -> list[str]:
    """The lines the signature hashes (useful to see why two screens differ)."""
    start = xml.find("<")
    if start < 0:
        raise HierarchyParseError("no XML in uiautomator output")
    try:
        root = ET.fromstring(xml[start:].strip())
    except ET.ParseError as exc:
        raise HierarchyParseError(f"malformed hierarchy XML: {exc}") from exc
    if root.tag != "hierarchy":
        raise HierarchyParseError(f"root element is <{root.tag}>, not <hierarchy>")
    out = [f"rotation={root.get('rotation', '')}"]
    _listing(root, 0, out)
    return out


def screen_signature(xml: str) -> str:
    """The signature of a ``uiautomator dump`` (``s1:`` + 32 hex digits); raises HierarchyParseError."""
    digest = hashlib.sha256("\n".join(canonical_listing(xml)).encode("utf-8")).hexdigest()
    return f"{SIGNATURE_VERSION}:{digest[:32]}"


def element_fingerprint(element: UIElement) -> str:
    """A short hash of what identifies an element on its screen (class, id, text, description, bounds,
    source) — a recorded action's target is found again by it, whatever its index is now."""
    b = element.bounds
    parts = (element.source, element.class_name, element.resource_id, element.text, element.content_desc,
             f"{b.left},{b.top},{b.right},{b.bottom}")
    return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()[:16]
