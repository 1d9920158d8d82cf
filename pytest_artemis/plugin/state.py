"""The plugin's per-session state, built on first use, so a session without artemis tests never pays for it.

Importing this module costs nothing beyond pytest: the settings model, the probe table and the device
farm (pydantic, the contracts, the device layer) load only when an artemis test, or an artemis option,
needs them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from .options import options_key

if TYPE_CHECKING:
    from pytest_artemis.contracts import TaskSpec  # noqa: F401 (a StashKey's type)
    from pytest_artemis.device.probe_table import ProbeTable

    from .lease import DeviceFarm
    from .settings import RunSettings

MARKER_NAMES = ("goal", "verify", "assert_", "artemis", "artemis_setup")
"""Every marker the plugin reads: the three of a goal's spec, the per-test settings marker and the
preconditions marker."""

session_settings_key = pytest.StashKey["RunSettings"]()
"""The session-wide settings (``config.stash``), from the resolved options."""
settings_key = pytest.StashKey["RunSettings"]()
"""The settings the item's runs use (``item.stash``, set by the ``artemis`` fixture)."""
spec_key = pytest.StashKey["TaskSpec | None"]()
"""The item's goal spec from its markers (``item.stash``, set by the ``artemis_setup`` fixture)."""
probe_table_key = pytest.StashKey["ProbeTable"]()
"""The session's probe table: the built-ins plus ``pytest_artemis_probe_specs`` kinds."""
farm_key = pytest.StashKey["DeviceFarm"]()
"""This process's device farm (pool and lease)."""


def session_settings_of(config: pytest.Config) -> RunSettings:
    """The session's settings (a pytest usage error when the options do not make valid ones)."""
    if session_settings_key not in config.stash:
        from .settings import session_settings

        config.stash[session_settings_key] = session_settings(config.stash[options_key])
    return config.stash[session_settings_key]


def probe_table_of(config: pytest.Config) -> ProbeTable:
    """The session's probe table (the built-ins and every plugin-registered kind)."""
    if probe_table_key not in config.stash:
        from .collection import build_probe_table

        config.stash[probe_table_key] = build_probe_table(config)
    return config.stash[probe_table_key]


def farm_of(config: pytest.Config) -> DeviceFarm:
    """This process's device farm (nothing is started or leased until a test asks for a device)."""
    if farm_key not in config.stash:
        from .lease import DeviceFarm

        config.stash[farm_key] = DeviceFarm(config)
    return config.stash[farm_key]

