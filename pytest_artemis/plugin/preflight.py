"""Session-start checks: every setup mistake that can be found before the first test is one usage error
(exit code 4) naming the fix, instead of one ERROR per test.

At configure time (no I/O; under xdist too): the device spec (``sim:0``, a malformed entry, a device
listed twice), the adb server address and the model settings' form. After collection, only when a
collected test uses the ``artemis`` fixture: the artifacts directory is writable; the configured OCR
engine is installed; a device is configured, each device is checked on its own (unusable ones are
quarantined; a usage error only when fewer remain than workers) and the lease is taken (unless a conftest
provides the device; under xdist the controller did this at session start); a model is configured (unless
the ``artemis_model`` fixture is overridden); and each configured litellm model is allowed, routable and has
its provider's API key (litellm is imported only then). Under
xdist every worker runs these checks after its collection; a failure is one collection error of the
session (shown once), no test runs, and the exit code is 4 as without xdist.
"""

from __future__ import annotations

import os
import re
import tempfile

import pytest

from .options import ArtemisOptions, options_key

_MODEL = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:@/+-]*")
USAGE_ERROR_ATTR = "artemis_usage_error"
"""Attribute marking a worker's collection report as a failed session-start check."""


def check_options(options: ArtemisOptions) -> None:
    """The checks that need no I/O; raises ``pytest.UsageError``."""
    if options.device is not None or options.adb_server != "127.0.0.1:5037":
        _check_devices_spec(options)
    for opt in ("model", "planner_model", "operator_model", "checker_model"):
        value = getattr(options, opt)
        if value is not None and not _MODEL.fullmatch(value):
            raise pytest.UsageError(f"--artemis-{opt.replace('_', '-')}={value!r} is not a model name: "
                                    "litellm names look like PROVIDER/MODEL, e.g. openai/gpt-4o")
    if options.api_base is not None and not re.match(r"https?://[^\s/]+", options.api_base):
        raise pytest.UsageError(f"--artemis-api-base={options.api_base!r} is not an http(s) URL, e.g. "
                                "http://127.0.0.1:8000/v1")


def _check_devices_spec(options: ArtemisOptions) -> None:
    from pytest_artemis.contracts import UsageError
    from pytest_artemis.farm.address import parse_server
    from pytest_artemis.farm.spec import AdbSpec, parse_device_spec

    try:
        if options.device is not None:
            spec = parse_device_spec(options.device, options.adb_server)
            if isinstance(spec, AdbSpec):
                names = [f"{e.host}:{e.port}/{e.serial}" for e in spec.entries]
                twice = sorted({n for n in names if names.count(n) > 1})
                if twice:
                    raise UsageError(f"--artemis-device={options.device}: {', '.join(twice)} listed twice "
                                     "(each device can be leased once: list every device once)")
        parse_server(options.adb_server)
    except UsageError as exc:
        raise pytest.UsageError(str(exc)) from None


def _ours(item: pytest.Item, fixture: str) -> bool:
    """Whether ``item`` gets ``fixture`` from this plugin (not from a conftest or another plugin)."""
    defs = item._fixtureinfo.name2fixturedefs.get(fixture)  # type: ignore[attr-defined]
    return bool(defs) and defs[-1].func.__module__ == "pytest_artemis.plugin.fixtures"


def check_device(config: pytest.Config, options: ArtemisOptions) -> None:
    """A device is configured; without xdist, every device is checked on its own (unusable ones are
    quarantined) and this process's lease is taken, before the first test. Under xdist the controller
    did both for its workers before starting them."""
    from pytest_artemis.contracts import UsageError
    from pytest_artemis.farm.spec import parse_device_spec

    from .state import farm_of

    plugged = bool(config.hook.pytest_artemis_lease_backend.get_hookimpls())
    try:
        if not plugged:
            parse_device_spec(options.device, options.adb_server)
        farm_of(config).start()
    except UsageError as exc:
        raise pytest.UsageError(str(exc)) from None


def check_artifacts(options: ArtemisOptions) -> None:
    """The artifacts directory can be created and written (and has room for a file)."""
    root = options.artifacts
    try:
        root.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=root, prefix=".write-check-") as probe:
            probe.write(b"x" * 4096)
            probe.flush()
            os.fsync(probe.fileno())
    except OSError as exc:
        raise pytest.UsageError(f"--artemis-artifacts={root}: the artifacts directory is not writable "
                                f"({exc.strerror or type(exc).__name__}): pass a writable directory, e.g. "
                                "--artemis-artifacts=/tmp/artemis") from None


def check_model(options: ArtemisOptions) -> None:
    """Every role has a model (the message names the options and the fixture)."""
    from pytest_artemis.contracts import UsageError

    from .fixtures import model_set

    try:
        model_set(options)
    except UsageError as exc:
        raise pytest.UsageError(str(exc)) from None


def _origin(options: ArtemisOptions, name: str) -> str:
    """How the user set option ``name`` (``--artemis-ocr=rapidocr``, ``ini artemis_ocr = rapidocr``)."""
    value = getattr(options, name)
    source = options.sources.get(name, "default")
    if source == "env":
        return f"ARTEMIS_{name.upper()}={value}"
    if source == "ini":
        return f"ini artemis_{name} = {value}"
    return f"--artemis-{name.replace('_', '-')}={value}"


def check_ocr(options: ArtemisOptions) -> None:
    """The configured OCR engine is installed (found without loading it)."""
    if options.ocr == "none":
        return
    from pytest_artemis.device.ocr import ocr_missing

    missing = ocr_missing(options.ocr)
    if missing is not None:
        raise pytest.UsageError(f"{_origin(options, 'ocr')}: OCR is configured but its extra is not "
                                f"installed ({_as_installed(missing)}), or set --artemis-ocr=none")


def _as_installed(advice: str) -> str:
    """``pip install "pytest-artemis[X]"`` as this installation takes it: an editable install from a clone
    (the README's way) needs ``pip install -e "CLONE[X]"``, which also keeps the clone the code in use."""
    checkout = _editable_checkout()
    if checkout is None:
        return advice
    return re.sub(r'pip install "pytest-artemis\[(\w+)\]"',
                  lambda m: f'pip install -e "{checkout}[{m.group(1)}]"', advice)


def _editable_checkout() -> str | None:
    """The clone this package runs from (an editable install, or a checkout on the path), else None: the
    directory above the package that holds its ``pyproject.toml``."""
    from pathlib import Path

    import pytest_artemis

    root = Path(pytest_artemis.__file__).resolve().parents[1]
    project = root / "pyproject.toml"
    try:
        ours = project.is_file() and 'name = "pytest-artemis"' in project.read_text(encoding="utf-8")
    except OSError:
        return None
    return str(root) if ours else None


_MODEL_OPTIONS = ("model", "planner_model", "operator_model", "checker_model")


def check_litellm(options: ArtemisOptions) -> None:
    """Each configured model: real requests allowed, a name litellm routes, its API key at hand.

    Imports litellm, so it runs only when a model option is set. The key check trusts
    ``--artemis-api-key`` and ``--artemis-api-base`` (a local server may need none) and is switched off
    by ``--artemis-no-credentials-check``.
    """
    models = [name for name in _MODEL_OPTIONS if getattr(options, name)]
    if not models:
        return
    from pytest_artemis.models import model_requests_allowed

    if not model_requests_allowed():
        switch = os.environ.get("ARTEMIS_ALLOW_MODEL_REQUESTS", "")
        raise pytest.UsageError(
            f"{_origin(options, models[0])} configures a real model, but "
            f"ARTEMIS_ALLOW_MODEL_REQUESTS={switch} blocks real model requests: drop the model option for an "
            "offline session (a scripted artemis_model), or allow requests")
    from pytest_artemis.models.routing import missing_api_keys, route_problem

    for name in models:
        problem = route_problem(getattr(options, name), options.api_base)
        if problem is not None:
            raise pytest.UsageError(f"{_origin(options, name)}: {problem}")
    if options.api_key or options.api_base or options.no_credentials_check:
        return
    for name in models:
        missing = missing_api_keys(getattr(options, name))
        if missing:
            raise pytest.UsageError(
                f"{_origin(options, name)}: its provider's API key is not in the environment "
                f"({' or '.join(missing)}): export it, or pass --artemis-api-key (ARTEMIS_API_KEY); if the "
                "provider gets its credentials another way, --artemis-no-credentials-check skips this check")


def _checked_items(session: pytest.Session, items: list[pytest.Item]) -> list[pytest.Item]:
    """The collected tests that run a goal, when the session-start checks apply to them."""
    if session.config.option.collectonly:
        return []
    if session.testsfailed and not session.config.option.continue_on_collection_errors:
        return []  # collection errors interrupt the session first, and say more
    return [i for i in items if "artemis" in getattr(i, "fixturenames", ())]


def _run_checks(session: pytest.Session, items: list[pytest.Item]) -> None:
    """The checks that need the items or I/O; raises ``pytest.UsageError``."""
    options = session.config.stash[options_key]
    check_artifacts(options)
    check_ocr(options)
    if any(_ours(i, "artemis_device") for i in items):
        check_device(session.config, options)
    if any(_ours(i, "artemis_model") for i in items):
        check_model(options)
    check_litellm(options)  # also for an artemis_model override: it may use configured_models()


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    """After collection, when a collected test runs a goal: the checks that need the items or I/O."""
    if hasattr(session.config, "workerinput"):
        return  # an xdist worker checks in pytest_collection_modifyitems (below)
    items = _checked_items(session, session.items)
    if items:
        _run_checks(session, items)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config,
                                  items: list[pytest.Item]) -> None:
    """On an xdist worker, the same checks; a failure becomes one failed collection report and no items.

    A worker cannot end the session with a usage error. Every worker sends the same report, which the
    controller shows once (xdist drops a collection error it has already seen, by its text) and turns
    into exit code 4 (``xdist.XdistHooks``); with no items left, no test runs.
    """
    if not hasattr(config, "workerinput"):
        return
    checked = _checked_items(session, items)
    if not checked:
        return
    try:
        _run_checks(session, checked)
    except pytest.UsageError as exc:
        report = pytest.CollectReport("", "failed", str(exc), [])
        setattr(report, USAGE_ERROR_ATTR, True)  # a report attribute: it travels to the controller
        config.hook.pytest_collectreport(report=report)
        items.clear()
