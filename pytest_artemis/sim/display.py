"""The phone's screen: the widget tree of its current state, drawn and encoded as ``screencap`` writes it
(PNG or a raw frame) and dumped as uiautomator XML, each cached per state (rebuilt only after the phone
changed, or its clock passed a minute)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from PIL import Image

from . import frames, grant_dialog, render, shade
from .apps import APPS, launcher
from .widgets import Node, dump_xml

if TYPE_CHECKING:
    from .phone import SimPhone


class Display:
    """The screen of one ``SimPhone``; the phone's ``lock`` guards the tree, a render lock the PNG."""

    def __init__(self, phone: SimPhone) -> None:
        self._phone = phone
        self._key: tuple | None = None
        self._root: Node | None = None
        self._windows: list[Node] = []
        self._rendered: tuple[tuple | None, Image.Image] | None = None
        self._encoded: dict[tuple, bytes] = {}
        """The current screen's encodings by (format, parameters); emptied when the screen changes."""
        self._last_asked: tuple = ("png",)
        self._xml: str | None = None
        self._render_lock = threading.Lock()
        self._prerender: threading.Thread | None = None

    def tree(self) -> tuple[Node, list[Node]]:
        """(drawing root, dumpable windows) for the current state, cached per version."""
        phone = self._phone
        with phone.lock:
            key = (phone.version, phone.clock_ms // 60_000, phone.toast_text())
            if key != self._key or self._root is None:
                self._build(key)
            assert self._root is not None  # _build sets it
            return self._root, self._windows

    def _build(self, key: tuple) -> None:
        phone, kit = self._phone, self._phone.kit
        root = Node((0, 0, kit.w, kit.h), dump=False)
        if phone.shade:
            # The open shade covers the screen: its window is the only one drawn and dumped.
            win = shade.build(phone, kit)
            root.add(win, launcher.build_nav_bar(kit))
            windows = [win]
        else:
            windows = self._app_windows(root)
        toast = phone.toast_text()
        if toast:
            root.add(launcher.build_toast(kit, toast))
        self._key, self._root, self._windows = key, root, windows
        self._xml = None

    def _app_windows(self, root: Node) -> list[Node]:
        """Draw the app (or home, or overview), the status bar and the dialogs over them into ``root``;
        return the windows a dump lists."""
        phone, kit = self._phone, self._phone.kit
        if phone.overview:
            win = launcher.build_recents(phone, kit)
        elif phone.fg is None:
            win = launcher.build_home(phone, kit)
        else:
            win = APPS[phone.fg].build(phone, kit, phone.tasks[phone.fg][-1])
        chrome = launcher.build_status_bar(phone, kit)
        root.add(win, chrome)
        windows = [win, chrome.children[0]]
        if phone.prompt is not None and grant_dialog.visible(phone):
            scrim, dialog = grant_dialog.build(phone, kit, phone.prompt)
            root.add(scrim, dialog)
            windows.append(dialog)
        if phone.dialog_pkg:
            scrim, dialog = launcher.build_crash_dialog(phone, kit, phone.dialog_pkg)
            root.add(scrim, dialog)
            windows.append(dialog)
        return windows

    def _encode(self, form: tuple, encode: Callable[[Image.Image], bytes]) -> bytes:
        """The current screen encoded as ``form`` says (drawn and encoded only when the screen changed).

        Drawing and encoding happen outside the phone lock (a built tree is never mutated); the render
        lock alone guards the caches, and is never held while waiting for the phone lock, so a caller
        holding the phone lock cannot deadlock with it."""
        phone = self._phone
        with phone.lock:
            root, _ = self.tree()
            key, dark = self._key, phone.dark
        with self._render_lock:
            rendered = self._rendered
            if rendered is None or rendered[0] != key:
                image = render.render_image(root, (phone.width, phone.height), dark, phone.kit.k)
                rendered, self._encoded = (key, image), {}
                self._rendered = rendered
            if form not in self._encoded:
                self._encoded[form] = encode(rendered[1])
            self._last_asked = form
            return self._encoded[form]

    def png(self) -> bytes:
        """What ``screencap -p`` writes for the current screen."""
        return self._encode(("png",), frames.encode_png)

    def raw(self, pixel_format: str = "RGBA_8888", header: int = 16) -> bytes:
        """What ``screencap`` writes for the current screen on a display of ``pixel_format`` (a
        ``header``-byte header: 16 from Android 9, 12 before)."""
        return self._encode(("raw", pixel_format, header),
                            lambda image: frames.encode_raw(image, pixel_format, header))

    def xml(self) -> str:
        """``uiautomator dump`` XML of the current screen (cached like the PNG)."""
        with self._phone.lock:
            _, windows = self.tree()
            if self._xml is None:
                self._xml = dump_xml(windows)
            return self._xml

    def prerender(self) -> None:
        """Start drawing and encoding the current screen in the background, in the format last asked for.

        Agents screenshot right after acting: the ADB server calls this after a command
        changed the phone, so encoding overlaps the client's next connection setup."""
        form = self._last_asked
        job = self.png if form[0] == "png" else (lambda: self.raw(*form[1:]))
        with self._phone.lock:
            if self._prerender is None or not self._prerender.is_alive():
                self._prerender = threading.Thread(target=job, daemon=True)
                self._prerender.start()
