"""The package is imported as plain Python, not through pytest's assertion rewriting.

pytest rewrites every module of a distribution with a ``pytest11`` entry point. Its rewritten bytecode is
cached only where Python may write bytecode; under ``PYTHONDONTWRITEBYTECODE=1`` (common in containers and
CI) or a read-only install, every process (controller and each xdist worker) parses, rewrites and
compiles the package's modules again: a one-test session took 0.87 s of CPU so, 0.74 s without
(docs/performance.md §2). The package's own ``assert`` statements are internal invariants that never
report to a user, so rewriting them buys nothing; test modules and conftests are rewritten as always.
"""

from __future__ import annotations

import pytest

PACKAGE = "pytest_artemis"


def skip_assertion_rewriting(pluginmanager: pytest.PytestPluginManager) -> None:
    """Drop the package from the rewrite hook's marks, so its not-yet-imported modules load as plain modules.

    Relies on the hook's private mark set; when a pytest version lacks it, the package is rewritten as
    before (slower, never wrong).
    """
    hook = getattr(pluginmanager, "rewrite_hook", None)
    marked = getattr(hook, "_must_rewrite", None)
    if not isinstance(marked, set):
        return
    marked.difference_update({name for name in marked if name == PACKAGE or name.startswith(PACKAGE + ".")})
    cache = getattr(hook, "_marked_for_rewrite_cache", None)
    if isinstance(cache, dict):
        cache.clear()
