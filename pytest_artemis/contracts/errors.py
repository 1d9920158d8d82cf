"""Infrastructure errors every layer raises and the plugin maps to an ``ERROR`` outcome."""

from __future__ import annotations


class ArtemisError(Exception):
    """Base of pytest-artemis's own errors."""


class InfrastructureError(ArtemisError):
    """Something under the test failed (device, model provider, harness), not the app under test."""

    infra_kind = "harness"


class UsageError(ArtemisError):
    """The user's configuration or markers are wrong; reported at collection with the node id."""
