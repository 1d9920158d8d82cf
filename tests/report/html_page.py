"""A rendered page parsed back for assertions: elements by tag/class/id and the visible text."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path


class Page(HTMLParser):
    """The parts of a rendered page the tests look at (script and style bodies are not text)."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str]]] = []
        self.texts: list[str] = []
        self.by_id: dict[str, dict[str, str]] = {}
        self._skip = 0
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {k: v or "" for k, v in attrs}
        self.elements.append((tag, attributes))
        if "id" in attributes:
            self.by_id[attributes["id"]] = attributes
        if tag in ("script", "style"):
            self._skip += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.texts.append(data)

    def all(self, tag: str, cls: str | None = None) -> list[dict[str, str]]:
        return [
            a for t, a in self.elements if t == tag and (cls is None or cls in a.get("class", "").split())
        ]

    @property
    def text(self) -> str:
        return "".join(self.texts)


def parse(path: Path) -> Page:
    return Page(path.read_text(encoding="utf-8"))
