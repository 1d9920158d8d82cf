"""Fixtures of the plugin's end-to-end tests (helpers live in ``plugin_helpers``)."""

from __future__ import annotations

import pytest
from plugin_helpers import SCRIPTED_CONFTEST


@pytest.fixture
def suite(pytester: pytest.Pytester) -> pytest.Pytester:
    """A pytester project with the scripted-model conftest (the examples' pattern)."""
    pytester.makeconftest(SCRIPTED_CONFTEST)
    # each test from a fresh phone
    pytester.makeini("[pytest]\njunit_logging = system-out\nartemis_reset = full\n")
    return pytester
