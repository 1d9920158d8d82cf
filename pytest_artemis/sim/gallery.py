"""``python -m pytest_artemis.sim.gallery DIR``: the simulated phone's screens as PNGs, from its renderer."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from . import shade
from .apps import APPS, clock, contacts, settings
from .faults import CLOCK_PACKAGE
from .phone import SimPhone
from .state import Page

Setup = Callable[[SimPhone], None]


def _open(package: str, *pages: str) -> Setup:
    def setup(phone: SimPhone) -> None:
        phone.launch(package)
        for name in pages:
            phone.push_page(package, APPS[package].new_page(name))

    return setup


def _clock_editor(phone: SimPhone) -> None:
    phone.launch(clock.PACKAGE)
    clock._open_editor(phone)  # what tapping "Add alarm" does


def _crashed(phone: SimPhone) -> None:
    phone.launch(CLOCK_PACKAGE)
    phone.faults.crash_dialog(CLOCK_PACKAGE)


def _home(phone: SimPhone) -> None:
    """A fresh phone shows the launcher."""


def _shade(level: int) -> Setup:
    def setup(phone: SimPhone) -> None:
        phone.launch(settings.PACKAGE)
        shade.set_level(phone, level)

    return setup


def _app_info(phone: SimPhone) -> None:
    phone.launch(settings.PACKAGE)
    phone.push_page(settings.PACKAGE, Page("app_info", {"pkg": CLOCK_PACKAGE}))


def _asking_clock(phone: SimPhone) -> None:
    phone.permissions.ask(CLOCK_PACKAGE)
    phone.launch(CLOCK_PACKAGE)  # its first start: it asks


#: File name (without ``.png``) → how to reach that screen from a fresh phone.
SCREENS: dict[str, Setup] = {
    "sim-home": _home,
    "sim-settings": _open(settings.PACKAGE),
    "sim-settings-network": _open(settings.PACKAGE, "network"),
    "sim-settings-bluetooth": _open(settings.PACKAGE, "bluetooth"),
    "sim-settings-display": _open(settings.PACKAGE, "display"),
    "sim-clock": _open(clock.PACKAGE),
    "sim-clock-edit": _clock_editor,
    "sim-contacts": _open(contacts.PACKAGE),
    "sim-contacts-editor": _open(contacts.PACKAGE, "editor"),
    "sim-crash-dialog": _crashed,
    "sim-shade": _shade(shade.NOTIFICATIONS),
    "sim-quick-settings": _shade(shade.QUICK_SETTINGS),
    "sim-settings-battery-saver": _open(settings.PACKAGE, "battery", "battery_saver"),
    "sim-settings-app-info": _app_info,
    "sim-permission-dialog": _asking_clock,
}


def render(name: str, *, width: int = 540, height: int = 1200) -> bytes:
    """The PNG of one gallery screen on a fresh phone (seed 0)."""
    phone = SimPhone("emulator-5554", width=width, height=height)
    with phone.lock:
        SCREENS[name](phone)
    return phone.screenshot_png()


def write_gallery(directory: Path) -> list[Path]:
    """Write every gallery screen into ``directory``; returns the files written."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name in SCREENS:
        path = directory / f"{name}.png"
        path.write_bytes(render(name))
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pytest_artemis.sim.gallery", description=__doc__)
    parser.add_argument("directory", type=Path, help="where to write the PNGs (e.g. docs/images)")
    args = parser.parse_args(argv)
    for path in write_gallery(args.directory):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
