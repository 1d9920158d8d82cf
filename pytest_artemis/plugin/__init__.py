"""The pytest surface (pytest11 entry point ``artemis``): markers, options, fixtures, honest outcomes.

A thin adapter over the engine: this module wires the plugin's parts into pytest; each part lives in
its own module (options, collection, fixtures, rulings, junit, lease, timeout, xdist, progress). Importing
and configuring it loads none of the contracts, the engine or the device layer: they load when a test
uses artemis (or an artemis option is set), so a session without artemis tests does not pay for them.
"""

# ruff: noqa: E402 (the parts are imported after the package is taken off pytest's assertion rewriting)

from __future__ import annotations

from typing import TYPE_CHECKING

from .rewrite import skip_assertion_rewriting

skip_assertion_rewriting()  # before the parts below are imported: they load as plain Python

import pytest

from . import collection, fixtures, ordering, preflight, quarantine, redaction, rulings, simfaults, timeout
from .junit_xml import JunitShaper
from .options import ArtemisOptions, add_options, options_key, resolve_config
from .replay_summary import ReplaySummary
from .reports import Reports
from .state import farm_key, farm_of, probe_table_of, session_settings_of
from .summary import TerminalSummary

if TYPE_CHECKING:
    from pytest_artemis.models import ModelSet

    from .result import Artemis
    from .runner import RunResult
    from .settings import RunSettings

_PARTS = (
    (collection, "artemis.markers"),
    (fixtures, "artemis.fixtures"),
    (simfaults, "artemis.simfaults"),
    (rulings, "artemis.outcomes"),
    (timeout, "artemis.timeout"),
    (preflight, "artemis.preflight"),
    (redaction, "artemis.redaction"),
    (ordering, "artemis.ordering"),
    (quarantine, "artemis.quarantine"),
)
_SUB_PLUGINS = (*(name for _, name in _PARTS), "artemis.reports", "artemis.junit", "artemis.summary",
                "artemis.replay", "artemis.xdist")


def refuse_partial_disabling(config: pytest.Config) -> None:
    """``-p no:artemis.<part>`` is a usage error: without its outcome hooks a failed run would pass.

    Only the whole plugin can be switched off (``-p no:artemis``); its tests then cannot run at all.
    """
    blocked = [name for name in _SUB_PLUGINS if config.pluginmanager.is_blocked(name)]
    if blocked:
        raise pytest.UsageError(
            f"-p no:{blocked[0]}: parts of pytest-artemis cannot be disabled one by one (without them a "
            "failed or unchecked run could be reported as passed); disable the whole plugin with "
            "-p no:artemis, or drop the option"
        )
_LAZY = {"Artemis": "result", "RunResult": "runner", "RunSettings": "settings"}


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    from pytest_artemis import hookspecs

    pluginmanager.add_hookspecs(hookspecs)


def pytest_addoption(parser: pytest.Parser) -> None:
    add_options(parser)


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    refuse_partial_disabling(config)
    collection.register_markers(config)
    options = resolve_config(config)
    preflight.check_options(options)
    config.stash[options_key] = options
    workerinput = getattr(config, "workerinput", None)
    if any(source != "default" for source in options.sources.values()):
        # An artemis option is set: the session means to use artemis, so bad settings and probe
        # registrations are usage errors now, once, rather than at the first test.
        session_settings_of(config)
        probe_table_of(config)
        farm_of(config)
    for module, name in _PARTS:
        if not config.pluginmanager.is_registered(module):
            config.pluginmanager.register(module, name)
    if not config.pluginmanager.has_plugin("artemis.durations"):
        ordering.DurationKeeper.register(config)
    if not config.pluginmanager.has_plugin("artemis.reports"):
        config.pluginmanager.register(Reports(config), "artemis.reports")
    if workerinput is None and not config.pluginmanager.has_plugin("artemis.junit"):
        config.pluginmanager.register(JunitShaper(config), "artemis.junit")
        config.pluginmanager.register(TerminalSummary(config), "artemis.summary")
        config.pluginmanager.register(ReplaySummary(config), "artemis.replay")
    if workerinput is None and _distributes(config):
        from .xdist import XdistHooks

        config.pluginmanager.register(XdistHooks(config), "artemis.xdist")


def _distributes(config: pytest.Config) -> bool:
    """Whether xdist runs this session on workers: its controller hooks are inert otherwise (no worker
    reports, no nodes; xdist itself starts no workers for ``--collect-only``), so they are not loaded."""
    return (config.pluginmanager.hasplugin("xdist") and not config.option.collectonly
            and config.getoption("dist", "no") != "no" and bool(config.getoption("tx", None)))


def pytest_unconfigure(config: pytest.Config) -> None:
    farm = config.stash.get(farm_key, None)
    if farm is not None:
        farm.close()


def pytest_report_header(config: pytest.Config) -> list[str]:
    options = config.stash.get(options_key, None)
    return options.header_lines() if options is not None else []


def artemis_options(config: pytest.Config) -> ArtemisOptions:
    """The session's resolved ``--artemis-*`` options (with ``.sources``)."""
    return config.stash[options_key]


def configured_models(config: pytest.Config) -> ModelSet | None:
    """The LiteLLM models the options configure, or None when no model option is set at all (see
    ``fixtures.configured_models``)."""
    return fixtures.configured_models(config)


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    return getattr(import_module(f"{__name__}.{module}"), name)


__all__ = ["Artemis", "ArtemisOptions", "RunResult", "RunSettings", "artemis_options", "configured_models"]
