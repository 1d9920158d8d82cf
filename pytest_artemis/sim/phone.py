"""The simulated phone: state, navigation, input and the simulated clock; its screen (one widget tree
per state version, drawn and dumped from it) is ``display.Display``.

Simulated time only moves when input arrives (or ``advance`` is called); each
input command costs a fixed amount so transient UI (toasts) expires after a
deterministic number of actions:

* tap 700 ms, keyevent 400 ms, swipe its duration + 200 ms settle,
* text 100 ms per character (at least 200 ms, at most 2000 ms),
* a toast stays for 2000 ms (Toast.LENGTH_SHORT): visible right after the tap
  that raised it and after one more tap, gone after two.

Observing (screencap, uiautomator dump, probes) never changes the phone.

The notification shade is :mod:`shade`, the permission dialog an app shows at start :mod:`grant_dialog`.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable

from . import grant_dialog, shade, toggles
from .apps import APPS, launcher, settings
from .display import Display
from .faults import Faults
from .fs import FileSystem
from .keys import KEY_CHARS, KEYCODES
from .permissions import PERMISSION_CONTROLLER, Permissions
from .state import (
    DEFAULT_ALARMS,
    DEFAULT_CONTACTS,
    EPOCH_MS,
    LAUNCHER,
    LAUNCHER_ACTIVITY,
    RECENTS_ACTIVITY,
    Page,
    PhoneState,
    default_settings,
)
from .ui import Kit
from .widgets import Node, hit_test, hit_test_long

TAP_MS = 700
KEY_MS = 400
TEXT_MS_PER_CHAR = 100
SWIPE_SETTLE_MS = 200
TOAST_MS = 2000
LONG_PRESS_MS = 400

class SimPhone:
    """One simulated Android phone.  Thread-safe: hold ``lock`` for compound use."""

    def __init__(self, serial: str, *, seed: int = 0, width: int = 1080, height: int = 2400,
                 transport_id: int = 1):
        self.serial = serial
        self._seed = seed
        self.transport_id = transport_id
        self.width, self.height = width, height
        self.lock = threading.RLock()
        rng = random.Random(f"{seed}:{serial}")
        self.battery_level = rng.randint(60, 100)
        self.battery_overrides: dict[str, str] = {}
        self.record_hashes = {pkg: f"{rng.getrandbits(28):07x}"
                              for pkg in (LAUNCHER, *APPS)}
        self.task_ids = {pkg: 12 + i for i, pkg in enumerate((LAUNCHER, *APPS))}
        self._clock = EPOCH_MS
        self.settings = default_settings()
        self.settings["secure"]["android_id"] = f"{rng.getrandbits(64):016x}"
        self.alarms = list(DEFAULT_ALARMS)
        self.contacts = list(DEFAULT_CONTACTS)
        self.installed: dict[str, str] = {}
        """Packages installed from an APK (``pm install``) → the path of their APK."""
        self.tasks: dict[str, list[Page]] = {}
        self.recents: list[str] = []
        self.fg: str | None = None
        self.overview = False
        self.dialog_pkg: str | None = None
        self.shade = shade.CLOSED
        self.prompt: grant_dialog.Prompt | None = None
        self.permissions = Permissions()
        self.stopped: set[str] = set()
        self._toast: tuple[str, int] | None = None
        self._focus: tuple[int, str] | None = None
        self._select_all = False
        self.online = True
        self.fs = FileSystem()
        self.faults = Faults(self)
        self.kit = Kit(width, height)
        self.version = 0
        self._online_listeners: list[Callable[[], None]] = []
        self.display = Display(self)

    def reset(self) -> None:
        """A full reset (``simctl reset``): apps, settings, alarms, contacts, permissions, files, battery and
        faults as after boot with the same seed; the simulated clock runs on."""
        fresh = SimPhone(self.serial, seed=self._seed, width=self.width, height=self.height,
                         transport_id=self.transport_id)
        with self.lock:
            self.faults.clear()
            self.battery_level, self.battery_overrides = fresh.battery_level, {}
            self.settings, self.alarms, self.contacts = fresh.settings, fresh.alarms, fresh.contacts
            self.installed = {}
            self.tasks, self.recents, self.fg, self.overview = {}, [], None, False
            self.dialog_pkg, self._toast, self._focus, self._select_all = None, None, None, False
            self.shade, self.prompt, self.stopped = shade.CLOSED, None, set()
            self.permissions = fresh.permissions
            self.fs = fresh.fs
            self.changed()

    # -- clock and observable state ------------------------------------------------

    @property
    def clock_ms(self) -> int:
        """Simulated wall time in epoch milliseconds (phone time zone: UTC)."""
        return self._clock

    def advance(self, ms: int) -> None:
        """Move simulated time forward by ``ms`` milliseconds."""
        with self.lock:
            self._clock += max(0, int(ms))

    @property
    def state(self) -> PhoneState:
        """Read-only snapshot of alarms, settings, contacts, foreground, toast, dialog."""
        with self.lock:
            return PhoneState(
                clock_ms=self._clock, alarms=tuple(self.alarms),
                settings={ns: dict(kv) for ns, kv in self.settings.items()},
                contacts=tuple(self.contacts), foreground="/".join(self.foreground()),
                toast=self.toast_text(), online=self.online, battery_level=self.battery_level,
                dialog=f"{launcher.app_label(self.dialog_pkg)} keeps stopping" if self.dialog_pkg
                else None, shade=shade.LEVELS[self.shade], permissions=self.permissions.to_json())

    def foreground(self) -> tuple[str, str]:
        """(package, activity class) of the resumed activity."""
        if self.overview:
            return LAUNCHER, RECENTS_ACTIVITY
        if self.fg is None:
            return LAUNCHER, LAUNCHER_ACTIVITY
        if grant_dialog.visible(self):
            return PERMISSION_CONTROLLER, grant_dialog.GRANT_ACTIVITY
        page = self.tasks[self.fg][-1]
        return page.package or self.fg, APPS[self.fg].activity(page)

    def toast_text(self) -> str | None:
        """Text of the toast visible now, if any."""
        if self._toast and self._clock < self._toast[1]:
            return self._toast[0]
        return None

    def changed(self) -> None:
        """Mark the screen dirty (bumps the state version the caches key on)."""
        self.version += 1

    def set_online(self, online: bool) -> None:
        """Switch between ``device`` and ``offline`` and notify device trackers."""
        if online != self.online:
            self.online = online
            for listener in list(self._online_listeners):
                listener()

    def add_online_listener(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` (under the lock) whenever the online state changes."""
        self._online_listeners.append(listener)

    # -- settings ---------------------------------------------------------------------

    def get_setting(self, ns: str, key: str) -> str | None:
        """Value from the settings store, None when unset."""
        return self.settings.get(ns, {}).get(key)

    def put_setting(self, ns: str, key: str, value: str) -> None:
        """Write to the settings store (the UI reflects it)."""
        self.settings.setdefault(ns, {})[key] = value
        self.changed()

    # -- navigation (called by apps, under the lock) ------------------------------------

    def launch(self, pkg: str) -> None:
        """Bring ``pkg``'s task to the front, creating it at its main activity (where the app asks for the
        permissions it lacks)."""
        if pkg not in self.tasks:
            app = APPS[pkg]
            self.tasks[pkg] = [app.new_page(app.ACTIVITIES[app.MAIN_ACTIVITY])]
            self.prompt = grant_dialog.prompt_at_start(self, pkg) or self.prompt
        self.stopped.discard(pkg)
        self.fg, self.overview = pkg, False
        if pkg in self.recents:
            self.recents.remove(pkg)
        self.recents.insert(0, pkg)
        self.changed()

    def start_activity(self, pkg: str, activity: str, uri: str = "") -> bool:
        """``am start -n [-d URI]``: False when the component does not exist. An activity that cannot use
        its intent's data finishes at once (the app comes to the front as it was)."""
        app = APPS.get(pkg)
        full = pkg + activity if activity.startswith(".") else activity
        if app is None or full not in app.ACTIVITIES:
            return False
        name = app.ACTIVITIES[full]
        self.launch(pkg)
        page = app.new_page(name, uri)
        if page is not None and (self.tasks[pkg][-1].name != name or uri):
            self.push_page(pkg, page)
        return True

    def force_stop(self, pkg: str, stopped: bool = True) -> None:
        """``am force-stop``: the task and its state are gone, the package marked stopped (a process that
        merely died, ``stopped=False``, is not)."""
        if stopped:
            self.stopped.add(pkg)
        if self.prompt is not None and self.prompt.pkg == pkg:
            self.prompt = None
        self.tasks.pop(pkg, None)
        if pkg in self.recents:
            self.recents.remove(pkg)
        if self.fg == pkg:
            self.fg = None
        self.changed()

    def clear_recents(self) -> None:
        """"Clear all" in overview."""
        for pkg in list(self.recents):
            self.force_stop(pkg, stopped=False)
        self.overview = False

    def push_page(self, pkg: str, page: Page) -> None:
        """Open a new page on top of ``pkg``'s stack."""
        self.tasks.setdefault(pkg, []).append(page)
        self.changed()

    def pop_page(self) -> None:
        """Back out of the top page; from a task's root go home (task kept)."""
        if self.fg is None:
            return
        stack = self.tasks[self.fg]
        if len(stack) > 1:
            stack.pop()
        else:
            self.fg = None
        self.changed()

    def show_toast(self, text: str) -> None:
        """Show a toast for TOAST_MS of simulated time (never, while the ``hide_toasts`` fault is on)."""
        if self.faults.toasts_hidden:
            return
        self._toast = (text, self._clock + TOAST_MS)
        self.changed()

    def focus(self, page: Page, key: str, select_all: bool = True) -> None:
        """Focus a text field, its cursor at the end of its text; ``select_all``: the field replaces its
        prefilled value with the first key typed or deleted (until MOVE_END moves the cursor)."""
        self._focus = (id(page), key)
        self._select_all = select_all
        self.changed()

    def is_focused(self, page: Page, key: str) -> bool:
        """True when the field ``key`` of ``page`` has input focus."""
        return self._focus == (id(page), key)

    def crash(self, pkg: str) -> None:
        """Kill ``pkg`` and show the system crash dialog."""
        self.force_stop(pkg, stopped=False)
        self.dialog_pkg = pkg
        self.changed()

    def dismiss_dialog(self) -> None:
        """"Close app" on the crash dialog."""
        self.dialog_pkg = None
        self.changed()

    def crash_app_info(self) -> None:
        """"App info" on the crash dialog: opens Settings."""
        self.dismiss_dialog()
        self.launch(settings.PACKAGE)

    # -- input ------------------------------------------------------------------------

    def _after_input(self, cost_ms: int) -> None:
        self._clock += cost_ms
        self.faults.after_input()

    def tap(self, x: int, y: int) -> None:
        """``input tap``."""
        with self.lock:
            node = hit_test(self.screen()[0], x, y)
            if node is not None and node.action is not None and not self.faults.ignores(node):
                node.action(x, y)
                self.changed()
            self._after_input(TAP_MS)

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> None:
        """``input swipe``: drags sliders, long-presses when it stays put, pulls the shade from the status
        bar; an upward swipe from the gesture bar goes home."""
        with self.lock:
            root = self.screen()[0]
            node = hit_test(root, x1, y1)
            held = hit_test_long(root, x1, y1)
            still = abs(x2 - x1) + abs(y2 - y1) < self.kit.s(40) and duration_ms >= LONG_PRESS_MS
            if still and held is not None and held.long_action is not None:
                if not self.faults.ignores(held):
                    held.long_action(x1, y1)
                    self.changed()
            elif node is not None and node.action is not None and node.style == "slider" \
                    and not self.faults.ignores(node):
                node.action(x2, y2)
                self.changed()
            elif shade.on_swipe(self, x1, y1, x2, y2):
                pass
            elif y1 >= self.kit.bottom and y1 - y2 > self.kit.s(300) and self.dialog_pkg is None:
                self.fg, self.overview = None, False
                self.changed()
            self._after_input(max(0, duration_ms) + SWIPE_SETTLE_MS)

    def _field(self) -> tuple[Page, str] | None:
        if self._focus is None or self.fg is None or self.overview or self.dialog_pkg or self.shade \
                or grant_dialog.visible(self):
            return None
        page = self.tasks[self.fg][-1]
        if id(page) != self._focus[0] or self._focus[1] not in page.data:
            return None
        return page, self._focus[1]

    def _type(self, text: str) -> None:
        field = self._field()
        if field is None:
            return
        page, key = field
        old = "" if self._select_all else page.data[key]
        page.data[key] = APPS[self.fg].text_filter(page, key, old + text)
        self._select_all = False
        self.changed()

    def text(self, text: str) -> None:
        """``input text`` (already unescaped) into the focused field."""
        with self.lock:
            self._type(text)
            self._after_input(min(2000, max(200, TEXT_MS_PER_CHAR * len(text))))

    def key(self, *codes: int) -> None:
        """``input keyevent`` with numeric key codes: one command, however many keys it presses."""
        with self.lock:
            for code in codes:
                self._key(code)
            self._after_input(KEY_MS)

    def _key(self, code: int) -> None:
        if shade.on_key(self, code) or grant_dialog.on_key(self, code):
            return
        if code == KEYCODES["BACK"]:
            if self.dialog_pkg:
                self.dismiss_dialog()
            elif self.overview:
                self.overview = False
                self.changed()
            else:
                self.pop_page()
        elif code == KEYCODES["HOME"]:
            self.fg, self.overview = None, False
            self.changed()
        elif code == KEYCODES["APP_SWITCH"]:
            self.overview = not self.overview
            self.changed()
        elif code in (KEYCODES["ENTER"], KEYCODES["DPAD_CENTER"]):
            if self.fg and not self.overview and not self.dialog_pkg:
                APPS[self.fg].on_enter(self, self.tasks[self.fg][-1])
                self.changed()
        elif code == KEYCODES["MOVE_END"]:
            # The cursor goes to the end of the text: a prefilled value is no longer replaced by typing.
            self._select_all = False
        elif code == KEYCODES["DEL"]:
            field = self._field()
            if field:
                page, key = field
                page.data[key] = "" if self._select_all else page.data[key][:-1]
                self._select_all = False
                self.changed()
        elif code in KEY_CHARS:
            self._type(KEY_CHARS[code])

    # -- screen -----------------------------------------------------------------------

    @property
    def dark(self) -> bool:
        """Dark theme on (secure ui_night_mode == 2)."""
        return toggles.DARK_THEME.is_on(self)

    def screen(self) -> tuple[Node, list[Node]]:
        """(drawing root, dumpable windows) for the current state, cached per version."""
        return self.display.tree()

    def screenshot_png(self) -> bytes:
        """PNG of the current screen (re-encoded only when the screen changed)."""
        return self.display.png()

    def screenshot_raw(self) -> bytes:
        """The raw frame ``screencap`` writes for the current screen (format: ``faults.raw_screencap``)."""
        return self.display.raw(*self.faults.raw_frame)

    def hierarchy_xml(self) -> str:
        """``uiautomator dump`` XML of the current screen (cached like the PNG)."""
        return self.display.xml()

    def prerender(self) -> None:
        """Start encoding the current screen in the background (the ADB server calls it after a
        command changed the phone, so encoding overlaps the client's next screenshot request)."""
        self.display.prerender()
