"""Typed probe outputs: one closed model per probe kind, or an explicit unreadable state."""

from __future__ import annotations

#: An Android application id (``com.example.app``): letters, digits and underscores, two segments or more.
PACKAGE_PATTERN = r"[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)+"
