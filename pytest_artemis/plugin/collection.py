"""Marker registration and collection-time validation: a bad marker is a collection error for that test."""

from __future__ import annotations

from collections.abc import Generator, Iterable
from functools import partial
from typing import TYPE_CHECKING

import pytest

from .state import MARKER_NAMES, probe_table_of, session_settings_of

if TYPE_CHECKING:
    from _pytest.mark.structures import Mark

    from pytest_artemis.contracts import TaskSpec
    from pytest_artemis.device.probe_table import ProbeTable
    from pytest_artemis.spec.marker_rules import ProbeCheckFn

MARKER_LINES = (
    "goal(text, *, app=None, max_steps=None): the goal an artemis run pursues (one per test)",
    "verify(text, *, when='complete', subgoal=None, probe=None, visual=False): a completion criterion; "
    "unmet at the end -> BLOCKED",
    "assert_(text, *, when='complete', subgoal=None, probe=None, visual=False): a test assertion; "
    "failed -> FAILED",
    "artemis(**settings): this test's run settings, e.g. artemis(max_steps=8, final_check=False, "
    "unchecked='fail'); names as in pytest_artemis.RunSettings",
    "artemis_setup(**preconditions): device steps the harness performs and records before the run, e.g. "
    "artemis_setup(settings={'global': {'bluetooth_on': 1}}, launch='com.android.settings')",
)


def register_markers(config: pytest.Config) -> None:
    """Declare the markers so ``--strict-markers`` accepts them."""
    for line in MARKER_LINES:
        config.addinivalue_line("markers", line)


def build_probe_table(config: pytest.Config) -> ProbeTable:
    """The built-in probe table extended by every ``pytest_artemis_probe_specs`` implementation."""
    from pytest_artemis.contracts import UsageError
    from pytest_artemis.device.probe_table import builtin_probes

    table = builtin_probes()
    for kinds in config.hook.pytest_artemis_probe_specs(config=config):
        for kind in kinds or ():
            try:
                table.register(kind)
            except UsageError as exc:
                raise pytest.UsageError(f"pytest_artemis_probe_specs: {exc}") from None
    return table


def artemis_marks(item: pytest.Item) -> list[Mark]:
    """The item's artemis marks, outer scopes (module, class) first, then the test's own decorators top
    to bottom (decorators are applied, and stored, bottom-up)."""
    from pytest_artemis.spec.marker_rules import MARKER_NAMES as SPEC_MARKERS

    marks: list[Mark] = []
    for node in item.listchain():
        own = [m for m in node.own_markers if m.name in SPEC_MARKERS]
        marks.extend(reversed(own) if node is item else own)
    return marks


def item_spec(item: pytest.Item) -> TaskSpec | None:
    """The validated spec of an item (raises MarkerError naming the node id)."""
    from pytest_artemis.spec.markers import spec_from_marks

    return spec_from_marks(item.nodeid, artemis_marks(item), probe_table_of(item.config))


class InvalidMarkers(pytest.Collector):
    """Stands in for a test whose markers are invalid: collecting it reports the error under its id."""

    def __init__(self, *, message: str, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.message = message

    def collect(self) -> Iterable[pytest.Item | pytest.Collector]:
        raise self.CollectError(self.message)


def validated(
    collector: pytest.Collector, result: object
) -> object:
    """``pytest_pycollect_makeitem`` result with each invalid test replaced by an InvalidMarkers node."""
    if isinstance(result, pytest.Item):
        return _checked(collector, result)
    if isinstance(result, list):
        return [_checked(collector, r) if isinstance(r, pytest.Item) else r for r in result]
    return result


_probe_rule_key = pytest.StashKey["ProbeCheckFn"]()
"""The session's probe rule (``marker_rules.probe_checker`` over its probe table), made on the first probe."""


def _check_probe(config: pytest.Config, label: str, text: str, probe: object) -> None:
    rule: ProbeCheckFn | None = config.stash.get(_probe_rule_key, None)
    if rule is None:
        # Only a test that passes a probe gets here: the session's probe table is built for it.
        from pytest_artemis.spec.marker_rules import probe_checker

        rule = config.stash[_probe_rule_key] = probe_checker(probe_table_of(config))
    rule(label, text, probe)


_OURS = frozenset(MARKER_NAMES)


def _checked(collector: pytest.Collector, item: pytest.Item) -> pytest.Item | pytest.Collector:
    names = {mark.name for node in item.listchain() for mark in node.own_markers}
    if "artemis" in getattr(item, "fixturenames", ()) and not names <= _OURS:
        from .marker_typos import misspelt

        problem = misspelt(item.config, names)
        if problem is not None:
            return InvalidMarkers.from_parent(collector, name=item.name,
                                              message=f"artemis marker error: {item.nodeid}: {problem}")
    if names.isdisjoint(MARKER_NAMES):
        # No artemis marker (at most the `artemis` fixture, whose spec is then None): nothing to validate,
        # so plain tests and marker-less artemis tests never load the spec layer or the settings model.
        return item
    from pytest_artemis.spec.marker_rules import MarkerProblem, check_marks

    if "artemis_setup" in names:
        problem = _setup_problem(item)
        if problem is not None:
            return InvalidMarkers.from_parent(collector, name=item.name,
                                              message=f"artemis marker error: {item.nodeid}: {problem}")

    # The marker rules in plain Python: the typed TaskSpec is built when the test runs (the `artemis`
    # fixture), so collecting marked tests does not load the typed layer for them.
    try:
        has_goal = check_marks(artemis_marks(item), partial(_check_probe, item.config))
    except MarkerProblem as exc:
        return InvalidMarkers.from_parent(collector, name=item.name,
                                          message=f"artemis marker error: {item.nodeid}: {exc}")
    if has_goal and "artemis" not in getattr(item, "fixturenames", ()):
        # A goal nobody runs would pass silently: the test must request the fixture that runs it.
        message = f"artemis marker error: {item.nodeid}: a goal marker, but the test does not request the " \
                  "`artemis` fixture that runs it (add an `artemis` argument)"
        return InvalidMarkers.from_parent(collector, name=item.name, message=message)
    if "artemis" not in names:
        return item  # no per-test settings: the session's, already valid, stand (settings not loaded)
    from pytest_artemis.contracts import UsageError

    from .settings import item_settings, settings_marks

    try:
        item_settings(session_settings_of(item.config), settings_marks(item))
    except UsageError as exc:
        return InvalidMarkers.from_parent(collector, name=item.name, message=f"artemis marker error: "
                                          f"{item.nodeid}: {exc}")
    return item


def _setup_problem(item: pytest.Item) -> str | None:
    """What is wrong with the item's ``artemis_setup`` marks (an unknown precondition, a bad value, or no
    fixture that applies them), or None."""
    from pytest_artemis.spec.marker_rules import MarkerProblem
    from pytest_artemis.spec.setup_marker import setup_arguments

    from .before_run import SETUP_FIXTURE, setup_marks

    if SETUP_FIXTURE not in getattr(item, "fixturenames", ()):
        return "an artemis_setup marker, but the test requests neither `artemis` nor `artemis_setup`, " \
               "which apply it"
    try:
        setup_arguments(setup_marks(item))  # type: ignore[arg-type]
    except MarkerProblem as exc:
        return str(exc)
    return None


@pytest.hookimpl(wrapper=True)
def pytest_pycollect_makeitem(
    collector: pytest.Collector, name: str, obj: object
) -> Generator[None, object, object]:
    result = yield
    return validated(collector, result)
