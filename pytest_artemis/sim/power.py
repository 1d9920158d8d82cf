"""Power of the simulated phone: whether it is plugged in, whether Battery Saver is on, and ``dumpsys power``.

As on Android, Battery Saver is asked for with ``global low_power`` but never runs while the phone is plugged
in: the Settings switch and the Quick Settings tile are unavailable then, and ``dumpsys power`` says
``Battery Saver is currently: OFF`` whatever the setting holds. The emulator this phone imitates is on AC
power; ``dumpsys battery unplug`` takes it off (``dumpsys battery reset`` plugs it back).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .shell import Ctx

if TYPE_CHECKING:
    from .phone import SimPhone


def plugged(phone: SimPhone) -> bool:
    """True while AC or USB power is connected (``dumpsys battery set ac|usb`` and ``unplug`` change it)."""
    ov = phone.battery_overrides
    return ov.get("ac", "1") != "0" or ov.get("usb", "0") != "0"


def plug_type(phone: SimPhone) -> int:
    """BatteryManager's plug type: 1 AC, 2 USB, 0 none."""
    ov = phone.battery_overrides
    return 1 if ov.get("ac", "1") != "0" else 2 if ov.get("usb", "0") != "0" else 0


def saver_requested(phone: SimPhone) -> bool:
    """The Battery Saver setting (``global low_power``) is on."""
    return phone.get_setting("global", "low_power") == "1"


def saver_on(phone: SimPhone) -> bool:
    """Battery Saver is running: asked for and not plugged in."""
    return saver_requested(phone) and not plugged(phone)


def set_saver(phone: SimPhone, on: bool) -> None:
    """Turn Battery Saver on or off (what the Settings switch and the tile do; refused while plugged in)."""
    if not plugged(phone):
        phone.put_setting("global", "low_power", "1" if on else "0")


def dumpsys_power(ctx: Ctx) -> None:
    """``dumpsys power``: the power manager's state, the saver's stats and state machine (Android 13-14)."""
    p = ctx.phone
    powered, level, on = str(plugged(p)).lower(), p.battery_level, saver_on(p)
    flag = str(on).lower()
    lines = ["POWER MANAGER (dumpsys power)", "", "Power Manager State:",
             "  Settings power_manager_constants:", "    no_cached_wake_locks=true", "  mDirty=0x0",
             "  mWakefulness=Awake", "  mWakefulnessChanging=false", f"  mIsPowered={powered}",
             f"  mPlugType={plug_type(p)}", f"  mBatteryLevel={level}", "  mBatteryLevelWhenDreamStarted=0",
             "  mDockState=0", "  mStayOn=false", "  mProximityPositive=false", "  mBootCompleted=true",
             "  mSystemReady=true", f"  mBatteryLevelLow={str(level <= 15).lower()}",
             "  mLightDeviceIdleMode=false", "  mDeviceIdleMode=false", "",
             "Settings and Configuration:", "  mScreenOffTimeoutSetting="
             + (p.get_setting("system", "screen_off_timeout") or "60000"),
             "  mScreenBrightnessModeSetting="
             + (p.get_setting("system", "screen_brightness_mode") or "0"), "",
             "Battery saving stats:", f"  Battery Saver is currently: {'ON' if on else 'OFF'}",
             "    Times full enabled: 0", "    Times adaptive enabled: 0", "",
             "Battery saver state machine:", f"  Enabled={flag}", f"    full={flag}", "    adaptive=false",
             f"  mState={2 if on else 1}", "  mBootCompleted=true", "  mSettingsLoaded=true",
             "  mBatteryStatusSet=true", f"  mIsPowered={powered}", f"  mBatteryLevel={level}",
             f"  mIsBatteryLevelLow={str(level <= 15).lower()}", "  mSettingAutomaticBatterySaver=0",
             f"  mSettingBatterySaverEnabled={str(saver_requested(p)).lower()}",
             "  mSettingBatterySaverEnabledSticky=false", "  mSettingBatterySaverTriggerThreshold=0"]
    ctx.out("\n".join(lines) + "\n")
