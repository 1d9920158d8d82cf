"""DeviceSetup: the deterministic device steps a test performs before its run, each recorded with the state
it left (settings, apps, permissions, links, seeded data), never the agent's doing."""

from __future__ import annotations

import shlex
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Literal

from pydantic import Field

from pytest_artemis.contracts import ArtemisError
from pytest_artemis.contracts._base import Contract
from pytest_artemis.contracts.probe_outputs import (
    PACKAGE_PATTERN,
    AlarmsOutput,
    ContentOutput,
    ForegroundOutput,
    PackagesOutput,
)

from . import intents
from .base import Device
from .errors import DeviceCommandFailed

SettingValue = str | int | float | bool
"""A value for ``settings put``: booleans are written ``1``/``0``, numbers as Android prints them."""
Namespace = Literal["system", "secure", "global"]
NAMESPACES: tuple[str, ...] = ("system", "secure", "global")
_CONTACTS_URI = "content://com.android.contacts/data/phones"
_PUSH_DIR = "/data/local/tmp"
_CONTACTS_APP = "com.android.contacts"


class SetupStep(Contract):
    """One step the harness performed on the device before a run: what was asked, the shell commands it
    ran with what they printed, and the state it read before and after (what it left)."""

    action: str = Field(min_length=1)
    """The setup method (``put_setting``, ``install``, ``reset``, ``isolate`` …)."""
    args: dict[str, str] = Field(default_factory=dict)
    commands: tuple[str, ...] = ()
    """Each command line as the device shell ran it."""
    output: str = ""
    """What the commands printed (trimmed)."""
    before: str = ""
    after: str = ""
    """The state the step left, read back from the device (a setting's value, the foreground app …)."""
    touches: tuple[str, ...] = ()
    """The state the step writes, by the keys the found-state comparison uses (``settings global
    bluetooth_on``, ``packages``, ``contacts``)."""


class SetupFailed(ArtemisError):
    """A setup step the device refused (a bad namespace, an APK that does not install, a link no app
    opens): the test's precondition could not be put in place."""


def setting_text(value: SettingValue) -> str:
    """How ``settings put`` is given ``value``: ``True``/``False`` as ``1``/``0``."""
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)


def _check_package(package: str, what: str) -> None:
    import re

    if not isinstance(package, str) or not re.fullmatch(PACKAGE_PATTERN, package):
        raise ValueError(f"{what}: not an Android package name: {package!r}")


class DeviceSetup:
    """The setup steps of one test on its device: every method runs its shell commands (the same on a
    real phone, an emulator and the simulated phone), checks what they printed, reads back the state it
    left and records it in ``steps``; the run journals them before its baseline.

    A refused step raises ``SetupFailed`` naming the step and what the device said.
    """

    def __init__(self, device: Device, *, on_step: Callable[[SetupStep], None] | None = None) -> None:
        self.device = device
        self.steps: list[SetupStep] = []
        """Every step taken so far, in order (the runs journal the ones not journaled yet)."""
        self._on_step = on_step
        self._journaled = 0

    def __repr__(self) -> str:
        return f"<DeviceSetup {self.device.name}: {len(self.steps)} step(s)>"

    # -- recording ------------------------------------------------------------------------------

    def take_new(self) -> list[SetupStep]:
        """The steps taken since the last call (a run journals them)."""
        new = self.steps[self._journaled:]
        self._journaled = len(self.steps)
        return new

    def record(self, step: SetupStep) -> SetupStep:
        """Keep ``step`` (what a caller of ``device`` did by other means, e.g. the reset)."""
        self.steps.append(step)
        if self._on_step is not None:
            self._on_step(step)
        return step

    def _run(self, argv: Sequence[str], what: str) -> tuple[str, str]:
        """Run ``argv``: (its command line, its output); SetupFailed when it exits non-zero or says
        ``Error``/``Failure``/``Exception`` as Android's shell tools do on failures they exit 0 from."""
        line = shlex.join(argv)
        try:
            out = self.device.check(argv)
        except DeviceCommandFailed as exc:
            if exc.exit_code is None:
                raise
            raise SetupFailed(f"{what}: the device refused `{line}` (exit {exc.exit_code}): "
                              f"{exc.output.strip()[:400]}") from None
        if any(word in out for word in ("Error:", "Failure [", "Exception occurred", "Error type")):
            raise SetupFailed(f"{what}: the device refused `{line}`: {out.strip()[:400]}")
        return line, out.strip()

    def _step(self, action: str, args: Mapping[str, object], argvs: Sequence[Sequence[str]], *,
              before: str = "", after: Callable[[], str] | None = None, touches: Sequence[str] = ()
              ) -> SetupStep:
        what = f"{action}({', '.join(f'{k}={v!r}' for k, v in args.items())})"
        lines, outputs = [], []
        for argv in argvs:
            line, out = self._run(argv, what)
            lines.append(line)
            outputs.extend([out] if out else [])
        return self.record(SetupStep(action=action, args={k: str(v) for k, v in args.items()},
                                     commands=tuple(lines), output="\n".join(outputs)[:2000], before=before,
                                     after=after() if after is not None else "", touches=tuple(touches)))

    # -- reading state --------------------------------------------------------------------------

    def get_setting(self, namespace: Namespace, key: str) -> str | None:
        """A setting's value (``settings get``), None when unset; nothing is recorded."""
        _check_namespace(namespace)
        parsed = self.device.probe("setting", ns=namespace, key=key).parsed
        return getattr(parsed, "value", None)

    def foreground(self) -> str:
        """The package of the activity in front (``dumpsys activity activities``)."""
        parsed = self.device.probe("foreground").parsed
        return (parsed.package or "") if isinstance(parsed, ForegroundOutput) else ""

    def _packages(self) -> tuple[str, ...]:
        parsed = self.device.probe("packages").parsed
        return parsed.packages if isinstance(parsed, PackagesOutput) else ()

    def _contacts(self) -> str:
        parsed = self.device.probe("content", uri=_CONTACTS_URI, projection="display_name:data1").parsed
        if not isinstance(parsed, ContentOutput):
            return "unreadable"
        return "; ".join(f"{r.get('display_name')} {r.get('data1')}" for r in parsed.rows) or "none"

    def _alarms(self) -> str:
        parsed = self.device.probe("alarms").parsed
        if not isinstance(parsed, AlarmsOutput):
            return "unreadable"
        clocks = sorted({a.hhmm for a in parsed.next_alarm_clocks} | {a.hhmm for a in parsed.alarms
                                                                    if a.alarm_clock and a.hhmm})
        return f"alarm clocks at {', '.join(clocks)}" if clocks else "no alarm clock set"

    # -- settings -------------------------------------------------------------------------------

    def put_setting(self, namespace: Namespace, key: str, value: SettingValue) -> SetupStep:
        """``settings put NAMESPACE KEY VALUE``, reading the value before and after."""
        _check_namespace(namespace)
        text = setting_text(value)
        old = self.get_setting(namespace, key)
        return self._step("put_setting", {"namespace": namespace, "key": key, "value": text},
                          [["settings", "put", namespace, key, text]], before=_shown(old),
                          after=lambda: _shown(self.get_setting(namespace, key)),
                          touches=[f"settings {namespace} {key}"])

    def put_settings(self, values: Mapping[str, Mapping[str, SettingValue]]) -> list[SetupStep]:
        """Several settings at once: ``{"global": {"bluetooth_on": 1}, "system": {...}}``."""
        if not isinstance(values, Mapping):
            raise TypeError(f"settings: a mapping of namespace to {{key: value}}, got "
                            f"{type(values).__name__}")
        return [self.put_setting(ns, key, value)  # type: ignore[arg-type]
                for ns, pairs in values.items() for key, value in _pairs(ns, pairs)]

    # -- apps -----------------------------------------------------------------------------------

    def launch(self, package: str, activity: str | None = None) -> SetupStep:
        """Start an app (its launcher activity, or ``activity``) and read which app is in front."""
        _check_package(package, "launch")
        argv = intents.launch_argv(package, activity)
        return self._step("launch", {"package": package, **({"activity": activity} if activity else {})},
                          [argv], after=lambda: f"foreground {self.foreground() or '?'}")

    def stop(self, package: str) -> SetupStep:
        """``am force-stop PACKAGE`` (its data is kept)."""
        _check_package(package, "stop")
        return self._step("stop", {"package": package}, [["am", "force-stop", package]],
                          after=lambda: f"foreground {self.foreground() or '?'}")

    def home(self) -> SetupStep:
        """Press HOME: the launcher in front."""
        return self._step("home", {}, [["input", "keyevent", "KEYCODE_HOME"]],
                          after=lambda: f"foreground {self.foreground() or '?'}")

    def clear_data(self, package: str) -> SetupStep:
        """``pm clear PACKAGE``: the app's data, caches and runtime permission grants are wiped."""
        _check_package(package, "clear_data")
        return self._step("clear_data", {"package": package}, [["pm", "clear", package]],
                          touches=[f"app {package}", *(["contacts"] if package == _CONTACTS_APP else [])])

    def install(self, apk: str | Path) -> SetupStep:
        """Install (or replace) an APK from the host: pushed to the device, ``pm install -r -t``, removed."""
        path = Path(apk)
        if not path.is_file():
            raise SetupFailed(f"install({str(apk)!r}): no such file on this machine")
        remote = f"{_PUSH_DIR}/artemis-install-{path.stem[:40] or 'app'}.apk"
        before = self._packages()
        self.device.push(path.read_bytes(), remote)
        try:
            step = self._step("install", {"apk": str(path)}, [["pm", "install", "-r", "-t", remote]],
                              after=lambda: _installed(before, self._packages()), touches=["packages"])
        finally:
            self.device.check(["rm", "-f", remote])
        return step

    def grant(self, package: str, permission: str) -> SetupStep:
        """``pm grant PACKAGE PERMISSION`` (a runtime permission), reading its state back."""
        return self._permission("grant", package, permission)

    def revoke(self, package: str, permission: str) -> SetupStep:
        """``pm revoke PACKAGE PERMISSION``, reading its state back."""
        return self._permission("revoke", package, permission)

    def _permission(self, verb: Literal["grant", "revoke"], package: str, permission: str) -> SetupStep:
        _check_package(package, verb)
        intents.check_word(permission, f"{verb}: permission")
        return self._step(verb, {"package": package, "permission": permission},
                          [["pm", verb, package, permission]],
                          after=lambda: self._permission_state(package, permission),
                          touches=[f"app {package}"])

    def _permission_state(self, package: str, permission: str) -> str:
        out = self.device.check(["dumpsys", "package", package])
        line = next((ln.strip() for ln in out.splitlines() if ln.strip().startswith(permission + ":")), "")
        return line or f"{permission}: not listed by dumpsys package"

    # -- links and seeded data ------------------------------------------------------------------

    def open_url(self, url: str, package: str | None = None) -> SetupStep:
        """Open a URL or deep link (``am start -W -a android.intent.action.VIEW -d URL``), in ``package``
        when given; the app in front afterwards is read back."""
        if package is not None:
            _check_package(package, "open_url")
        return self._step("open_url", {"url": url, **({"package": package} if package else {})},
                          [intents.view_argv(url, package)],
                          after=lambda: f"foreground {self.foreground() or '?'}")

    def add_contact(self, name: str, phone: str | None = None, email: str | None = None) -> SetupStep:
        """A contact seeded through the contacts provider (``content insert``: a raw contact, then its
        name, phone and email rows), as Android's own apps store one."""
        before = self._contacts()
        what = f"add_contact({name!r})"
        commands, outputs = [], []
        line, out = self._run(intents.raw_contact_argv(), what)
        commands.append(line)
        outputs.append(out)
        ids_line, ids = self._run(intents.raw_contact_ids_argv(), what)
        raw_id = intents.newest_id(ids)
        if raw_id is None:
            raise SetupFailed(f"{what}: no raw contact id after the insert: {ids[:300]}")
        for argv in intents.contact_data_argvs(raw_id, name, phone, email):
            line, out = self._run(argv, what)
            commands.append(line)
            outputs.append(out)
        args = {"name": name, **({"phone": phone} if phone else {}), **({"email": email} if email else {})}
        return self.record(SetupStep(action="add_contact", args=args, commands=(*commands[:1], ids_line,
                                                                                 *commands[1:]),
                                     output="\n".join(o for o in outputs if o)[:2000], before=before,
                                     after=self._contacts(), touches=("contacts",)))

    def set_alarm(self, hour: int, minute: int, *, label: str | None = None) -> SetupStep:
        """An alarm set through the clock app's own intent (``SET_ALARM`` with ``SKIP_UI``)."""
        before = self._alarms()
        args: dict[str, object] = {"hour": hour, "minute": minute, **({"label": label} if label else {})}
        return self._step("set_alarm", args, [intents.set_alarm_argv(hour, minute, label)], before=before,
                          after=self._alarms, touches=["alarms"])

    def set_timer(self, seconds: int, *, label: str | None = None) -> SetupStep:
        """A timer started through the clock app's own intent (``SET_TIMER`` with ``SKIP_UI``)."""
        args: dict[str, object] = {"seconds": seconds, **({"label": label} if label else {})}
        return self._step("set_timer", args, [intents.set_timer_argv(seconds, label)], touches=["timers"])

    def push_file(self, source: str | Path | bytes, remote: str) -> SetupStep:
        """A file written on the device (``adb push``): from a host path, or the bytes given."""
        intents.check_remote_path(remote)
        data = source if isinstance(source, bytes) else Path(source).read_bytes()
        self.device.push(data, remote)
        shown = "<bytes>" if isinstance(source, bytes) else str(source)
        return self._step("push_file", {"source": shown, "remote": remote}, [["ls", remote]],
                          after=lambda: f"{len(data)} bytes at {remote}", touches=[f"file {remote}"])

    def shell(self, *argv: str) -> SetupStep:
        """Any other device command as a recorded step (each argument passed as one word)."""
        if not argv or not all(isinstance(a, str) and a for a in argv):
            raise ValueError(f"shell: give the command as words, e.g. shell('svc', 'wifi', 'disable'): "
                             f"{argv!r}")
        return self._step("shell", {"argv": shlex.join(argv)}, [argv])


def _check_namespace(namespace: str) -> None:
    if namespace not in NAMESPACES:
        raise ValueError(f"settings namespace {namespace!r} is not one of {', '.join(NAMESPACES)}")


def _pairs(namespace: str, pairs: object) -> list[tuple[str, SettingValue]]:
    _check_namespace(namespace)
    if not isinstance(pairs, Mapping):
        raise TypeError(f"settings[{namespace!r}]: a mapping of key to value, got {type(pairs).__name__}")
    return list(pairs.items())


def _shown(value: str | None) -> str:
    return "null" if value is None else value


def _installed(before: Sequence[str], after: Sequence[str]) -> str:
    new = sorted(set(after) - set(before))
    return f"installed {', '.join(new)}" if new else "replaced an installed package"
