"""The examples' conftest: a scripted demo model stands in whenever no real model is configured.

``pytest examples/ --artemis-device=sim`` runs offline with the demo model (``demo_agent``);
add ``--artemis-model=openai/gpt-4o`` (or ``ARTEMIS_MODEL``) and the same tests run against that model.
"""

from __future__ import annotations

import pytest
from demo_agent import demo_models  # this directory is on sys.path (pytest's default "prepend" mode)

from pytest_artemis import ModelSet, configured_models


@pytest.fixture
def artemis_model(pytestconfig: pytest.Config) -> ModelSet:
    """A real model when one is configured (--artemis-model …), else the scripted demo model."""
    return configured_models(pytestconfig) or demo_models()
