"""Small HTML building helpers shared by the report pages: escaping, formatting, the page shell."""

from __future__ import annotations

import html
import os
import time
import uuid
from importlib import resources
from pathlib import Path

from pytest_artemis.contracts import OUTCOME_WORDS


def esc(text: object) -> str:
    """Escape any journal value for HTML text or a quoted attribute: journal text is untrusted."""
    return html.escape(str(text), quote=True)


def tag(name: str, body: str = "", **attrs: object) -> str:
    """``<name attrs>body</name>``; attribute values are escaped, ``body`` is trusted markup.

    A trailing underscore is dropped from names (``class_``); ``None``/``False`` attributes are left out.
    """
    parts = [name]
    for key, value in attrs.items():
        if value is None or value is False:
            continue
        attr = key.rstrip("_").replace("_", "-")
        parts.append(attr if value is True else f'{attr}="{esc(value)}"')
    return f"<{' '.join(parts)}>{body}</{name}>"


def word_class(word: str) -> str:
    """CSS class of an outcome word; unknown words get the neutral style."""
    return f"w-{word.lower()}" if word in OUTCOME_WORDS else "w-other"


def fmt_cost(cost: float | None) -> str:
    """A dollar amount; an unknown price is "unknown", never $0."""
    if cost is None:
        return "unknown"
    return f"${cost:.4f}" if cost < 1 else f"${cost:.2f}"


def fmt_time(epoch: float | None) -> str:
    """Local wall-clock time of an epoch timestamp, to the second."""
    if not epoch:
        return "—"
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(epoch))


def fmt_duration(seconds: float | None) -> str:
    """A human duration: ``850 ms``, ``12.3 s``, ``4 min 05 s``."""
    if seconds is None or seconds < 0:
        return "—"
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, secs = divmod(int(round(seconds)), 60)
    return f"{minutes} min {secs:02d} s"


def dl(rows: list[tuple[str, str]]) -> str:
    """A definition list of (label, trusted markup) pairs."""
    return tag("dl", "".join(f"<dt>{esc(k)}</dt><dd>{v}</dd>" for k, v in rows), class_="meta")


def section(title: str, body: str, *, id_: str) -> str:
    return tag("section", tag("h2", esc(title)) + body, id=id_)


def stylesheet() -> str:
    """The report's local CSS (shipped as package data; no CDN, no web fonts)."""
    return resources.files(__package__).joinpath("report.css").read_text(encoding="utf-8")


def script() -> str:
    """The report's local script (package data): enlarging, keyboard steps, index filter and sort."""
    return resources.files(__package__).joinpath("report.js").read_text(encoding="utf-8")


def page(title: str, body: str, head_script: str = "") -> str:
    """A complete offline HTML document: inline stylesheet and script, nothing fetched from a network.

    ``head_script`` is extra markup loaded before the page script (a local ``<script src>``).
    """
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(title)}</title><style>{stylesheet()}</style></head>\n"
        f"<body>{body}\n{head_script}<script>{script()}</script></body></html>\n"
    )


def write_atomic(path: Path, text: str) -> Path:
    """Write ``text`` via a temporary file and rename, so a reader never sees half a page (the temporary
    name is unique also across machines writing one shared directory, whose process ids may be equal)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)  # a full disk keeps no half page behind
        raise
    return path
