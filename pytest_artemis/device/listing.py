"""One screen listing for every role: each element by the index a tap or a citation uses, its class, text,
description, id, the attributes a citation may name (``checked=true``), the row it sits on when it has no
label of its own worth reading (a switch), and its bounds in device pixels."""

from __future__ import annotations

from pytest_artemis.contracts import ScreenView, UIElement

_STATE_TEXTS = frozenset({"on", "off", ""})


def _row(view: ScreenView, element: UIElement) -> str:
    top, bottom = element.bounds.top, element.bounds.bottom
    return " / ".join(e.label for e in view.elements
                      if e.index != element.index and e.label and top <= e.center[1] < bottom)


def element_line(view: ScreenView, e: UIElement) -> str:
    """``[4] Switch 'ON' id=switch_widget checked=true row='Wi‑Fi' [900,300][1000,400]``."""
    parts = [f"[{e.index}]", "ocr-text" if e.source == "ocr" else (e.class_name.rpartition(".")[2] or "View")]
    parts += [repr(e.text)] if e.text else []
    parts += [f"desc={e.content_desc!r}"] if e.content_desc and e.content_desc != e.text else []
    parts += [f"id={e.resource_id.rpartition(':id/')[2]}"] if e.resource_id else []
    parts += [f"checked={'true' if e.checked else 'false'}"] if e.checkable else []
    parts += ["selected=true"] if e.selected else []
    parts += ["focused=true"] if e.focused else []
    parts += ["clickable"] if e.clickable else []
    parts += ["enabled=false"] if not e.enabled else []
    if (e.checkable or e.clickable) and e.label.strip().casefold() in _STATE_TEXTS and (row := _row(view, e)):
        parts.append(f"row={row!r}")
    b = e.bounds
    parts.append(f"[{b.left},{b.top}][{b.right},{b.bottom}]")
    return " ".join(parts)


def listing(view: ScreenView, title: str) -> str:
    """A screen's header (its name, device size, foreground app) and its elements, one per line."""
    head = f"{title} ({view.width}x{view.height} device pixels, foreground {view.foreground or '?'}):"
    lines = [f"  {element_line(view, e)}" for e in view.elements] or ["  (no text recorded for this screen)"]
    return "\n".join([head, *lines])
