"""The notifications posted on the simulated phone: one list that ``dumpsys notification`` prints and the
notification shade shows.

Clock posts "Upcoming alarm" for an enabled alarm due within two hours, only while it holds
POST_NOTIFICATIONS (Android 13+); the system posts "Charging this device via USB" while the phone is
plugged in.
Both are ongoing (flags 0x2), so the shade offers no way to dismiss them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from . import power
from .permissions import CLOCK, NOTIFICATIONS, SETTINGS
from .shell import Ctx
from .state import fmt_stamp, ident_hash, next_alarm_ms

if TYPE_CHECKING:
    from .phone import SimPhone


class Notification(NamedTuple):
    """One posted notification, with what the shade shows and which app a tap on it opens."""

    pkg: str
    app: str
    uid: int
    user: int
    id: int
    channel: str
    importance: int
    color: str
    category: str
    title: str
    text: str
    opens: str

    @property
    def key(self) -> str:
        """NotificationRecord key: ``user|pkg|id|tag|uid``."""
        return f"{self.user}|{self.pkg}|{self.id}|null|{self.uid}"


def posted(phone: SimPhone) -> list[Notification]:
    """The notifications posted now, in the order the notification manager lists them."""
    now, found = phone.clock_ms, []
    upcoming = sorted(next_alarm_ms(a, now) for a in phone.alarms if a.enabled)
    if upcoming and upcoming[0] - now <= 2 * 3_600_000 and phone.permissions.is_granted(CLOCK, NOTIFICATIONS):
        found.append(Notification(CLOCK, "Clock", 10123, 0, 2147483647, "Upcoming alarms", 2, "0xff1a73e8",
                                  "alarm", "Upcoming alarm", fmt_stamp(upcoming[0])[11:16], CLOCK))
    if power.plugged(phone):
        found.append(Notification("android", "Android System", 1000, -1, 32, "USB", 1, "0xff607d8b", "",
                                  "Charging this device via USB", "Tap for more options.", SETTINGS))
    return found


def dumpsys_notification(ctx: Ctx) -> None:
    """``dumpsys notification [--noredact]``: the Notification List as Android 13-14 prints its records."""
    lines = ["Current Notification Manager state:", "  Notification List:"]
    for n in posted(ctx.phone):
        category = f" category={n.category}" if n.category else ""
        record = ident_hash("n", n.key, n.text)
        lines += [f"    NotificationRecord(0x{record}: pkg={n.pkg} user=UserHandle{{{n.user}}} id={n.id} "
                  f"tag=null importance={n.importance} key={n.key}: Notification(channel={n.channel} "
                  "shortcut=null contentView=null vibrate=null sound=null defaults=0x0 flags=0x2 "
                  f"color={n.color}{category} vis=PUBLIC))",
                  f"      uid={n.uid} userId={n.user}", f"      opPkg={n.pkg}", f"      key={n.key}",
                  "      extras={", f"          android.title=String ({n.title})",
                  f"          android.text=String ({n.text})", "      }"]
    ctx.out("\n".join(lines) + "\n")
