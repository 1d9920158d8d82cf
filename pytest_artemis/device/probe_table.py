"""The enumerated probe table: read-only device queries as argv templates with validated parameters."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pytest_artemis.contracts.output_refs import OutputRef, is_output_ref, output_model, output_name

from .errors import ProbeRefused

if TYPE_CHECKING:
    from pytest_artemis.contracts import ProbeSpec

    from .parsers import Parsed, Parser

#: Characters no parameter may ever contain, whatever its pattern says: shell metacharacters,
#: quotes, whitespace and control characters (a last line of defence behind the per-param patterns).
_UNSAFE = re.compile(r"[\s;&|$`<>()'\"\\*?~!{}\[\]#^\x00-\x1f\x7f]")
#: Tokens that would make a command change state; refused as parameter values and as template words.
STATE_CHANGING = frozenset({
    "set", "put", "delete", "insert", "update", "reset", "call", "write", "remove", "clear",
    "unplug", "kill", "force-stop", "install", "uninstall", "enable", "disable", "grant", "revoke",
    "reboot", "rm", "mv", "cp", "start", "stop", "broadcast", "--bind", "--method", "--arg", "--extra",
    "--where", "unset", "setprop", "input", "svc", "cmd",
})
_PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)\}")
_KIND_NAME = re.compile(r"[a-z][a-z0-9_]{0,39}")


class BuiltinParser:
    """A parser of ``parsers`` by name, imported on its first call: collection checks probe checks against
    the table without parsing any output, so collecting a test module does not load the parsers.

    Written out rather than a frozen dataclass, whose generated methods are compiled at every import (a
    few tenths of a millisecond of each collection that validates a probe check).
    """

    __slots__ = ("name",)
    name: str

    def __init__(self, name: str) -> None:
        object.__setattr__(self, "name", name)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"BuiltinParser is immutable (cannot set {name!r})")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BuiltinParser) and other.name == self.name

    def __hash__(self) -> int:
        return hash(self.name)

    def __repr__(self) -> str:
        return f"BuiltinParser(name={self.name!r})"

    def __call__(self, raw: str, params: Mapping[str, str]) -> Parsed:
        from . import parsers

        parse: Parser = getattr(parsers, self.name)
        return parse(raw, params)


@dataclass(frozen=True)
class ProbeKind:
    """One probe type: an argv template, parameter patterns, a parser and the output model it gives.

    ``argv`` tokens are literal words or a whole-token placeholder ``{name}``; ``optional`` maps an
    optional parameter to the tokens appended when it is given. Every parameter needs a pattern in
    ``params`` (matched with ``re.fullmatch``). ``parser(raw, params)`` returns an ``output``
    instance or ``Unreadable``; without one, the output is the text (``TextOutput``). ``output`` is the
    model class, or the name of a built-in one (``"BatteryOutput"``: the built-in kinds name theirs, so
    collecting probe checks does not load the output models).
    """

    name: str
    argv: tuple[str, ...]
    params: Mapping[str, str] = field(default_factory=dict)
    parser: Parser = BuiltinParser("parse_text")
    optional: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    description: str = ""
    output: OutputRef = "TextOutput"
    example: Mapping[str, str] = field(default_factory=dict)
    """Parameters of one typical call, shown to the checker with the kind's syntax."""
    baseline: tuple[Mapping[str, str], ...] = ()
    """The calls the harness makes before the agent's first action, to know what held before the run
    (state listings only: a transient reading such as the battery level says nothing a run brings about)."""

    def required(self) -> frozenset[str]:
        """Parameters that must be given (those not listed as optional)."""
        return frozenset(self.params) - frozenset(self.optional)


def _check_kind(kind: ProbeKind) -> None:
    if not _KIND_NAME.fullmatch(kind.name):
        raise ProbeRefused(f"probe kind name {kind.name!r} must match {_KIND_NAME.pattern}")
    tokens = list(kind.argv) + [t for extra in kind.optional.values() for t in extra]
    if not kind.argv:
        raise ProbeRefused(f"probe {kind.name!r}: empty argv template")
    if not is_output_ref(kind.output):
        raise ProbeRefused(f"probe {kind.name!r}: output must be a ProbeOutput model or a built-in "
                           f"one's name, got {kind.output!r}")
    for token in tokens:
        name = _PLACEHOLDER.fullmatch(token)
        if name:
            if name.group(1) not in kind.params:
                raise ProbeRefused(f"probe {kind.name!r}: placeholder {token} has no pattern")
            continue
        if "{" in token or "}" in token or _UNSAFE.search(token) or not token:
            raise ProbeRefused(f"probe {kind.name!r}: template word {token!r} is not a plain word")
        if token.lower() in STATE_CHANGING:
            raise ProbeRefused(f"probe {kind.name!r}: template word {token!r} changes device state")
    for param in kind.optional:
        if param not in kind.params:
            raise ProbeRefused(f"probe {kind.name!r}: optional {param!r} has no pattern")
    for param, pattern in kind.params.items():
        try:
            re.compile(pattern)
        except re.error as exc:
            raise ProbeRefused(f"probe {kind.name!r}: bad pattern for {param!r}: {exc}") from exc


def _check_value(kind: str, param: str, value: str, pattern: str) -> None:
    if not isinstance(value, str) or not value:
        raise ProbeRefused(f"probe {kind!r}: parameter {param!r} must be a non-empty string")
    if _UNSAFE.search(value):
        raise ProbeRefused(f"probe {kind!r}: parameter {param}={value!r} contains whitespace, quotes "
                           "or shell metacharacters")
    if value.startswith("-"):
        raise ProbeRefused(f"probe {kind!r}: parameter {param}={value!r} looks like an option")
    if value.lower() in STATE_CHANGING:
        raise ProbeRefused(f"probe {kind!r}: parameter {param}={value!r} is a state-changing word")
    if re.fullmatch(pattern, value) is None:
        raise ProbeRefused(f"probe {kind!r}: parameter {param}={value!r} does not match {pattern}")


class ProbeTable:
    """The set of probe kinds a device may run; anything else is refused."""

    def __init__(self, kinds: tuple[ProbeKind, ...] = ()) -> None:
        self._kinds: dict[str, ProbeKind] = {}
        for kind in kinds:
            self.register(kind)

    def register(self, kind: ProbeKind) -> None:
        """Add a probe kind (the plugin hook's entry point); its template is checked like the built-ins."""
        _check_kind(kind)
        if kind.name in self._kinds:
            raise ProbeRefused(f"probe kind {kind.name!r} is already registered")
        self._kinds[kind.name] = kind

    def copy(self) -> ProbeTable:
        """An independent table with the same kinds."""
        return ProbeTable(tuple(self._kinds.values()))

    def __contains__(self, name: object) -> bool:
        return name in self._kinds

    def __iter__(self) -> Iterator[ProbeKind]:
        return iter(self._kinds.values())

    def kind(self, name: str) -> ProbeKind:
        """The registered kind, or ProbeRefused."""
        try:
            return self._kinds[name]
        except KeyError:
            known = ", ".join(sorted(self._kinds))
            raise ProbeRefused(f"unknown probe kind {name!r} (known: {known})") from None

    def validate(self, spec: ProbeSpec) -> None:
        """Raise ProbeRefused unless the kind is known and every parameter is expected and valid."""
        kind = self.kind(spec.kind)
        # Key views compare without building sets: collection validates every probe check of every test.
        if not spec.params.keys() <= kind.params.keys():
            unknown = sorted(set(spec.params) - set(kind.params))
            raise ProbeRefused(f"probe {spec.kind!r}: unknown parameter(s) {', '.join(unknown)}")
        if len(spec.params) < len(kind.params):
            missing = sorted(kind.required() - set(spec.params))
            if missing:
                raise ProbeRefused(f"probe {spec.kind!r}: missing parameter(s) {', '.join(missing)}")
        for param, value in spec.params.items():
            _check_value(spec.kind, param, value, kind.params[param])

    def argv(self, spec: ProbeSpec) -> list[str]:
        """The validated argv for a spec (each placeholder replaced by one whole token)."""
        self.validate(spec)
        kind = self.kind(spec.kind)
        tokens = list(kind.argv)
        for param, extra in kind.optional.items():
            if param in spec.params:
                tokens.extend(extra)

        def fill(token: str) -> str:
            m = _PLACEHOLDER.fullmatch(token)
            return spec.params[m.group(1)] if m else token

        return [fill(t) for t in tokens]

    def parse(self, spec: ProbeSpec, raw: str) -> Parsed:
        """The kind's typed output for a probe's raw output, or Unreadable with the reason (also when
        a plugin's parser raises or returns another model: its output could not be read). A built-in
        parser never raises on any text (they are fuzzed); if one does, that bug in our code propagates."""
        from pytest_artemis.contracts.probe_outputs import Unreadable

        kind = self.kind(spec.kind)
        if kind in _BUILTIN_KINDS:
            parsed = kind.parser(raw, spec.params)
        else:
            try:
                parsed = kind.parser(raw, spec.params)
            except Exception as exc:  # a plugin parser's bug must not decide or crash a check
                return Unreadable(reason=f"the {kind.name!r} parser raised {type(exc).__name__}: {exc}"[:300])
        if isinstance(parsed, Unreadable | output_model(kind.output)):
            return parsed
        return Unreadable(reason=f"the {kind.name!r} parser returned {type(parsed).__name__}, "
                                 f"not {output_name(kind.output)}")


_IDENT = r"[A-Za-z0-9_.:-]{1,128}"
#: ``content://authority/path`` with plain path segments only (no query string, no fragment).
CONTENT_URI = r"content://[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*"

_BUILTIN_KINDS = (
    ProbeKind("alarms", ("dumpsys", "alarm"), parser=BuiltinParser("parse_alarms"), output="AlarmsOutput",
              description="the next alarm clock and the pending alarms, with the app that set each",
              baseline=({},)),
    ProbeKind("battery", ("dumpsys", "battery"), parser=BuiltinParser("parse_battery"),
              output="BatteryOutput", description="battery level, status and power source"),
    ProbeKind("foreground", ("dumpsys", "activity", "activities"), parser=BuiltinParser("parse_foreground"),
              output="ForegroundOutput",
              description="package, activity and user of the top resumed activity"),
    ProbeKind("window_focus", ("dumpsys", "window"), parser=BuiltinParser("parse_window_focus"),
              output="WindowFocusOutput",
              description="the window holding input focus on the focused display (crash/ANR dialogs)"),
    ProbeKind("notifications", ("dumpsys", "notification", "--noredact"),
              parser=BuiltinParser("parse_notifications"), output="NotificationsOutput",
              description="posted notifications", baseline=({},)),
    ProbeKind("setting", ("settings", "get", "{ns}", "{key}"),
              params={"ns": r"system|secure|global", "key": _IDENT}, parser=BuiltinParser("parse_setting"),
              output="SettingOutput", description="one value from the settings provider",
              example={"ns": "global", "key": "wifi_on"}),
    ProbeKind("settings", ("settings", "list", "{ns}"), params={"ns": r"system|secure|global"},
              description="every key=value of one settings namespace", example={"ns": "global"},
              baseline=({"ns": "global"}, {"ns": "secure"}, {"ns": "system"})),
    ProbeKind("content", ("content", "query", "--uri", "{uri}"),
              params={"uri": CONTENT_URI, "projection": r"[A-Za-z0-9_]+(:[A-Za-z0-9_]+)*"},
              optional={"projection": ("--projection", "{projection}")},
              parser=BuiltinParser("parse_content"), output="ContentOutput",
              description="rows of a content provider query (projection: columns joined by ':')",
              example={"uri": "content://com.android.contacts/data/phones",
                       "projection": "display_name:data1"},
              baseline=({"uri": "content://com.android.contacts/data/phones",
                         "projection": "display_name:data1"},)),
    ProbeKind("packages", ("pm", "list", "packages"), parser=BuiltinParser("parse_packages"),
              output="PackagesOutput", description="installed package names", baseline=({},)),
    ProbeKind("prop", ("getprop", "{key}"), params={"key": r"[A-Za-z0-9_.-]{1,128}"},
              parser=BuiltinParser("parse_prop"), output="PropOutput", description="one system property",
              example={"key": "ro.build.version.sdk"}),
)


def builtin_probes() -> ProbeTable:
    """A new table holding the built-in probe kinds (each session builds its own and adds plugin kinds)."""
    return ProbeTable(_BUILTIN_KINDS)
