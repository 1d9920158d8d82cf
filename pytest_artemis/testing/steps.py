"""Operator steps described by what a user sees (tap this text, type that, press back), resolved per turn."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pytest_artemis.contracts import (
    Action,
    Finish,
    GiveUp,
    Key,
    Launch,
    LongPress,
    ScreenView,
    Tap,
    TypeSecret,
    TypeText,
    UIElement,
    Wait,
)

KeyName = Literal["BACK", "HOME", "ENTER", "DEL", "APP_SWITCH", "TAB", "SPACE"]


def normalize(text: str) -> str:
    """Case-folded, whitespace collapsed, Android's non-breaking hyphens as ``-`` (``Wi‑Fi`` = ``Wi-Fi``)."""
    return " ".join(text.replace("\u2011", "-").replace("\u2010", "-").split()).casefold()


@dataclass(frozen=True)
class Target:
    """Which element a step aims at: by its visible label, its resource id, or its content description."""

    label: str | None = None
    resource_id: str | None = None
    content_desc: str | None = None

    def __str__(self) -> str:
        parts = [repr(self.label)] if self.label is not None else []
        parts += [f"resource_id={self.resource_id!r}"] if self.resource_id is not None else []
        parts += [f"content_desc={self.content_desc!r}"] if self.content_desc is not None else []
        return ", ".join(parts)

    def find(self, screen: ScreenView) -> UIElement | None:
        """The element this target names on ``screen``.

        A label matches an element's text or content description: an exact match (case-insensitive)
        first, else the first element whose label contains it. A resource id matches exactly or by its
        ``:id/NAME`` suffix, a content description as a case-insensitive substring.
        """
        candidates = [e for e in screen.elements if self._matches_ids(e)]
        if self.label is None:
            return candidates[0] if candidates else None
        wanted = normalize(self.label)
        exact = [e for e in candidates if wanted in (normalize(e.text), normalize(e.content_desc))]
        if exact:
            return exact[0]
        return next((e for e in candidates
                     if wanted in normalize(e.text) or wanted in normalize(e.content_desc)), None)

    def _matches_ids(self, element: UIElement) -> bool:
        if self.resource_id is not None and self.resource_id not in (
            element.resource_id, element.resource_id.rpartition(":id/")[2]
        ):
            return False
        return self.content_desc is None or normalize(self.content_desc) in normalize(element.content_desc)


@dataclass(frozen=True)
class Step:
    """One scripted operator turn. ``resolve`` turns it into actions on the screen of that turn.

    ``done`` names the plan subgoal this turn completes (any part of its text, case-insensitive): the
    operator marks it ``[x]`` in the plan, which is what starts its checks.
    """

    kind: Literal["tap", "long_press", "type", "type_secret", "press", "launch", "wait", "finish", "give_up"]
    target: Target | None = None
    text: str = ""
    done: str | None = None
    clear: bool = False
    """For ``type``: empty the field before typing."""

    def __str__(self) -> str:
        if self.kind in ("tap", "long_press"):
            return f"{self.kind}({self.target})"
        if self.kind in ("type", "type_secret"):
            into = f", into={self.target}" if self.target else ""
            name = "type_text" if self.kind == "type" else "type_secret"
            return f"{name}({self.text!r}{into}{', clear=True' if self.clear else ''})"
        return f"{self.kind}({self.text!r})" if self.text else f"{self.kind}()"

    def resolve(self, screen: ScreenView) -> list[Action] | str:
        """The actions of this step on ``screen``, or why it cannot be done there."""
        element = None
        if self.target is not None:
            element = self.target.find(screen)
            if element is None:
                return f"{self}: no element {self.target} on this screen ({describe(screen)})"
        if self.kind == "tap":
            return [Tap(element=element.index)] if element else []
        if self.kind == "long_press":
            return [LongPress(element=element.index)] if element else []
        if self.kind == "type":
            return [TypeText(text=self.text, element=element.index if element else None, clear=self.clear)]
        if self.kind == "type_secret":
            return [TypeSecret(name=self.text, element=element.index if element else None, clear=self.clear)]
        if self.kind == "press":
            return [Key(key=self.text)]  # type: ignore[arg-type]
        if self.kind == "launch":
            return [Launch(package=self.text)]
        if self.kind == "wait":
            return [Wait(ms=int(self.text))]
        if self.kind == "give_up":
            return [GiveUp(reason=self.text)]
        return [Finish(summary=self.text)]


def describe(screen: ScreenView, limit: int = 12) -> str:
    """What a screen shows, briefly: its foreground package and the first labels on it."""
    labels = [e.label for e in screen.elements if e.label]
    shown = ", ".join(repr(label) for label in labels[:limit]) + (", …" if len(labels) > limit else "")
    return f"{screen.foreground or 'unknown app'} shows {shown or 'no labelled element'}"


def tap(label: str | None = None, *, resource_id: str | None = None, content_desc: str | None = None,
        done: str | None = None) -> Step:
    """Tap the element with this label (its text or content description), resource id or description."""
    if label is None and resource_id is None and content_desc is None:
        raise TypeError("tap() needs a label, resource_id= or content_desc=")
    return Step("tap", Target(label, resource_id, content_desc), done=done)


def long_press(label: str | None = None, *, resource_id: str | None = None, content_desc: str | None = None,
               done: str | None = None) -> Step:
    """Long-press the element with this label, resource id or content description."""
    if label is None and resource_id is None and content_desc is None:
        raise TypeError("long_press() needs a label, resource_id= or content_desc=")
    return Step("long_press", Target(label, resource_id, content_desc), done=done)


def type_text(text: str, *, into: str | None = None, resource_id: str | None = None, clear: bool = False,
              done: str | None = None) -> Step:
    """Type ``text``: into the field with this label or resource id (tapped first), else the focused one.
    Typing appends to what the field holds (Android's ``input text``); ``clear=True`` empties it first."""
    if not text:
        raise TypeError("type_text() needs a non-empty text")
    target = Target(into, resource_id) if into is not None or resource_id is not None else None
    return Step("type", target, text=text, done=done, clear=clear)


def type_secret(name: str, *, into: str | None = None, resource_id: str | None = None, clear: bool = False,
                done: str | None = None) -> Step:
    """Have the harness type the test's secret ``name`` (``artemis_secrets``) into the field with this label
    or resource id (tapped first), else the focused one; the script, like a model, never holds its value."""
    TypeSecret(name=name)  # validates the name now, not at the first turn
    target = Target(into, resource_id) if into is not None or resource_id is not None else None
    return Step("type_secret", target, text=name, done=done, clear=clear)


def press(key: KeyName, *, done: str | None = None) -> Step:
    """Press a key: ``BACK``, ``HOME``, ``ENTER``, ``DEL``, ``APP_SWITCH``, ``TAB`` or ``SPACE``."""
    Key(key=key)  # validates the name now, not at the first turn
    return Step("press", text=key, done=done)


def back(*, done: str | None = None) -> Step:
    """Press BACK."""
    return press("BACK", done=done)


def home(*, done: str | None = None) -> Step:
    """Press HOME."""
    return press("HOME", done=done)


def launch(package: str, *, done: str | None = None) -> Step:
    """Launch an app by package name (``com.android.settings``)."""
    return Step("launch", text=Launch(package=package).package, done=done)


def wait(ms: int = 1000, *, done: str | None = None) -> Step:
    """Wait ``ms`` milliseconds."""
    return Step("wait", text=str(Wait(ms=ms).ms), done=done)


def finish(summary: str = "") -> Step:
    """Claim the goal is reached (every subgoal still open is marked done): a claim the checks judge."""
    return Step("finish", text=summary)


def give_up(reason: str) -> Step:
    """Report that the goal cannot be reached on this device: the run ends BLOCKED with ``reason``."""
    return Step("give_up", text=GiveUp(reason=reason).reason)
