"""Operator actions: a discriminated union, recorded in every step and drawn in the report."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from ._base import Contract
from .screen import Bounds


class _PointAction(Contract):
    """An action aimed at an element (by its index in the current screen) or at coordinates."""

    element: int | None = Field(default=None, ge=0)
    x: int | None = Field(default=None, ge=0)
    y: int | None = Field(default=None, ge=0)

    @model_validator(mode="after")
    def _one_target(self) -> _PointAction:
        has_xy = self.x is not None and self.y is not None
        if (self.element is None) == (not has_xy) or (self.x is None) != (self.y is None):
            raise ValueError("give either element or both x and y")
        return self


class Tap(_PointAction):
    """Tap an element (its index on the current screen) or a point."""

    kind: Literal["tap"] = "tap"


class LongPress(_PointAction):
    """Press and hold an element or a point."""

    kind: Literal["long_press"] = "long_press"
    duration_ms: int = Field(default=800, ge=100, le=10_000)


class Swipe(Contract):
    """Swipe from one point to another."""

    kind: Literal["swipe"] = "swipe"
    x1: int = Field(ge=0)
    y1: int = Field(ge=0)
    x2: int = Field(ge=0)
    y2: int = Field(ge=0)
    duration_ms: int = Field(default=300, ge=50, le=10_000)


class Scroll(Contract):
    """Scroll the screen content in a direction."""

    kind: Literal["scroll"] = "scroll"
    direction: Literal["up", "down", "left", "right"]


class TypeText(Contract):
    """Type text at the cursor of the focused field (or of an element tapped first): like Android's
    ``input text`` it appends to what the field holds, unless ``clear`` empties the field first."""

    kind: Literal["type"] = "type"
    text: str = Field(min_length=1)
    element: int | None = Field(default=None, ge=0)
    """Tap this element first to focus it (optional)."""
    clear: bool = False
    """Empty the field first: the cursor to the end, then one DEL per character the field shows."""


class TypeSecret(Contract):
    """Type one of the test's secrets, by its name: the harness types the value, which no model ever sees
    (a field holding it reads ``[secret:NAME]``). Like ``type``, it appends unless ``clear``."""

    kind: Literal["type_secret"] = "type_secret"
    name: str = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z][A-Za-z0-9_]*$")
    element: int | None = Field(default=None, ge=0)
    """Tap this element first to focus it (optional)."""
    clear: bool = False
    """Empty the field first, as ``type`` does."""


class Key(Contract):
    """Press a key."""

    kind: Literal["key"] = "key"
    key: Literal["BACK", "HOME", "ENTER", "DEL", "APP_SWITCH", "TAB", "SPACE"]


class Launch(Contract):
    """Launch an app by package (and optionally activity)."""

    kind: Literal["launch"] = "launch"
    package: str = Field(min_length=1)
    activity: str | None = None


class Wait(Contract):
    """Wait, doing nothing, for a number of milliseconds."""

    kind: Literal["wait"] = "wait"
    ms: int = Field(default=1000, ge=0, le=30_000)


class Finish(Contract):
    """The operator's claim that the goal is reached: it triggers convergence, never success."""

    kind: Literal["finish"] = "finish"
    summary: str = ""


class GiveUp(Contract):
    """The operator's report that the goal cannot be reached on this device: the run ends BLOCKED with
    ``reason``, without repair rounds."""

    kind: Literal["give_up"] = "give_up"
    reason: str = Field(min_length=1)


PlainAction = Annotated[
    Tap | LongPress | Swipe | Scroll | TypeText | Key | Launch | Wait | Finish | GiveUp,
    Field(discriminator="kind"),
]
"""The operator's actions when the test gives no secrets (what its reply schema offers then)."""
Action = Annotated[
    Tap | LongPress | Swipe | Scroll | TypeText | TypeSecret | Key | Launch | Wait | Finish | GiveUp,
    Field(discriminator="kind"),
]


class Point(Contract):
    """A screen position in device pixels."""

    x: int = Field(ge=0)
    y: int = Field(ge=0)


class ResolvedElement(Contract):
    """The on-screen element an action was aimed at, as the harness resolved it on the screen the
    operator saw (its index, the text a person reads on it, and where it was)."""

    index: int = Field(ge=0)
    label: str = ""
    bounds: Bounds


class ActionResult(Contract):
    """What happened when the harness executed (or refused) one action.

    ``at``/``to``/``element``/``typed`` record what the harness really did, as data, so readers (the
    report, a replay) never parse ``detail``, which is prose for people.
    """

    action: Action
    ok: bool
    detail: str = ""
    """Resolved target (e.g. ``tap 540,1210 on 'Save'``) or the error / refusal reason."""
    refused: bool = False
    at: Point | None = None
    """Where a tap or long press landed, where typing tapped to focus, or where a swipe or scroll began."""
    to: Point | None = None
    """Where a swipe or scroll ended."""
    element: ResolvedElement | None = None
    """The element a tap, long press or typing was aimed at (None for coordinates or no target)."""
    typed: str | None = None
    """The text sent to the focused field."""
    cleared: int | None = None
    """How many characters the harness deleted from the field before typing (``type`` with ``clear``)."""
