"""The device layer: one Device protocol over adb, the probe table, perception and optional OCR.

Light to import: every name loads with its module on first use (PEP 562), so adbutils, Pillow and OCR
engines load only when ``AdbDevice``/``perceive``/``load_ocr`` are first used, and a test module's probe
checks (``pytest_artemis.probes``, which raise ``ProbeRefused``) load neither the device protocol nor the
probe table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .adb import AdbDevice
    from .base import KEYCODES, Capture, Device, DeviceInfo, Hierarchy
    from .errors import DeviceCommandFailed, DeviceError, DeviceTimeout, DeviceUnavailable, ProbeRefused
    from .ocr import OcrEngine, OcrWord, fuse_ocr, load_ocr
    from .perception import Screen, perceive
    from .probe_table import ProbeKind, ProbeTable, builtin_probes

# Where each public name is defined.
_LAZY = {
    "KEYCODES": "base",
    "Capture": "base",
    "Device": "base",
    "DeviceInfo": "base",
    "Hierarchy": "base",
    "DeviceCommandFailed": "errors",
    "DeviceError": "errors",
    "DeviceTimeout": "errors",
    "DeviceUnavailable": "errors",
    "ProbeRefused": "errors",
    "ProbeKind": "probe_table",
    "ProbeTable": "probe_table",
    "builtin_probes": "probe_table",
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
