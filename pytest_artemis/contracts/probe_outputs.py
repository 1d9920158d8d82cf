"""Typed probe outputs: one closed model per probe kind, or an explicit unreadable state."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from ._base import Contract

#: An Android application id (``com.example.app``): letters, digits and underscores, two segments or more.
PACKAGE_PATTERN = r"[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)+"

AlarmType = Literal["RTC_WAKEUP", "RTC", "ELAPSED_WAKEUP", "ELAPSED"]


class ProbeOutput(Contract):
    """Base of every probe kind's output; ``kind`` names the model (plugin kinds subclass this)."""

    kind: str


class Unreadable(Contract):
    """The probe ran but its output could not be read as that probe's format; checks over it are
    inconclusive, never passed or failed."""

    kind: Literal["unreadable"] = "unreadable"
    reason: str = Field(min_length=1)


class AlarmClock(Contract):
    """One ``Next alarm clock information`` entry: the soonest alarm clock of a user.

    ``package`` is the app that scheduled it, when a pending alarm clock with that trigger time shows it.
    """

    user: int
    time_ms: int
    time: str
    hhmm: str
    package: str | None = None


class PendingAlarm(Contract):
    """One pending alarm of ``dumpsys alarm``.

    ``when_ms`` is the trigger time as the header prints it (wall-clock epoch ms for RTC types,
    elapsed-realtime ms for ELAPSED types); ``time``/``hhmm`` are the local wall time, for RTC types
    only. ``alarm_clock`` marks an alarm set with ``setAlarmClock`` (what clock apps use for the
    user's alarms); ``show_package`` is the app its show-intent opens.
    """

    type: AlarmType
    when_ms: int
    package: str
    tag: str
    time: str | None = None
    hhmm: str | None = None
    alarm_clock: bool = False
    show_package: str | None = None


class AlarmsOutput(ProbeOutput):
    """``dumpsys alarm``: the next alarm clock (if any), every alarm-clock entry and the pending alarms."""

    kind: Literal["alarms"] = "alarms"
    next_alarm: AlarmClock | None = None
    next_alarm_clocks: tuple[AlarmClock, ...] = ()
    alarms: tuple[PendingAlarm, ...] = ()
    pending_complete: bool = False
    """Whether the pending-alarm list was read whole: its header was found and the alarms read match
    the count it declares (``N pending alarms:``, Android 12+), or at least one alarm was read under
    ``Pending alarm batches:`` (older). Only then can the dump prove that an alarm is *absent*."""


class BatteryOutput(ProbeOutput):
    """``dumpsys battery``: the fields of ``Current Battery Service state`` (None when not printed)."""

    kind: Literal["battery"] = "battery"
    level: int | None = None
    scale: int | None = None
    percent: int | None = None
    ac_powered: bool | None = None
    usb_powered: bool | None = None
    wireless_powered: bool | None = None
    dock_powered: bool | None = None
    status: int | None = None
    health: int | None = None
    present: bool | None = None
    voltage: int | None = None
    temperature: int | None = None
    technology: str | None = None
    charge_counter: int | None = None
    max_charging_current: int | None = None
    max_charging_voltage: int | None = None


class ForegroundOutput(ProbeOutput):
    """``dumpsys activity activities``: the top resumed activity (of the focused display) and its user."""

    kind: Literal["foreground"] = "foreground"
    package: str | None = None
    activity: str | None = None
    user: int | None = None


class WindowFocusOutput(ProbeOutput):
    """``dumpsys window``: the window holding input focus on the focused display.

    ``window`` is the focused window's title; ``package`` the app owning it (None for system windows
    such as ``NotificationShade``); ``error_dialog`` the process a focused crash/ANR dialog names;
    ``focused_app`` the app whose activity has focus; ``display`` the focused display's id.
    """

    kind: Literal["window_focus"] = "window_focus"
    window: str | None = None
    package: str | None = None
    error_dialog: str | None = None
    focused_app: str | None = None
    user: int | None = None
    display: int | None = None


class PostedNotification(Contract):
    """One ``NotificationRecord`` (title/text only when the dump is unredacted)."""

    package: str
    id: int
    tag: str | None = None
    key: str
    user: int | None = None
    channel: str | None = None
    title: str | None = None
    text: str | None = None


class NotificationsOutput(ProbeOutput):
    """``dumpsys notification --noredact``: the posted notifications, each key once."""

    kind: Literal["notifications"] = "notifications"
    notifications: tuple[PostedNotification, ...] = ()


class SettingOutput(ProbeOutput):
    """``settings get NS KEY``: the value, None when unset (``null``)."""

    kind: Literal["setting"] = "setting"
    namespace: str
    key: str
    value: str | None = None


class ContentOutput(ProbeOutput):
    """``content query``: the rows, each column's value (None for ``NULL``)."""

    kind: Literal["content"] = "content"
    uri: str
    rows: tuple[dict[str, str | None], ...] = ()

    @property
    def count(self) -> int:
        return len(self.rows)


class PackagesOutput(ProbeOutput):
    """``pm list packages``: the installed package names, sorted."""

    kind: Literal["packages"] = "packages"
    packages: tuple[str, ...] = ()


class PropOutput(ProbeOutput):
    """``getprop KEY``: the value (empty when the property is unset)."""

    kind: Literal["prop"] = "prop"
    key: str
    value: str


class TextOutput(ProbeOutput):
    """A plugin probe kind without its own parser: the output text, stripped."""

    kind: Literal["text"] = "text"
    text: str


BuiltinOutput = Annotated[
    AlarmsOutput | BatteryOutput | ForegroundOutput | WindowFocusOutput | NotificationsOutput
    | SettingOutput | ContentOutput | PackagesOutput | PropOutput | TextOutput | Unreadable,
    Field(discriminator="kind"),
]
"""The built-in outputs and the unreadable state, told apart by ``kind``."""
