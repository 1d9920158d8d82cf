"""The fenced blocks of the docs pages, by page and section, and what the docs tests do with each kind."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

DOCS = Path(__file__).resolve().parents[2] / "docs"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.MULTILINE | re.DOTALL)
HEADING = re.compile(r"^#{2,3} (.+)$", re.MULTILINE)
FILE_HEADER = re.compile(r"# ([\w.]+\.(?:py|ini))")


@dataclass(frozen=True)
class Block:
    """One fenced block: where it is, its language and its text (``name``: the file a code block is)."""

    page: str
    section: str
    lang: str
    body: str

    @property
    def name(self) -> str:
        first = self.body.splitlines()[0] if self.body.strip() else ""
        match = FILE_HEADER.fullmatch(first)
        return match.group(1) if match else ""


def page_blocks(page: str) -> list[Block]:
    """Every fenced block of ``page``, with the heading of the section it is in."""
    text = (DOCS / page).read_text(encoding="utf-8")
    headings = [(m.start(), m.group(1)) for m in HEADING.finditer(text)]
    blocks = []
    for match in FENCE.finditer(text):
        section = next((h for at, h in reversed(headings) if at < match.start()), "")
        blocks.append(Block(page, section, match.group(1), match.group(2)))
    return blocks


PAGES = sorted(p.name for p in DOCS.glob("*.md"))
BLOCKS = [b for page in PAGES for b in page_blocks(page)]


def shell_lines(block: Block) -> list[str]:
    """The commands of a bash block: continuation lines joined, comments dropped."""
    joined = block.body.replace("\\\n", " ")
    lines = [line.split("  #")[0].strip() for line in joined.splitlines()]
    return [" ".join(line.split()) for line in lines if line and not line.startswith("#")]


def section_files(page: str, section: str) -> dict[str, str]:
    """The named code blocks (files) of one section of a page: a project of its own."""
    return {b.name: b.body for b in BLOCKS if b.page == page and b.section == section and b.name}


def page_command(page: str, file: str) -> list[str] | None:
    """The page's own command line running ``file`` (``pytest FILE …`` or ``python FILE …``), if any."""
    for block in BLOCKS:
        if block.page != page or block.lang != "bash":
            continue
        for line in shell_lines(block):
            words = shlex.split(line)
            if len(words) > 1 and words[0] in ("pytest", "python") and words[1] == file:
                return words
    return None
