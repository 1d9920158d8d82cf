"""Fixtures: ``artemis_device`` (session lease) → ``artemis_setup`` (the test's device: reset, isolated, its
preconditions recorded) → ``artemis`` (the run); ``artemis_model``, ``artemis_settings`` and
``artemis_secrets`` are overridable.

Defining them costs nothing: what they run (contracts, engine, models) is imported when a test requests
them, so a session without artemis tests never loads it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from .options import ArtemisOptions, options_key
from .state import farm_of, probe_table_of, session_settings_of, settings_key, spec_key

if TYPE_CHECKING:
    from collections.abc import Mapping

    from pytest_artemis.device.base import Device
    from pytest_artemis.device.setup import DeviceSetup
    from pytest_artemis.models import ModelSet

    from .result import Artemis
    from .settings import RunSettings


@pytest.fixture(scope="session")
def artemis_device(request: pytest.FixtureRequest, pytestconfig: pytest.Config) -> Device:
    """The device this process leased for the whole session (``--artemis-device``, or a farm plugin's
    ``pytest_artemis_lease_backend``), taken before the first test. With ``sim``/``sim:N`` the simulated
    phones are started by the session (or once by the xdist controller) and stopped at its end. When the
    device dies and is quarantined, the same handle goes on with the device that replaces it."""
    from pytest_artemis.contracts import UsageError
    from pytest_artemis.farm.backend import LeaseError

    from .quarantine import stop_taking_tests

    try:
        return farm_of(pytestconfig).device(probes=probe_table_of(pytestconfig))
    except LeaseError as exc:
        stop_taking_tests(request.session, str(exc))
        pytest.fail(f"ERROR: infrastructure failure (device) LeaseError: {exc}", pytrace=False)
    except UsageError as exc:
        pytest.fail(f"ERROR: {exc}", pytrace=False)


def model_set(options: ArtemisOptions) -> ModelSet:
    """Per-role LiteLLM models from the options; a usage error naming the option when one is missing."""
    from pytest_artemis.contracts import UsageError

    roles: dict[str, str | None] = {
        "planner": options.planner_model or options.model,
        "operator": options.operator_model or options.model,
        "checker": options.checker_model or options.model,
    }
    names = {role: name for role, name in roles.items() if name}
    missing = [role for role in roles if role not in names]
    if missing:
        raise UsageError(
            f"no model configured for {', '.join(missing)}: pass --artemis-model=PROVIDER/MODEL (env "
            "ARTEMIS_MODEL, ini artemis_model) or --artemis-<role>-model, or override the `artemis_model` "
            "fixture in a conftest (e.g. with pytest_artemis.testing.ScriptedModel)"
        )
    from pytest_artemis.models import LiteLLMModel, ModelSet

    built: dict[str, LiteLLMModel] = {}
    for name in names.values():
        if name not in built:
            built[name] = LiteLLMModel(name, api_base=options.api_base, api_key=options.api_key)
    return ModelSet(planner=built[names["planner"]], operator=built[names["operator"]],
                    checker=built[names["checker"]])


def configured_models(config: pytest.Config) -> ModelSet | None:
    """The LiteLLM models the options configure, or None when no model option is set at all.

    For a conftest that overrides ``artemis_model`` with a scripted model only when no real model is
    configured: ``return configured_models(pytestconfig) or ModelSet.uniform(ScriptedModel(...))``.
    """
    options = config.stash[options_key]
    if not any((options.model, options.planner_model, options.operator_model, options.checker_model)):
        return None
    return model_set(options)


@pytest.fixture
def artemis_model(pytestconfig: pytest.Config) -> ModelSet:
    """The models for planner, operator and checker. Override it in a conftest to plug in your own
    (``ScriptedModel`` for offline tests)."""
    from pytest_artemis.contracts import UsageError

    try:
        return model_set(pytestconfig.stash[options_key])
    except UsageError as exc:
        pytest.fail(f"ERROR: {exc}", pytrace=False)


@pytest.fixture
def artemis_settings(pytestconfig: pytest.Config) -> RunSettings:
    """The run settings of the tests in scope: the session's ``--artemis-*`` options by default.

    Override it (conftest or module) to change them for those tests, the way pytest-playwright layers
    ``browser_context_args``; a test's ``@pytest.mark.artemis(...)`` still applies on top::

        @pytest.fixture
        def artemis_settings(artemis_settings):
            return artemis_settings.replace(max_steps=8, final_check=False)
    """
    return session_settings_of(pytestconfig)


@pytest.fixture
def artemis_secrets() -> Mapping[str, str]:
    """Values the harness types for the operator when it asks for one by name (``type_secret``): a login,
    a password. No model sees a value and no artifact, report or recording holds one. None by default;
    override it (conftest, module or test) to give some::

        @pytest.fixture
        def artemis_secrets():
            return {"password": os.environ["SHOP_PASSWORD"]}
    """
    return {}


@pytest.fixture
def artemis_setup(
    request: pytest.FixtureRequest, artemis_device: Device, artemis_settings: RunSettings,
) -> DeviceSetup:
    """The test's device, before its run: reset (the ``reset`` setting), isolated (the home screen in
    front, the apps earlier tests opened stopped, their data kept), the ``artemis_setup`` marker's
    preconditions applied. Request it in your own fixtures for more: each method (``put_setting``,
    ``install``, ``grant``, ``launch``, ``open_url``, ``add_contact``, ``set_alarm`` …) is a device step
    the harness performs and records; every such fixture is set up before the run, in any order."""
    from pytest_artemis.contracts import InfrastructureError, UsageError
    from pytest_artemis.device.setup import DeviceSetup, SetupFailed
    from pytest_artemis.spec.marker_rules import MarkerProblem

    from . import before_run
    from .collection import item_spec
    from .junit import set_properties
    from .settings import item_settings, settings_marks

    item = request.node
    set_properties(item, {"artemis.device": artemis_device.name})
    try:
        settings = item_settings(artemis_settings, settings_marks(item))
        spec = item_spec(item)  # collection checked the marker rules; the typed spec is built here
    except UsageError as exc:
        pytest.fail(f"ERROR: {exc}", pytrace=False)
    item.stash[settings_key], item.stash[spec_key] = settings, spec
    setup = DeviceSetup(artemis_device, on_step=lambda step: before_run.note_step(item.config, step))
    before_run.reset_device(item, setup, settings.reset, spec.app if spec is not None else None)
    try:
        if settings.isolation:
            before_run.isolate(item.config, setup)
        item.stash[before_run.found_key] = before_run.read_found_state(item, artemis_device)
        before_run.apply_marker(item, setup)
    except InfrastructureError as exc:
        set_properties(item, {"artemis.infra": f"{exc.infra_kind}/{type(exc).__name__}"})
        pytest.fail(f"ERROR: infrastructure failure ({exc.infra_kind}) {type(exc).__name__} before the run: "
                    f"{exc}", pytrace=False)
    except (SetupFailed, MarkerProblem, ValueError, TypeError) as exc:
        pytest.fail(f"ERROR: artemis_setup on {artemis_device.name}: {exc}", pytrace=False)
    return setup


@pytest.fixture
def artemis(
    request: pytest.FixtureRequest, artemis_device: Device, artemis_model: ModelSet,
    artemis_setup: DeviceSetup, artemis_secrets: Mapping[str, str],
) -> Artemis:
    """Runs the test's ``goal`` (markers) on the leased device in setup and returns the result.

    Every fixture of the test that uses ``artemis_setup`` is set up first, so the order is always lease →
    reset → setup → baseline → run. BLOCKED and ERROR are raised here (setup: JUnit ``<error>``); FAILED and
    UNCHECKED are applied after the test body. Without a goal marker, use ``artemis.run(goal,
    checks=[...])`` in the body.
    """
    from pytest_artemis.contracts import UsageError
    from pytest_artemis.engine.secrets import check_secrets

    from .before_run import setup_fixtures_first
    from .result import Artemis
    from .rulings import raise_in_setup
    from .runner import run_for_item

    item = request.node
    options = request.config.stash[options_key]
    try:
        secrets = check_secrets(artemis_secrets)
    except UsageError as exc:
        pytest.fail(f"ERROR: {exc}", pytrace=False)
    setup_fixtures_first(request, "artemis")
    settings, spec = item.stash[settings_key], item.stash[spec_key]
    result = Artemis(item, artemis_device, artemis_model, options, settings, setup=artemis_setup,
                     secrets=secrets)
    if spec is not None:
        run = result.add_run(run_for_item(item, spec, artemis_device, artemis_model, options, settings,
                                          when="setup", setup=artemis_setup, secrets=secrets))
        raise_in_setup(run.ruling)
    return result


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Append the JUnit properties before any fixture runs (a failed lease still reports them)."""
    if "artemis" in getattr(item, "fixturenames", ()):
        from .junit import init_properties
        from .runner import artifacts_dir_for

        options = item.config.stash[options_key]
        init_properties(item, artifacts_dir_for(options, item.nodeid))
