"""Before a test's run, in one order: lease → reset → isolation (home screen, the previous test's apps
stopped) → the state it found → the ``artemis_setup`` marker's preconditions → the fixtures that use
``artemis_setup`` → (the run: baseline, then the agent)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

import pytest

from .rulings import ArtemisOutcome

if TYPE_CHECKING:
    from pytest_artemis.device.base import Device
    from pytest_artemis.device.setup import DeviceSetup, SetupStep

    from .found_state import FoundState

SYSTEM_PACKAGES = frozenset({"android", "com.android.systemui", "com.android.shell", "com.android.phone"})
"""Never force-stopped by the isolation: the system itself."""
SETUP_FIXTURE = "artemis_setup"


@dataclass
class Isolation:
    """What this process's tests left on its device: the apps they brought to the front (stopped before
    the next test) and the launcher (read at the first isolation)."""

    launched: set[str] = field(default_factory=set)
    launcher: str = ""
    previous: str = ""
    """The node id of the test before (the found-state comparison names it)."""
    found: FoundState | None = None


isolation_key = pytest.StashKey[Isolation]()
"""This process's isolation state (``config.stash``)."""


def isolation_of(config: pytest.Config) -> Isolation:
    if isolation_key not in config.stash:
        config.stash[isolation_key] = Isolation()
    return config.stash[isolation_key]


def note_launched(config: pytest.Config, packages: Iterable[str]) -> None:
    """Apps a test's run or setup brought to the front: the next test's isolation stops them."""
    isolation_of(config).launched.update(p for p in packages if p)


found_key = pytest.StashKey[list[str]]()
"""What the test found changed by earlier tests (``item.stash``), read before its own setup."""


def note_step(config: pytest.Config, step: SetupStep) -> None:
    """A setup step that brought an app to the front: the next test's isolation stops it."""
    if step.action in ("launch", "open_url") and step.after.startswith("foreground "):
        note_launched(config, [step.after.removeprefix("foreground ").strip("?")])


def reset_device(item: pytest.Item, setup: DeviceSetup, scope: Literal["none", "app", "full"],
                 app: str | None) -> None:
    """The test's reset setting, recorded as its first setup step (an ERROR naming the policy if it fails).

    A device that fails the reset (dead, hung) is an infrastructure failure like any failed device call:
    its ``artemis.infra`` tells the farm to check the device and quarantine it after this test.
    """
    if scope == "none":
        return
    from pytest_artemis.contracts import ArtemisError, InfrastructureError
    from pytest_artemis.device.setup import SetupStep

    from .junit import set_properties

    device = setup.device
    try:
        device.reset(scope, app)
    except InfrastructureError as exc:
        kind, error = exc.infra_kind, type(exc).__name__
        set_properties(item, {"artemis.infra": f"{kind}/{error}"})
        said = str(exc).removeprefix(f"{device.name}: ")
        raise ArtemisOutcome(f"ERROR: infrastructure failure ({kind}) {error} on device {device.name}: "
                             f"device reset ({scope}) failed: {said}", pytrace=False) from None
    except ArtemisError as exc:
        raise ArtemisOutcome(f"ERROR: device reset ({scope}) on {device.name} failed: {exc}",
                             pytrace=False) from None
    what = "the whole device back to its initial state" if scope == "full" else \
        f"{app}: data cleared, force-stopped" if app else "no app named by the goal: nothing cleared"
    setup.record(SetupStep(action="reset", args={"scope": scope, **({"app": app} if app else {})},
                           after=what))


def isolate(config: pytest.Config, setup: DeviceSetup) -> SetupStep:
    """The home screen in front, and the apps the earlier tests brought to the front force-stopped (their
    data kept): HOME, the launcher read once, then ``am force-stop`` of each."""
    from pytest_artemis.device.setup import SetupStep

    state = isolation_of(config)
    device = setup.device
    was = setup.foreground()
    device.key("HOME")
    if not state.launcher:
        state.launcher = setup.foreground()
    stopped = sorted((state.launched | {was}) - SYSTEM_PACKAGES - {state.launcher, ""})
    for package in stopped:
        device.stop(package)
    state.launched.clear()
    return setup.record(SetupStep(
        action="isolate", args={"stopped": ", ".join(stopped) or "none"},
        commands=("input keyevent KEYCODE_HOME", *(f"am force-stop {p}" for p in stopped)),
        before=f"foreground {was or '?'}", after=f"foreground {setup.foreground() or '?'}"))


def read_found_state(item: pytest.Item, device: Device) -> list[str]:
    """What this test found changed since the session's first test, each change naming the earlier test
    that made it when known (``global bluetooth_on: 0 -> 1 (changed by test_a)``)."""
    from .found_state import FoundState

    state = isolation_of(item.config)
    if state.found is None:
        state.found = FoundState()
    changes = state.found.read(device, changed_by=state.previous)
    state.previous = item.nodeid
    return changes


def setup_fixtures_first(request: pytest.FixtureRequest, before: str) -> None:
    """Set up every fixture of the test that uses ``artemis_setup`` (directly or through another fixture)
    before ``before`` runs the goal, whatever the order the test lists them in; a fixture that needs
    ``before`` itself is left to pytest."""
    infos = request.node._fixtureinfo.name2fixturedefs  # pytest's closure of the item's fixtures

    def needs(name: str, wanted: str, seen: set[str]) -> bool:
        if name in seen or name not in infos:
            return False
        seen.add(name)
        args = infos[name][-1].argnames
        return wanted in args or any(needs(a, wanted, seen) for a in args)

    for name in request.fixturenames:
        if name in (before, SETUP_FIXTURE) or not needs(name, SETUP_FIXTURE, set()):
            continue
        if not needs(name, before, set()):
            request.getfixturevalue(name)


def setup_marks(item: pytest.Item) -> list[object]:
    """The item's ``artemis_setup`` marks, outer scopes (module, class) first, the test's own last."""
    marks: list[object] = []
    for node in item.listchain():
        own = [m for m in node.own_markers if m.name == "artemis_setup"]
        marks.extend(reversed(own) if node is item else own)
    return marks


def apply_marker(item: pytest.Item, setup: DeviceSetup) -> None:
    """The ``artemis_setup`` marker's preconditions, in the documented order (relative APK and file
    paths are read from the test module's directory)."""
    from pathlib import Path

    from pytest_artemis.spec.setup_marker import alarm_time, as_list, setup_arguments

    args = setup_arguments(setup_marks(item))  # type: ignore[arg-type]
    here = Path(str(item.path)).parent
    for package in as_list(args.get("clear_data", [])):
        setup.clear_data(str(package))
    for apk in as_list(args.get("install", [])):
        setup.install(here / str(apk))
    for verb in ("grant", "revoke"):
        for package, permissions in dict(args.get(verb, {})).items():  # type: ignore[call-overload]
            for permission in as_list(permissions):
                getattr(setup, verb)(package, permission)
    setup.put_settings(args.get("settings", {}))  # type: ignore[arg-type]
    for remote, local in dict(args.get("files", {})).items():  # type: ignore[call-overload]
        setup.push_file(local if isinstance(local, bytes) else here / local, remote)
    for contact in as_list(args.get("contacts", [])):
        setup.add_contact(**contact)  # type: ignore[arg-type]
    for alarm in as_list(args.get("alarms", [])):
        setup.set_alarm(*alarm_time(str(alarm)))
    if "launch" in args:
        setup.launch(str(args["launch"]))
    if "open_url" in args:
        setup.open_url(str(args["open_url"]))
