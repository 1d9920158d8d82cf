"""The simulated phone's picture gallery: every screen renders from the sim itself, and the docs show each."""

from __future__ import annotations

import struct
from pathlib import Path

from pytest_artemis.sim.gallery import SCREENS, main

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _size(png: bytes) -> tuple[int, int]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", png[16:24])


def test_the_gallery_writes_every_screen(tmp_path, capsys):
    assert main([str(tmp_path)]) == 0
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == sorted(f"{name}.png" for name in SCREENS)
    assert all(_size((tmp_path / n).read_bytes()) == (540, 1200) for n in written)
    assert capsys.readouterr().out.count(".png") == len(SCREENS)


def test_the_docs_show_every_screen_and_ship_its_picture():
    page = (DOCS / "simulated-phone.md").read_text(encoding="utf-8")
    for name in SCREENS:
        assert f"(images/{name}.png)" in page, name
        assert _size((DOCS / "images" / f"{name}.png").read_bytes()) == (540, 1200), name
