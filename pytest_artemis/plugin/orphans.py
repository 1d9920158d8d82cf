"""Recordings of tests that no longer exist: found only when the session saw every test they could belong to.

A recording whose test was deleted or renamed is never loaded again, so no run reports it. The session
can name it — but only when it is safe to say the test is gone: pytest collected everything under its
arguments (no ``-k``, ``-m``, ``--deselect``, ``--lf``, node-id arguments or any plugin deselecting, no
collection error, not an xdist session, whose controller collects nothing), and the recorded test's
file lies under those arguments and either no longer exists or was collected without that test.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import pytest

# A named tuple and a plain class, not dataclasses: every session imports this module, and defining a
# dataclass costs a few tenths of a millisecond (its methods are generated and compiled at import).


class Orphan(NamedTuple):
    """A recording file and the node id it records, which this session did not collect."""

    path: Path
    node_id: str


class CollectionView:
    """What the session collected, and why it may not be the whole picture (``partial`` says why)."""

    def __init__(self, rootpath: Path) -> None:
        self.rootpath = rootpath
        self.scope: tuple[Path, ...] = ()  # the directories and files the session's arguments name
        self.collected: frozenset[str] = frozenset()
        self.partial: list[str] = []

    @classmethod
    def of(cls, config: pytest.Config) -> CollectionView:
        """The view's starting point: the selection options that make any session partial."""
        view = cls(config.rootpath)
        option = config.option
        for flag, why in (("keyword", "-k"), ("markexpr", "-m"), ("deselect", "--deselect"),
                          ("lf", "--lf"), ("dist", "xdist")):
            value = getattr(option, flag, None)
            if value and value != "no":
                view.partial.append(why)
        if getattr(config, "workerinput", None) is not None:
            view.partial.append("xdist")
        return view

    def collection_failed(self) -> None:
        self.partial.append("a collection error")

    def deselected(self) -> None:
        self.partial.append("deselected tests")

    def finished(self, session: pytest.Session) -> None:
        """Record what was collected and the paths the arguments name (a node-id argument: partial)."""
        config = session.config
        if any("::" in arg for arg in config.args):
            self.partial.append("node ids as arguments")
        here = config.invocation_params.dir
        self.scope = tuple((here / arg).resolve() for arg in config.args)
        self.collected = frozenset(item.nodeid for item in session.items)
        if not session.items and not self.partial:
            self.partial.append("no tests collected")

    def orphans(self, recorded: tuple[tuple[Path, str], ...]) -> tuple[Orphan, ...]:
        """The recordings (file, node id) whose test this session would have collected, and did not."""
        if self.partial or not self.scope:
            return ()
        files = {node.split("::", 1)[0] for node in self.collected}
        found = []
        for path, node_id in recorded:
            if node_id in self.collected:
                continue
            file = node_id.split("::", 1)[0]
            where = (self.rootpath / file).resolve()
            if not any(where == top or top in where.parents for top in self.scope):
                continue  # outside what this session looked at
            if where.exists() and file not in files:
                continue  # a file it did not collect from (ignored, not a test file): cannot say
            found.append(Orphan(path, node_id))
        return tuple(found)
