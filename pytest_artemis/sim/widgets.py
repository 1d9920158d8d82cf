"""Widget tree: the single source of truth for a simulated screen.

Every screen is built once per state version as a tree of :class:`Node`.  The
renderer draws that tree, ``uiautomator dump`` serialises it and ``input tap``
hit-tests it, so the bounds a client reads from the hierarchy are exactly the
pixels it sees in the screenshot and the area a tap lands on.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import ParamSpec

#: Called with the tap (or swipe end) coordinates when a clickable node is hit.
Action = Callable[[int, int], None]
P = ParamSpec("P")


def bind(fn: Callable[P, object], /, *args: P.args, **kwargs: P.kwargs) -> Action:
    """An action calling ``fn(*args, **kwargs)`` wherever the node is hit (arguments bound now, so a
    loop's variables keep the value they had when the node was built)."""

    def action(x: int, y: int) -> None:
        fn(*args, **kwargs)

    return action


@dataclass(eq=False)
class Node:
    """One view: accessibility attributes, a drawing style and an optional action."""

    bounds: tuple[int, int, int, int]
    cls: str = "android.widget.FrameLayout"
    text: str = ""
    rid: str = ""
    desc: str = ""
    style: str = ""
    clickable: bool = False
    checkable: bool = False
    checked: bool = False
    focusable: bool = False
    focused: bool = False
    scrollable: bool = False
    selected: bool = False
    password: bool = False
    enabled: bool = True
    # Drawing hints, never dumped.
    hint: str = ""
    size: int = 0
    bold: bool = False
    align: str = "left"
    color: str = ""
    value: int = 0
    wrap: bool = False
    # Decorations (status bar pixels, toasts, scrims) are drawn but not dumped,
    # as on a real device where they live in windows uiautomator does not see.
    dump: bool = True
    package: str = ""
    action: Action | None = None
    #: A long press (``input swipe X Y X Y 500`` and longer): the node is long-clickable.
    long_action: Action | None = None
    children: list[Node] = field(default_factory=list)

    def add(self, *nodes: Node) -> Node:
        """Append children and return self (for fluent tree building)."""
        self.children.extend(nodes)
        return self

    def walk(self) -> Iterator[Node]:
        """Pre-order traversal: parents before children, drawing order."""
        yield self
        for child in self.children:
            yield from child.walk()

    def contains(self, x: int, y: int) -> bool:
        """True when (x, y) lies inside this node's bounds."""
        x1, y1, x2, y2 = self.bounds
        return x1 <= x < x2 and y1 <= y < y2

    @property
    def center(self) -> tuple[int, int]:
        """Centre point of the bounds (where a script would tap)."""
        x1, y1, x2, y2 = self.bounds
        return (x1 + x2) // 2, (y1 + y2) // 2


def hit_test(root: Node, x: int, y: int) -> Node | None:
    """Return the topmost enabled clickable node with an action under (x, y).

    Pre-order is drawing order, so the last match is the topmost one: a switch
    inside a clickable row wins over the row, a dialog wins over the app below.
    """
    return _topmost(root, x, y, lambda node: node.clickable and node.action is not None)


def hit_test_long(root: Node, x: int, y: int) -> Node | None:
    """The topmost enabled node with a long-press action under (x, y)."""
    return _topmost(root, x, y, lambda node: node.long_action is not None)


def _topmost(root: Node, x: int, y: int, wanted: Callable[[Node], bool]) -> Node | None:
    found = None
    for node in root.walk():
        if node.enabled and wanted(node) and node.contains(x, y):
            found = node
    return found


def find(root: Node, *, text: str | None = None, rid: str | None = None) -> Node | None:
    """First node whose text (or resource id) matches exactly."""
    for node in root.walk():
        if text is not None and node.text == text:
            return node
        if rid is not None and node.rid == rid:
            return node
    return None


def _esc(value: str) -> str:
    return (
        value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )


def _b(flag: bool) -> str:
    return "true" if flag else "false"


def _dump_node(node: Node, index: int, package: str, out: list[str]) -> None:
    pkg = node.package or package
    x1, y1, x2, y2 = node.bounds
    # Android reports an empty EditText's hint as its text.
    text = node.text or (node.hint if node.cls == "android.widget.EditText" else "")
    out.append(
        f'<node index="{index}" text="{_esc(text)}" resource-id="{_esc(node.rid)}" '
        f'class="{node.cls}" package="{pkg}" content-desc="{_esc(node.desc)}" '
        f'checkable="{_b(node.checkable)}" checked="{_b(node.checked)}" '
        f'clickable="{_b(node.clickable)}" enabled="{_b(node.enabled)}" '
        f'focusable="{_b(node.focusable)}" focused="{_b(node.focused)}" '
        f'scrollable="{_b(node.scrollable)}" long-clickable="{_b(node.long_action is not None)}" '
        f'password="{_b(node.password)}" selected="{_b(node.selected)}" '
        f'bounds="[{x1},{y1}][{x2},{y2}]"'
    )
    kids = [c for c in node.children if c.dump]
    if not kids:
        out.append(" />")
        return
    out.append(">")
    for i, child in enumerate(kids):
        _dump_node(child, i, pkg, out)
    out.append("</node>")


def dump_xml(windows: list[Node], rotation: int = 0) -> str:
    """Serialise window roots in the one-line ``uiautomator dump`` format."""
    out = [
        "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>",
        f'<hierarchy rotation="{rotation}">',
    ]
    for i, win in enumerate(w for w in windows if w.dump):
        _dump_node(win, i, win.package, out)
    out.append("</hierarchy>")
    return "".join(out)
