"""litellm, imported on the first real call (never at import time: it is slow and heavy), quiet, offline."""

from __future__ import annotations

import os
import warnings
from types import ModuleType


def load_litellm() -> ModuleType:
    """The litellm module, set up for pytest-artemis (each call: pytest resets warning filters per test)."""
    # No network call the user did not ask for: prices come from the installed package's own table
    # unless LITELLM_LOCAL_MODEL_COST_MAP is set otherwise.
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    import litellm

    litellm.suppress_debug_info = True  # no "Give Feedback" banners in test output
    # litellm's own deprecation noise is not the user's to act on (added per call: pytest resets the
    # warning filters for every test).
    warnings.filterwarnings("ignore", module=r"litellm(\.|$)")
    # pydantic's warning about litellm's own ReadOnly TypedDicts, raised from pydantic's module when the
    # first call builds their schemas: a third party's noise in the user's warnings summary.
    warnings.filterwarnings("ignore", message=r"Items? .* on TypedDict class .* `ReadOnly` qualifier",
                            category=UserWarning)
    return litellm
