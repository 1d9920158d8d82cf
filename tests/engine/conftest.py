"""Engine test fixtures."""

from __future__ import annotations

import pytest
from engine_fakes import FakePhone


@pytest.fixture
def phone() -> FakePhone:
    """A fresh in-memory phone with Wi-Fi and Bluetooth off."""
    return FakePhone()
