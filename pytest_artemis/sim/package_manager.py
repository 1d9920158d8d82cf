"""The simulated phone's package manager: ``pm`` (list, path, grant, revoke, clear) and ``dumpsys package``,
in Android 13-14's formats, over the phone's runtime-permission state (:mod:`permissions`).

``grant``, ``revoke`` and ``clear`` are plain functions on a phone, for whatever sets a phone up; the shell
commands call them. As on Android 11+, ``pm grant``/``revoke`` of a package that is not installed does
nothing and says nothing (the permission service only logs ``Unknown package``); the refusals for a known
package are Android's exceptions, printed after ``Exception occurred while executing 'grant':`` (exit 255).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import installer
from .permissions import (
    CAMERA,
    CHROME,
    CLOCK,
    CONTACTS,
    DEVELOPMENT,
    GRANTED_BY_DEFAULT,
    INSTALL,
    REQUESTED,
    RUNTIME,
    SENSITIVE,
    SETTINGS,
    USER_FIXED,
    USER_SET,
    PermissionRefused,
)
from .shell import Ctx
from .state import DEFAULT_ALARMS, DEFAULT_CONTACTS, ident_hash

if TYPE_CHECKING:
    from .phone import SimPhone

#: Every installed package: the system's and the apps' (whose manifests :data:`REQUESTED` holds).
PACKAGES = sorted({
    "android", "com.android.systemui", "com.android.shell", "com.android.phone",
    "com.android.providers.settings", "com.android.providers.contacts",
    "com.google.android.apps.nexuslauncher", "com.google.android.inputmethod.latin",
    "com.google.android.gms", "com.google.android.permissioncontroller", *REQUESTED,
})
_UIDS = {"android": 1000, SETTINGS: 1000, "com.android.systemui": 10112, CLOCK: 10123, CONTACTS: 10118,
         CHROME: 10131, CAMERA: 10126}
_FLAG_ORDER = (USER_SET, USER_FIXED, GRANTED_BY_DEFAULT, *SENSITIVE)
_FRAMES = ("\tat com.android.server.pm.permission.PermissionManagerServiceImpl.{call}Internal("
           "PermissionManagerServiceImpl.java:{line})",
           "\tat com.android.server.pm.permission.PermissionManagerServiceImpl.{call}("
           "PermissionManagerServiceImpl.java:{top})",
           "\tat com.android.server.pm.permission.PermissionManagerService.{call}("
           "PermissionManagerService.java:577)",
           "\tat android.permission.PermissionManager.{call}(PermissionManager.java:672)",
           "\tat com.android.server.pm.PackageManagerShellCommand.runGrantRevokePermission("
           "PackageManagerShellCommand.java:2802)")


def grant(phone: SimPhone, pkg: str, perm: str) -> None:
    """``pm grant PKG PERM``: PermissionRefused as Android throws it; an unknown package is ignored."""
    _change(phone, pkg, perm, True)


def revoke(phone: SimPhone, pkg: str, perm: str) -> None:
    """``pm revoke PKG PERM``: PermissionRefused as Android throws it; an unknown package is ignored."""
    _change(phone, pkg, perm, False)


def _change(phone: SimPhone, pkg: str, perm: str, granted: bool) -> None:
    if pkg not in PACKAGES:
        return
    phone.permissions.check_change(pkg, perm)
    if perm in RUNTIME:
        phone.permissions.set(pkg, perm, granted, by_user=False)
        phone.changed()


def clear(phone: SimPhone, pkg: str) -> bool:
    """``pm clear PKG`` (and Settings' Clear storage): the app's data and runtime permissions back to their
    first state, the app stopped. False for a package that is not installed."""
    if pkg not in PACKAGES:
        return False
    if pkg == CLOCK:
        phone.alarms[:] = list(DEFAULT_ALARMS)
    elif pkg == CONTACTS:
        phone.contacts[:] = list(DEFAULT_CONTACTS)
    phone.permissions.reset(pkg)
    phone.force_stop(pkg)
    return True


def _refused(ctx: Ctx, verb: str, refusal: PermissionRefused) -> int:
    call = "grantRuntimePermission" if verb == "grant" else "revokeRuntimePermission"
    frames = "\n".join(f.format(call=call, line=1460 if verb == "grant" else 1570, top=1360) for f in _FRAMES)
    ctx.err(f"\nException occurred while executing '{verb}':\n{refusal.java_class}: {refusal}\n{frames}\n")
    return 255


def _grant_revoke(ctx: Ctx, verb: str, args: list[str]) -> int:
    if args[:1] == ["--user"]:
        args = args[2:]
    if not args:
        ctx.err("Error: no package specified\n")
        return 1
    if len(args) < 2:
        ctx.err("Error: no permission specified\n")
        return 1
    try:
        (grant if verb == "grant" else revoke)(ctx.phone, args[0], args[1])
    except PermissionRefused as refusal:
        return _refused(ctx, verb, refusal)
    return 0


def pm(ctx: Ctx, args: list[str]) -> int:
    """``pm list packages [-3] [FILTER]``, ``pm path PKG``, ``pm install|uninstall …``, ``pm grant|revoke
    [--user N] PKG PERM``, ``pm clear [--user N] PKG``."""
    installed = ctx.phone.installed
    if args[:1] in (["install"], ["uninstall"]):
        return (installer.pm_install if args[0] == "install" else installer.pm_uninstall)(ctx, args[1:])
    if args[:2] == ["list", "packages"]:
        opts = args[2:]
        filt = next((a for a in opts if not a.startswith("-")), "")
        names = sorted(installed) if "-3" in opts else sorted({*PACKAGES, *installed})  # -3: not the system's
        ctx.out("".join(f"package:{n}\n" for n in names if filt in n))
        return 0
    if args[:1] == ["path"] and len(args) == 2:
        if args[1] in installed:
            ctx.out(f"package:{installed[args[1]]}\n")
            return 0
        if args[1] not in PACKAGES:
            return 1
        ctx.out(f"package:{_code_path(args[1])}/base.apk\n")
        return 0
    if args[:1] in (["grant"], ["revoke"]):
        return _grant_revoke(ctx, args[0], args[1:])
    if args[:1] == ["clear"] and len(args) in (2, 4):
        if clear(ctx.phone, args[-1]):
            ctx.out("Success\n")
            return 0
        ctx.err("Failed\n")
        return 1
    ctx.err("Error: unknown command\n")
    return 1


def _code_path(pkg: str) -> str:
    return f"/system/priv-app/{pkg.rsplit('.', 1)[-1]}"


def _flags(flags: frozenset[str]) -> str:
    return "|".join(f for f in _FLAG_ORDER if f in flags)


def _package_block(phone: SimPhone, pkg: str) -> list[str]:
    """One ``Package [PKG]`` block of ``dumpsys package``."""
    requested = REQUESTED.get(pkg, ())
    code, uid = _code_path(pkg), _UIDS.get(pkg, 10100 + PACKAGES.index(pkg))
    lines = [f"  Package [{pkg}] ({ident_hash('pkg', pkg)}):", f"    appId={uid}",
             f"    pkg=Package{{{ident_hash('pkgobj', pkg)} {pkg}}}", f"    codePath={code}",
             f"    resourcePath={code}", f"    legacyNativeLibraryDir={code}/lib",
             "    extractNativeLibs=false",
             "    primaryCpuAbi=null", "    secondaryCpuAbi=null", "    cpuAbiOverride=null",
             "    versionCode=34 minSdk=34 targetSdk=34", "    versionName=14", "    usesNonSdkApi=false",
             "    splits=[base]", "    apkSigningVersion=3",
             "    flags=[ SYSTEM HAS_CODE ALLOW_CLEAR_USER_DATA ALLOW_BACKUP ]", "    forceQueryable=false",
             f"    dataDir=/data/user/0/{pkg}",
             "    supportsScreens=[small, medium, large, xlarge, resizeable, anyDensity]",
             "    timeStamp=2009-01-01 00:00:00", "    lastUpdateTime=2009-01-01 00:00:00",
             "    installerPackageName=null", "    installPermissionsFixed=true",
             "    pkgFlags=[ SYSTEM HAS_CODE ALLOW_CLEAR_USER_DATA ALLOW_BACKUP ]"]
    if requested:
        lines += ["    requested permissions:", *(f"      {p}" for p in requested)]
    install = [p for p in requested if p in INSTALL or p in DEVELOPMENT]
    if install:
        lines += ["    install permissions:", *(f"      {p}: granted=true" for p in install)]
    stopped = str(pkg in phone.stopped).lower()
    lines += [f"    User 0: ceDataInode={uid * 37} installed=true hidden=false suspended=false "
              f"distractionFlags=0 stopped={stopped} notLaunched=false enabled=0 instant=false virtual=false",
              "      installReason=0", "      firstInstallTime=2009-01-01 00:00:00",
              "      uninstallReason=0"]
    if "android.permission.INTERNET" in requested:
        lines.append("      gids=[3003]")
    lines.append("      runtime permissions:")
    for perm in (p for p in requested if p in RUNTIME):
        state = phone.permissions.grant(pkg, perm)
        lines.append(f"        {perm}: granted={str(state.granted).lower()}, flags=[ {_flags(state.flags)}]")
    return lines


def dumpsys_package(ctx: Ctx, args: list[str]) -> None:
    """``dumpsys package [PKG]``: the Packages section for PKG (every package without one; nothing for a
    package that is not installed)."""
    names = [a for a in args if not a.startswith("-")]
    chosen = [n for n in PACKAGES if n in names] if names else PACKAGES
    if not chosen:
        return
    lines = ["Packages:"]
    for pkg in chosen:
        lines += _package_block(ctx.phone, pkg)
    ctx.out("\n".join(lines) + "\n")
