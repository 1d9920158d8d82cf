"""Plain data held by a simulated phone, and the read-only snapshot tests see."""

from __future__ import annotations

import datetime as _dt
import zlib
from dataclasses import dataclass, field
from typing import Any, NamedTuple

#: The phone's clock starts here (the phone's local time zone is UTC).
EPOCH = _dt.datetime(2026, 1, 15, 9, 0, 0, tzinfo=_dt.UTC)
EPOCH_MS = int(EPOCH.timestamp() * 1000)

LAUNCHER = "com.google.android.apps.nexuslauncher"
LAUNCHER_ACTIVITY = "com.google.android.apps.nexuslauncher.NexusLauncherActivity"
RECENTS_ACTIVITY = "com.android.quickstep.RecentsActivity"


class Alarm(NamedTuple):
    """One DeskClock alarm; compares equal to ``(hour24, minute, enabled, label)``."""

    hour: int
    minute: int
    enabled: bool
    label: str = ""


class Contact(NamedTuple):
    """One contact as the Contacts app stores it."""

    first: str
    last: str
    phone: str

    @property
    def display_name(self) -> str:
        """First and last name joined, as Android's display_name column."""
        return " ".join(p for p in (self.first, self.last) if p)


@dataclass
class Page:
    """One activity instance on an app's back stack (name plus mutable form data); ``package`` names another
    app whose activity runs in this task (Settings' App permissions belong to the permission controller)."""

    name: str
    data: dict[str, Any] = field(default_factory=dict)
    package: str = ""


@dataclass(frozen=True)
class PhoneState:
    """Immutable snapshot of a phone's observable state (for tests and ``simctl state``): ``shade`` is
    closed, notifications or quick_settings; ``permissions`` maps package → runtime permission → granted."""

    clock_ms: int
    alarms: tuple[Alarm, ...]
    settings: dict[str, dict[str, str]]
    contacts: tuple[Contact, ...]
    foreground: str
    toast: str | None
    dialog: str | None
    online: bool
    battery_level: int
    shade: str = "closed"
    permissions: dict[str, dict[str, bool]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict (used by ``simctl state``)."""
        return {
            "clock_ms": self.clock_ms,
            "alarms": [a._asdict() for a in self.alarms],
            "settings": self.settings,
            "contacts": [
                {"display_name": c.display_name, "first": c.first, "last": c.last, "phone": c.phone}
                for c in self.contacts
            ],
            "foreground": self.foreground,
            "toast": self.toast,
            "dialog": self.dialog,
            "online": self.online,
            "battery_level": self.battery_level,
            "shade": self.shade,
            "permissions": self.permissions,
        }


def default_settings() -> dict[str, dict[str, str]]:
    """A fresh emulator's settings store (values are strings, as in Settings.*)."""
    return {
        "system": {
            "screen_brightness": "102",
            "screen_brightness_mode": "0",
            "screen_off_timeout": "60000",
            "font_scale": "1.0",
            "time_12_24": "12",
            "accelerometer_rotation": "0",
            "volume_music": "5",
            "volume_ring": "5",
            "volume_alarm": "6",
            "volume_voice": "4",
        },
        "secure": {
            "ui_night_mode": "1",
            "android_id": "",
            "default_input_method": "com.google.android.inputmethod.latin/"
            "com.android.inputmethod.latin.LatinIME",
            "location_mode": "3",
        },
        "global": {
            "wifi_on": "1",
            "bluetooth_on": "0",
            "airplane_mode_on": "0",
            "adb_enabled": "1",
            "auto_time": "1",
            "device_name": "sdk_gphone64_x86_64",
            "window_animation_scale": "1.0",
            "transition_animation_scale": "1.0",
            "animator_duration_scale": "1.0",
            "low_power": "0",
            "zen_mode": "0",
        },
    }


DEFAULT_CONTACTS = (
    Contact("Ada", "Lovelace", "+1 555-0100"),
    Contact("Alan", "Turing", "+1 555-0101"),
    Contact("Grace", "Hopper", "+1 555-0102"),
)

#: DeskClock ships two disabled weekday alarms on a fresh install.
DEFAULT_ALARMS = (Alarm(8, 30, False, ""), Alarm(9, 0, False, ""))


def fmt_12h(hour: int, minute: int) -> str:
    """``7:30 AM`` style time, as DeskClock shows it."""
    suffix = "AM" if hour < 12 else "PM"
    h = hour % 12 or 12
    return f"{h}:{minute:02d} {suffix}"


def local_time(ms: int) -> _dt.datetime:
    """Phone-local wall time for a millisecond timestamp."""
    return _dt.datetime.fromtimestamp(ms / 1000, tz=_dt.UTC)


def fmt_stamp(ms: int) -> str:
    """``YYYY-MM-DD HH:MM:SS.mmm`` as dumpsys prints timestamps."""
    t = local_time(ms)
    return t.strftime("%Y-%m-%d %H:%M:%S.") + f"{ms % 1000:03d}"


def next_alarm_ms(alarm: Alarm, now_ms: int) -> int:
    """Next time this alarm would ring, strictly after ``now_ms``."""
    now = local_time(now_ms)
    at = now.replace(hour=alarm.hour, minute=alarm.minute, second=0, microsecond=0)
    if at <= now:
        at += _dt.timedelta(days=1)
    return int(at.timestamp() * 1000)


def ident_hash(*parts: object) -> str:
    """Stable 7-hex-digit identity hash (Java's identityHashCode look, deterministic)."""
    return f"{zlib.crc32(repr(parts).encode()) & 0xFFFFFFF:07x}"


def fmt_duration(ms: int) -> str:
    """``+22h30m0s0ms`` style relative duration used by dumpsys."""
    sign = "+" if ms >= 0 else "-"
    ms = abs(ms)
    h, rem = divmod(ms, 3_600_000)
    m, rem = divmod(rem, 60_000)
    s, rem = divmod(rem, 1000)
    days, h = divmod(h, 24)
    head = f"{days}d" if days else ""
    return f"{sign}{head}{h}h{m}m{s}s{rem}ms"
