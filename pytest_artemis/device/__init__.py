"""The device layer: one Device protocol over adb, the probe table, perception and optional OCR.

Light to import: adbutils, Pillow and OCR engines load only when ``AdbDevice``/``perceive``/``load_ocr``
are first used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import KEYCODES, Capture, Device, DeviceInfo, Hierarchy
from .errors import DeviceCommandFailed, DeviceError, DeviceTimeout, DeviceUnavailable, ProbeRefused
from .probe_table import ProbeKind, ProbeTable, builtin_probes

if TYPE_CHECKING:
    from .adb import AdbDevice
    from .ocr import OcrEngine, OcrWord, fuse_ocr, load_ocr
    from .perception import Screen, perceive

_LAZY = {
    "AdbDevice": "adb",
    "Screen": "perception",
    "perceive": "perception",
    "OcrEngine": "ocr",
    "OcrWord": "ocr",
    "fuse_ocr": "ocr",
    "load_ocr": "ocr",
}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    return getattr(import_module(f"{__name__}.{module}"), name)


__all__ = [
    "KEYCODES",
    "AdbDevice",
    "Capture",
    "Device",
    "DeviceCommandFailed",
    "DeviceError",
    "DeviceInfo",
    "DeviceTimeout",
    "DeviceUnavailable",
    "Hierarchy",
    "OcrEngine",
    "OcrWord",
    "ProbeKind",
    "ProbeRefused",
    "ProbeTable",
    "Screen",
    "builtin_probes",
    "fuse_ocr",
    "load_ocr",
    "perceive",
]
