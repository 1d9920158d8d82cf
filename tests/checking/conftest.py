"""Checking-half test helpers: one citation grounded the way a verdict's citations are."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "engine"))  # engine_fakes: the in-memory phone
