"""Executing operator actions on the device, elements resolved against the screen the operator saw."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from pytest_artemis.contracts import (
    Action,
    ActionResult,
    Point,
    ResolvedElement,
    ScreenView,
    TypeSecret,
    TypeText,
    UIElement,
)
from pytest_artemis.device import Device, DeviceCommandFailed, DeviceError

if TYPE_CHECKING:
    from .secrets import SecretBook


class ActionRefused(Exception):
    """An action the harness will not run (an element index not on the screen, a point off screen)."""


def _element(view: ScreenView, index: int) -> UIElement:
    found = next((e for e in view.elements if e.index == index), None)
    if found is None:
        raise ActionRefused(f"no element [{index}] on the screen this turn")
    return found


def _point(
    view: ScreenView, element: int | None, x: int | None, y: int | None
) -> tuple[Point, ResolvedElement | None, str]:
    if element is not None:
        target = _element(view, element)
        cx, cy = target.center
        resolved = ResolvedElement(index=element, label=target.label, bounds=target.bounds)
        return Point(x=cx, y=cy), resolved, f"{cx},{cy} on [{element}] {target.label!r}"
    assert x is not None and y is not None
    if not (0 <= x < view.width and 0 <= y < view.height):
        raise ActionRefused(f"point {x},{y} is off the {view.width}x{view.height} screen")
    return Point(x=x, y=y), None, f"{x},{y}"


def _scroll_vector(view: ScreenView, direction: str) -> tuple[int, int, int, int]:
    """A swipe that reveals content in ``direction`` (``down`` = content further down)."""
    cx, cy, w, h = view.width // 2, view.height // 2, view.width, view.height
    return {
        "down": (cx, int(h * 0.7), cx, int(h * 0.3)),
        "up": (cx, int(h * 0.3), cx, int(h * 0.7)),
        "right": (int(w * 0.8), cy, int(w * 0.2), cy),
        "left": (int(w * 0.2), cy, int(w * 0.8), cy),
    }[direction]


def _done(
    action: Action,
    detail: str,
    *,
    at: Point | None = None,
    to: Point | None = None,
    element: ResolvedElement | None = None,
    typed: str | None = None,
    cleared: int | None = None,
) -> ActionResult:
    return ActionResult(action=action, ok=True, detail=detail, at=at, to=to, element=element, typed=typed,
                        cleared=cleared)


def perform(
    device: Device, view: ScreenView, action: Action, secrets: SecretBook | None = None
) -> ActionResult:
    """Run one action (blocking); returns what was done, as data. Raises ActionRefused or DeviceError."""
    if action.kind in ("tap", "long_press"):
        at, element, where = _point(view, action.element, action.x, action.y)
        if action.kind == "tap":
            device.tap(at.x, at.y)
        else:
            device.long_press(at.x, at.y, action.duration_ms)
        return _done(action, f"{action.kind} {where}", at=at, element=element)
    if action.kind == "type":
        return _type(device, view, action)
    if action.kind == "type_secret":
        return _type_secret(device, view, action, secrets)
    if action.kind in ("swipe", "scroll"):
        if action.kind == "swipe":
            x1, y1, x2, y2 = action.x1, action.y1, action.x2, action.y2
            device.swipe(x1, y1, x2, y2, action.duration_ms)
            detail = f"swipe {x1},{y1} -> {x2},{y2}"
        else:
            x1, y1, x2, y2 = _scroll_vector(view, action.direction)
            device.swipe(x1, y1, x2, y2)
            detail = f"scroll {action.direction}"
        return _done(action, detail, at=Point(x=x1, y=y1), to=Point(x=x2, y=y2))
    if action.kind == "key":
        device.key(action.key)
        return _done(action, f"key {action.key}")
    if action.kind == "launch":
        device.launch(action.package, action.activity)
        return _done(action, f"launch {action.package}")
    if action.kind == "wait":
        time.sleep(action.ms / 1000)
        return _done(action, f"waited {action.ms} ms")
    if action.kind == "give_up":
        return _done(action, f"gave up: {action.reason}")
    return _done(action, "finish claimed (a claim, not evidence)")


def _field(view: ScreenView, action: TypeText | TypeSecret) -> UIElement:
    """The field a clearing ``type`` empties: its target, else the focused element of this screen."""
    if action.element is not None:
        return _element(view, action.element)
    focused = next((e for e in view.elements if e.focused), None)
    if focused is None:
        what = "type with clear" if action.kind == "type" else "type_secret"
        raise ActionRefused(f"{what} needs its field: give its element (no field is focused)")
    return focused


def _type(device: Device, view: ScreenView, action: TypeText) -> ActionResult:
    """Focus (tap the element, if given), empty the field when asked, then type at the cursor."""
    field = _field(view, action) if action.clear else None
    focus, element, where = None, None, ""
    if action.element is not None:
        focus, element, where = _point(view, action.element, None, None)
        device.tap(focus.x, focus.y)
    cleared = None
    if field is not None:
        # The text the listing shows (an empty field shows its hint): an extra DEL on an empty field is
        # harmless, a missing one would leave a character behind.
        cleared = len(field.text)
        device.clear_text(cleared)
    device.type_text(action.text)
    detail = f"typed {len(action.text)} chars{' into ' + where if where else ''}"
    if cleared is not None:
        detail = f"cleared {cleared} chars, {detail}"
    return _done(action, detail, at=focus, element=element, typed=action.text, cleared=cleared)


def _type_secret(device: Device, view: ScreenView, action: TypeSecret, secrets: SecretBook | None
                 ) -> ActionResult:
    """Focus and clear as ``type`` does, then type the secret's value; the result names the secret and its
    length, never the value (``typed`` stays None)."""
    value = secrets.value(action.name) if secrets is not None else None
    if secrets is None or value is None:
        known = ", ".join(secrets.names) if secrets is not None and secrets.names else "none"
        raise ActionRefused(f"no secret named {action.name!r} (the test gives: {known})")
    field = _field(view, action)  # the field to mask from now on: its target, else the focused one
    focus, element, where = None, None, ""
    if action.element is not None:
        focus, element, where = _point(view, action.element, None, None)
        device.tap(focus.x, focus.y)
    cleared = None
    if action.clear:
        cleared = len(field.text)
        device.clear_text(cleared)
    device.type_text(value)
    secrets.typed_into(field)
    detail = f"typed the secret {action.name!r} ({len(value)} chars){' into ' + where if where else ''}"
    return _done(action, detail, at=focus, element=element, cleared=cleared)


def _refused(action: Action, exc: Exception) -> ActionResult:
    return ActionResult(action=action, ok=False, refused=True, detail=f"device refused: {exc}")


class Executed(NamedTuple):
    """What running one turn's actions came to."""

    results: list[ActionResult]
    finish: bool
    """The operator claimed ``finish``."""
    gave_up: str
    """The reason of the operator's ``give_up`` (empty: it did not give up)."""
    refused: bool
    error: DeviceError | None
    """The device error that stopped execution."""


async def execute(device: Device, view: ScreenView, actions: Sequence[Action],
                  secrets: SecretBook | None = None) -> Executed:
    """Run actions in order: stop at a refused one (later ones are refused too), at ``finish`` or at
    ``give_up``."""
    results: list[ActionResult] = []
    finish, gave_up, refused = False, "", False
    for action in actions:
        if finish or gave_up or refused:
            why = "after finish" if finish else "after giving up" if gave_up else "after a refused action"
            results.append(ActionResult(action=action, ok=False, refused=True, detail=f"not run: {why}"))
            continue
        if action.kind == "finish" or action.kind == "give_up":
            if action.kind == "give_up":
                gave_up = action.reason
            finish = action.kind == "finish"
            results.append(perform(device, view, action))
            continue
        try:
            result = await asyncio.to_thread(perform, device, view, action, secrets)
        except ActionRefused as exc:
            refused = True
            results.append(ActionResult(action=action, ok=False, refused=True, detail=str(exc)))
            continue
        except ValueError as exc:  # the device layer's own validation (bad package name, untypeable text)
            refused = True
            results.append(_refused(action, exc))
            continue
        except DeviceCommandFailed as exc:
            if exc.command != "launch":
                results.append(ActionResult(action=action, ok=False, detail=f"{type(exc).__name__}: {exc}"))
                return Executed(results, finish, gave_up, refused, exc)
            refused = True  # no such app on the device: the model's mistake, not a broken device
            results.append(_refused(action, exc))
            continue
        except DeviceError as exc:
            results.append(ActionResult(action=action, ok=False, detail=f"{type(exc).__name__}: {exc}"))
            return Executed(results, finish, gave_up, refused, exc)
        results.append(result)
    return Executed(results, finish, gave_up, refused, None)
