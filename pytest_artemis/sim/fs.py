"""A small in-memory filesystem (``/sdcard``, ``/data/local/tmp`` ...) shared by
the shell (``cat``, ``rm``, ``ls``, redirection), ``uiautomator dump`` and sync."""

from __future__ import annotations

import posixpath
import stat
from dataclasses import dataclass

_DIRS = ("/", "/sdcard", "/sdcard/Download", "/sdcard/DCIM", "/sdcard/Pictures", "/data",
         "/data/local", "/data/local/tmp", "/system", "/system/bin", "/storage",
         "/storage/emulated", "/storage/emulated/0", "/dev")


@dataclass
class FileEntry:
    """A regular file: content, permission bits and mtime (seconds, simulated clock)."""

    data: bytes
    mode: int
    mtime: int


class FileSystem:
    """Regular files and directories; ``/storage/emulated/0`` is an alias of ``/sdcard``."""

    def __init__(self) -> None:
        self.files: dict[str, FileEntry] = {}
        self.dirs: set[str] = set(_DIRS)

    @staticmethod
    def norm(path: str) -> str:
        """Absolute, normalised path with the emulated-storage alias resolved."""
        p = posixpath.normpath("/" + path.lstrip("/")) if path else "/"
        if p == "/storage/emulated/0" or p.startswith("/storage/emulated/0/"):
            p = "/sdcard" + p[len("/storage/emulated/0"):]
        return "/" if p == "//" else p

    def is_dir(self, path: str) -> bool:
        """True for an existing directory."""
        return self.norm(path) in self.dirs

    def read(self, path: str) -> bytes | None:
        """File content, or None when there is no such regular file."""
        entry = self.files.get(self.norm(path))
        return entry.data if entry else None

    def write(self, path: str, data: bytes, mtime: int, mode: int = 0o644, append: bool = False) -> str:
        """Create or replace a file; returns an error message or ''."""
        p = self.norm(path)
        if p in self.dirs:
            return f"{path}: Is a directory"
        if posixpath.dirname(p) not in self.dirs:
            return f"{path}: No such file or directory"
        old = self.files.get(p)
        content = (old.data if old and append else b"") + data
        self.files[p] = FileEntry(content, mode & 0o7777, mtime)
        return ""

    def mkdirs(self, path: str) -> None:
        """``mkdir -p``."""
        p = self.norm(path)
        while p not in self.dirs:
            self.dirs.add(p)
            p = posixpath.dirname(p)

    def remove(self, path: str) -> bool:
        """Delete a file; False when it did not exist."""
        return self.files.pop(self.norm(path), None) is not None

    def stat(self, path: str) -> tuple[int, int, int] | None:
        """(st_mode, size, mtime) or None when missing."""
        p = self.norm(path)
        if p in self.dirs:
            return stat.S_IFDIR | 0o771, 4096, 0
        entry = self.files.get(p)
        if entry is None:
            return None
        return stat.S_IFREG | entry.mode, len(entry.data), entry.mtime

    def listdir(self, path: str) -> list[str] | None:
        """Sorted entry names of a directory, or None when it is not one."""
        p = self.norm(path)
        if p not in self.dirs:
            return None
        names = {posixpath.basename(x) for x in list(self.files) + list(self.dirs)
                 if x != p and posixpath.dirname(x) == p}
        return sorted(names)
