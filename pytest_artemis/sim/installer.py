"""``pm install`` / ``pm uninstall`` of the simulated phone: an APK pushed to the phone is installed by the
package its manifest names (the phone lists it and finds its path; it runs no app code).

An APK for the simulated phone is a zip archive holding ``AndroidManifest.xml`` as plain XML text (a real
APK's manifest is compiled to binary XML, which the simulated phone does not read):
``<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.app"/>``.
``write_apk`` writes one.
"""

from __future__ import annotations

import hashlib
import io
import re
import zipfile
from pathlib import Path
from xml.etree import ElementTree

from .shell import Ctx

_PACKAGE = re.compile(r"[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)+")


class ApkRefused(Exception):
    """Why the package manager refuses an APK: its ``Failure [CODE: reason]`` text."""


def manifest_package(data: bytes, where: str) -> str:
    """The package an APK's manifest names, or ApkRefused with the failure Android reports."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as apk:
            text = apk.read("AndroidManifest.xml")
    except (zipfile.BadZipFile, KeyError):
        raise ApkRefused(f"INSTALL_PARSE_FAILED_NOT_APK: Failed to parse {where}: Failed to load asset path "
                         f"{where}") from None
    try:
        package = ElementTree.fromstring(text).get("package", "")
    except ElementTree.ParseError as exc:
        raise ApkRefused(f"INSTALL_PARSE_FAILED_MANIFEST_MALFORMED: Failed to parse {where}: {exc}") from None
    if not _PACKAGE.fullmatch(package):
        raise ApkRefused(f"INSTALL_PARSE_FAILED_BAD_PACKAGE_NAME: Invalid manifest package: {package!r}")
    return package


def apk_path(package: str) -> str:
    """Where an installed package's APK lives (``/data/app/~~…==/PKG-…==/base.apk``)."""
    digest = hashlib.sha256(package.encode()).hexdigest()
    return f"/data/app/~~{digest[:22]}==/{package}-{digest[22:44]}==/base.apk"


def pm_install(ctx: Ctx, args: list[str]) -> int:
    """``pm install [-r] [-t] [-d] [-g] PATH``."""
    paths = [a for a in args if not a.startswith("-")]
    if len(paths) != 1:
        ctx.err("Error: must specify an APK file\n" if not paths else "Error: too many APK files\n")
        return 255
    data = ctx.phone.fs.read(paths[0])
    if data is None:
        ctx.err(f"Exception occurred while executing 'install':\njava.lang.IllegalArgumentException: Error: "
                f"Can't open file: {paths[0]}\n\tat com.android.server.pm.PackageManagerShellCommand."
                "setParamsSize(PackageManagerShellCommand.java:598)\n")
        return 255
    try:
        package = manifest_package(data, "/data/app/vmdl1201594342.tmp/base.apk")
    except ApkRefused as exc:
        ctx.out(f"Failure [{exc}]\n")
        return 1
    ctx.phone.installed[package] = apk_path(package)
    ctx.phone.changed()
    ctx.out("Success\n")
    return 0


def pm_uninstall(ctx: Ctx, args: list[str]) -> int:
    """``pm uninstall PACKAGE``: only packages installed from an APK (the system's stay)."""
    package = args[-1] if args else ""
    if ctx.phone.installed.pop(package, None) is None:
        ctx.out("Failure [DELETE_FAILED_INTERNAL_ERROR]\n")
        return 1
    ctx.phone.force_stop(package)
    ctx.out("Success\n")
    return 0


def write_apk(path: str | Path, package: str, *, label: str = "") -> Path:
    """Write an APK the simulated phone installs as ``package`` (a zip with a plain-text manifest)."""
    if not _PACKAGE.fullmatch(package):
        raise ValueError(f"not an Android package name: {package!r}")
    label_attr = f' android:label="{label}"' if label else ""
    manifest = ('<?xml version="1.0" encoding="utf-8"?>\n<manifest xmlns:android='
                f'"http://schemas.android.com/apk/res/android" package="{package}">\n'
                f"  <application{label_attr}/>\n</manifest>\n")
    target = Path(path)
    with zipfile.ZipFile(target, "w") as apk:
        apk.writestr("AndroidManifest.xml", manifest)
    return target
