"""``am``: start an activity by component or by intent (action, data, type, categories, extras) with real
Android's output and errors, and force-stop. An intent is resolved to the app that handles it and handed
to its module's optional ``on_intent(phone, action, extras, data, mime) -> bool`` (False: not handled)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .apps import APPS
from .shell import Ctx

MAIN, LAUNCHER_CATEGORY = "android.intent.action.MAIN", "android.intent.category.LAUNCHER"
VIEW = "android.intent.action.VIEW"
FLAG_ACTIVITY_NEW_TASK = 0x10000000
_CLOCK, _CONTACTS, _SETTINGS = ("com.google.android.deskclock", "com.android.contacts",
                                "com.android.settings")
BROWSER = "com.android.chrome"
#: Action → the app whose manifest declares it (the intent filters of the sim's apps).
ACTIONS: dict[str, str] = {
    "android.intent.action.SET_ALARM": _CLOCK,
    "android.intent.action.SET_TIMER": _CLOCK,
    "android.intent.action.SHOW_ALARMS": _CLOCK,
    "android.intent.action.SHOW_TIMERS": _CLOCK,
    "android.intent.action.INSERT": _CONTACTS,
    "android.intent.action.INSERT_OR_EDIT": _CONTACTS,
}
#: Settings actions → the Settings activity that handles each.
SETTINGS_ACTIONS: dict[str, str] = {
    "android.settings.SETTINGS": "com.android.settings.Settings",
    "android.settings.WIRELESS_SETTINGS": "com.android.settings.Settings$NetworkDashboardActivity",
    "android.settings.WIFI_SETTINGS": "com.android.settings.Settings$WifiSettingsActivity",
    "android.settings.BLUETOOTH_SETTINGS": "com.android.settings.Settings$ConnectedDeviceDashboardActivity",
    "android.settings.DISPLAY_SETTINGS": "com.android.settings.Settings$DisplaySettingsActivity",
}
_WEB = ("http", "https")
_SENSITIVE = ("tel", "sip", "sms", "smsto", "mailto", "nfc")
_EXTRA_KINDS = {"--es": "string", "--ei": "int", "--ez": "bool", "--el": "long", "--esa": "string[]",
                "--eia": "int[]", "--ef": "float", "-e": "string"}


class AmError(Exception):
    """What ``am`` prints for a command line it refuses (an exception report, exit 255)."""


@dataclass
class Intent:
    """An intent as ``am start`` builds it from its options."""

    action: str | None = None
    data: str | None = None
    mime: str | None = None
    categories: list[str] = field(default_factory=list)
    component: str | None = None
    package: str | None = None
    extras: dict[str, object] = field(default_factory=dict)
    flags: int = 0

    def describe(self) -> str:
        """``Intent { act=… cat=[…] dat=… typ=… flg=… pkg=… cmp=… (has extras) }``, as Android prints it (the
        data URI shown safely: no path, query or number)."""
        parts = [f"act={self.action}"] if self.action else []
        parts += [f"cat=[{','.join(self.categories)}]"] if self.categories else []
        parts += [f"dat={safe_uri(self.data)}"] if self.data else []
        parts += [f"typ={self.mime}"] if self.mime else []
        parts += [f"flg=0x{self.flags:x}"] if self.flags else []
        parts += [f"pkg={self.package}"] if self.package else []
        parts += [f"cmp={short_component(self.component)}"] if self.component else []
        parts += ["(has extras)"] if self.extras else []
        return "Intent { " + " ".join(parts) + " }"


def safe_uri(uri: str) -> str:
    """``Uri.toSafeString()``: a web link's host only (``https://example.com/...``), a phone number's
    digits as ``x``, another scheme's authority."""
    scheme, colon, rest = uri.partition(":")
    if not colon:
        return uri
    if scheme.lower() in _SENSITIVE:
        return scheme + ":" + "".join(c if c in "-@." else "x" for c in rest)
    if rest.startswith("//"):
        authority = rest[2:].split("/", 1)[0].split("?", 1)[0].split("#", 1)[0]
        return f"{scheme}://{authority}/..."
    return f"{scheme}:..."


def short_component(component: str) -> str:
    """``pkg/.Activity`` when the class is in the package, as ``ComponentName.flattenToShortString``."""
    pkg, _, cls = component.partition("/")
    full = pkg + cls if cls.startswith(".") else cls
    return f"{pkg}/{full[len(pkg):]}" if full.startswith(pkg + ".") else f"{pkg}/{full}"


def _extra(kind: str, text: str) -> object:
    try:
        if kind in ("int", "long"):
            return int(text, 0)
        if kind == "float":
            return float(text)
        if kind == "int[]":
            return [int(v, 0) for v in text.split(",")]
    except ValueError:
        raise AmError(f"java.lang.NumberFormatException: For input string: \"{text}\"") from None
    if kind == "bool":
        if text.lower() in ("true", "t"):
            return True
        if text.lower() in ("false", "f"):
            return False
        try:
            return int(text, 0) != 0
        except ValueError:
            raise AmError(f"java.lang.IllegalArgumentException: Invalid boolean value: {text}") from None
    if kind == "string[]":
        return [v.replace("\\,", ",") for v in re.split(r"(?<!\\),", text)]
    return text


def parse_start(args: list[str]) -> tuple[Intent, set[str]]:
    """The intent and the flags (``-W``, ``-S``) of ``am start`` options; AmError for a bad option."""
    intent, flags, i = Intent(), set(), 0

    def value(n: int = 1) -> list[str]:
        got = args[i + 1:i + 1 + n]
        if len(got) < n:
            raise AmError(f"java.lang.IllegalArgumentException: Argument expected after \"{args[i]}\"")
        return got

    while i < len(args):
        opt = args[i]
        if opt in ("-W", "-S", "-D", "-N", "-R"):
            flags.add(opt)
            i += 1
            continue
        if opt in _EXTRA_KINDS:
            key, text = value(2)
            intent.extras[key] = _extra(_EXTRA_KINDS[opt], text)
            i += 3
            continue
        if opt in ("-a", "-d", "-t", "-c", "-n", "-p", "-f", "--user", "--activity-brought-to-front"):
            (arg,) = value(1)
            if opt == "-a":
                intent.action = arg
            elif opt == "-d":
                intent.data = arg
            elif opt == "-t":
                intent.mime = arg
            elif opt == "-c":
                intent.categories.append(arg)
            elif opt == "-n":
                if "/" not in arg:
                    raise AmError(f"java.lang.IllegalArgumentException: Bad component name: {arg}")
                intent.component = arg
            elif opt == "-p":
                intent.package = arg
            elif opt == "-f":
                intent.flags |= int(arg, 0)
            i += 2
            continue
        if opt.startswith("-"):
            raise AmError(f"java.lang.IllegalArgumentException: Unknown option: {opt}")
        intent.data = intent.data or opt  # a bare URI, as `am start URI`
        if intent.action is None:
            intent.action = VIEW
        i += 1
    return intent, flags


def resolve(intent: Intent) -> str | None:
    """The package whose app handles ``intent``, None when none does."""
    if intent.component:
        return intent.component.split("/", 1)[0]
    if intent.action in SETTINGS_ACTIONS:
        return _SETTINGS
    if intent.action == MAIN and intent.package in APPS:
        return intent.package
    if intent.action == VIEW and intent.data:
        scheme = intent.data.partition(":")[0].lower()
        target = BROWSER if scheme in _WEB else _CONTACTS if intent.data.startswith(
            ("content://com.android.contacts/", "content://contacts/")) else None
    else:
        target = ACTIONS.get(intent.action or "")
    if target is None or (intent.package and intent.package != target) or target not in APPS:
        return None
    return target


def _start(ctx: Ctx, args: list[str]) -> int:
    try:
        intent, flags = parse_start(args)
    except AmError as exc:
        ctx.err(f"Exception occurred while executing 'start':\n{exc}\n")
        return 255
    p = ctx.phone
    ctx.out(f"Starting: {intent.describe()}\n")
    target = resolve(intent)
    if target is not None and "-S" in flags:
        p.force_stop(target)
    started = _deliver(ctx, intent, target)
    if started is None:
        return 1
    if "-W" in flags:
        pkg, activity = p.foreground()
        ctx.out(f"Status: ok\nLaunchState: COLD\nActivity: {short_component(f'{pkg}/{activity}')}\n"
                "TotalTime: 412\nWaitTime: 415\nComplete\n")
    return 0


def _deliver(ctx: Ctx, intent: Intent, target: str | None) -> bool | None:
    """Start the component, or hand the intent to the app that handles it; None (after the error Android
    prints) when nothing handles it."""
    p = ctx.phone
    if intent.component:
        pkg, _, cls = intent.component.partition("/")
        full = pkg + cls if cls.startswith(".") else cls
        if not p.start_activity(pkg, full, intent.data or ""):
            ctx.err(f"Error type 3\nError: Activity class {{{pkg}/{full}}} does not exist.\n")
            return None
        return True
    if target == _SETTINGS and intent.action in SETTINGS_ACTIONS:
        return p.start_activity(_SETTINGS, SETTINGS_ACTIONS[intent.action])
    if target is not None and intent.action == MAIN:
        p.launch(target)
        return True
    handler = getattr(APPS.get(target or ""), "on_intent", None)
    if handler is not None and handler(p, intent.action or "", dict(intent.extras), intent.data, intent.mime):
        p.changed()
        return True
    intent.flags |= FLAG_ACTIVITY_NEW_TASK
    ctx.err(f"Error: Activity not started, unable to resolve {intent.describe()}\n")
    return None


def am(ctx: Ctx, args: list[str]) -> int:
    """Entry point of the ``am`` shell command: ``start``/``start-activity``, ``force-stop``, ``kill``."""
    if args[:1] in (["start"], ["start-activity"]):
        return _start(ctx, args[1:])
    if args[:1] in (["force-stop"], ["kill"]) and len(args) >= 2:
        ctx.phone.force_stop(args[-1])
        return 0
    ctx.err("Error: unknown command '" + " ".join(args[:1]) + "'\n")
    return 1
