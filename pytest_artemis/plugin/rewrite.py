"""The package is imported as plain Python, not through pytest's assertion rewriting.

pytest rewrites every module of a distribution with a ``pytest11`` entry point. Its rewritten bytecode is
cached only where Python may write bytecode; under ``PYTHONDONTWRITEBYTECODE=1`` (common in containers and
CI) or a read-only install, every process (controller and each xdist worker) parses, rewrites and
compiles the package's modules again: a one-test session took 0.87 s of CPU so, 0.74 s without
(docs/performance.md §2). The package's own ``assert`` statements are internal invariants that never
report to a user, so rewriting them buys nothing; test modules and conftests are rewritten as always.
"""

from __future__ import annotations

import sys

PACKAGE = "pytest_artemis"


def skip_assertion_rewriting() -> None:
    """Drop the package from the rewrite hooks' marks, so its not-yet-imported modules load as plain modules.

    Called when the plugin package starts loading, before it imports its parts: only the modules already
    being imported by then (the package's and the plugin's ``__init__``, this one) are rewritten. The hook
    is found on ``sys.meta_path`` as pytest's ``register_assert_rewrite`` finds it. Relies on the hook's
    private mark set; when a pytest version lacks it, the package is rewritten as before (slower, never
    wrong).
    """
    for hook in sys.meta_path:
        marked = getattr(hook, "_must_rewrite", None)
        if not isinstance(marked, set):
            continue
        marked.difference_update({name for name in marked
                                  if name == PACKAGE or name.startswith(PACKAGE + ".")})
        cache = getattr(hook, "_marked_for_rewrite_cache", None)
        if isinstance(cache, dict):
            cache.clear()
