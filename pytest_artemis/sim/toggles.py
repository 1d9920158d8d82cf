"""The phone's on/off settings, one table for every control over them: Settings' switches and the Quick
Settings tiles read and write the same settings-store keys through it (so ``settings get`` sees either)."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from .phone import SimPhone


class Toggle(NamedTuple):
    """One on/off setting: its namespace and key, the values meaning on, and what on/off write."""

    ns: str
    key: str
    on_values: frozenset[str]
    on: str
    off: str

    def is_on(self, phone: SimPhone) -> bool:
        """True when the store holds an "on" value."""
        return phone.get_setting(self.ns, self.key) in self.on_values

    def set(self, phone: SimPhone, on: bool) -> None:
        """Write on or off."""
        phone.put_setting(self.ns, self.key, self.on if on else self.off)

    def flip(self, phone: SimPhone) -> None:
        """Switch to the other state."""
        self.set(phone, not self.is_on(phone))


def _binary(ns: str, key: str) -> Toggle:
    return Toggle(ns, key, frozenset({"1"}), "1", "0")


WIFI = _binary("global", "wifi_on")
BLUETOOTH = _binary("global", "bluetooth_on")
AIRPLANE = _binary("global", "airplane_mode_on")
AUTO_ROTATE = _binary("system", "accelerometer_rotation")
#: ui_night_mode: 1 no, 2 yes (0 auto counts as off here).
DARK_THEME = Toggle("secure", "ui_night_mode", frozenset({"2"}), "2", "1")
#: location_mode: 0 off, 3 high accuracy (1 and 2 are the older partial modes, also on).
LOCATION = Toggle("secure", "location_mode", frozenset({"1", "2", "3"}), "3", "0")
#: zen_mode: 0 off, 1 priority only, 2 total silence, 3 alarms only; turning it on chooses priority only.
DO_NOT_DISTURB = Toggle("global", "zen_mode", frozenset({"1", "2", "3"}), "1", "0")
ZEN_MODES = {"1": "Priority only", "2": "Total silence", "3": "Alarms only"}
