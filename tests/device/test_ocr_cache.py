"""OCR readings kept by screenshot hash: the same bytes are read once, anything else is read afresh."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pytest_artemis.contracts import Bounds
from pytest_artemis.device import ocr_cache
from pytest_artemis.device.ocr import OcrWord
from pytest_artemis.device.ocr_cache import CachedOcr


class CountingEngine:
    """Reads "text of <bytes>" from any image and counts its reads."""

    name = "counting"

    def __init__(self, fingerprint: str = "counting 1") -> None:
        self.fingerprint = fingerprint
        self.reads: list[bytes] = []

    def read(self, png: bytes) -> list[OcrWord]:
        self.reads.append(png)
        return [OcrWord(text=f"text of {png.decode()}", bounds=Bounds(left=1, top=2, right=30, bottom=12),
                        score=0.9)]


@pytest.fixture(autouse=True)
def fresh_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts as a new process would: nothing remembered, nothing pruned yet."""
    monkeypatch.setattr(ocr_cache, "_memory", type(ocr_cache._memory)())
    monkeypatch.setattr(ocr_cache, "_pruned", set())


def forget() -> None:
    ocr_cache._memory.clear()


def test_the_same_bytes_are_read_once_and_give_the_same_words(tmp_path: Path) -> None:
    engine = CountingEngine()
    cached = CachedOcr(engine, tmp_path)
    first = cached.read(b"screen A")
    assert cached.read(b"screen A") == first
    assert engine.reads == [b"screen A"]
    assert cached.read(b"screen B")[0].text == "text of screen B"
    assert engine.reads == [b"screen A", b"screen B"]


def test_a_later_session_finds_the_reading_on_disk(tmp_path: Path) -> None:
    CachedOcr(CountingEngine(), tmp_path).read(b"screen A")
    forget()
    engine = CountingEngine()
    words = CachedOcr(engine, tmp_path).read(b"screen A")
    assert engine.reads == []
    assert words == [OcrWord(text="text of screen A", bounds=Bounds(left=1, top=2, right=30, bottom=12),
                             score=0.9)]


def test_another_engine_version_or_setting_reads_again(tmp_path: Path) -> None:
    CachedOcr(CountingEngine("counting 1"), tmp_path).read(b"screen A")
    forget()
    engine = CountingEngine("counting 2")
    CachedOcr(engine, tmp_path).read(b"screen A")
    assert engine.reads == [b"screen A"]


def test_without_a_directory_readings_live_in_memory_only(tmp_path: Path) -> None:
    engine = CountingEngine()
    CachedOcr(engine).read(b"screen A")
    CachedOcr(engine).read(b"screen A")
    forget()
    CachedOcr(engine).read(b"screen A")
    assert engine.reads == [b"screen A", b"screen A"]


def test_a_reading_holding_a_secret_never_reaches_the_disk(tmp_path: Path) -> None:
    cached = CachedOcr(CountingEngine(), tmp_path, shareable=lambda text: "sk-secret" not in text)
    cached.read(b"sk-secret shown")
    cached.read(b"plain")
    files = list(tmp_path.rglob("*.json"))
    assert [f.read_text() for f in files if "sk-secret" in f.read_text()] == []
    assert len(files) == 1


def test_a_torn_or_foreign_file_is_read_again_and_replaced(tmp_path: Path) -> None:
    CachedOcr(CountingEngine(), tmp_path).read(b"screen A")
    (kept,) = tmp_path.rglob("*.json")
    kept.write_text('[["half a line", 1, 2', encoding="utf-8")
    forget()
    engine = CountingEngine()
    assert CachedOcr(engine, tmp_path).read(b"screen A")[0].text == "text of screen A"
    assert engine.reads == [b"screen A"]
    forget()
    assert CachedOcr(CountingEngine(), tmp_path).read(b"screen A")[0].text == "text of screen A"


def test_an_unwritable_directory_costs_only_a_fresh_read(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    engine = CountingEngine()
    assert CachedOcr(engine, blocker).read(b"screen A")[0].text == "text of screen A"
    assert engine.reads == [b"screen A"]


def test_the_least_recently_used_readings_go_beyond_the_limit(tmp_path: Path) -> None:
    cached = CachedOcr(CountingEngine(), tmp_path, limit=8)
    for n in range(12):
        cached.read(f"screen {n}".encode())
    (folder,) = [p for p in tmp_path.iterdir() if p.is_dir()]
    for age, path in enumerate(sorted(folder.glob("*.json"))):
        os.utime(path, (1_000_000 + age, 1_000_000 + age))
    newest = sorted(folder.glob("*.json"))[-6:]
    forget()
    ocr_cache._pruned.clear()
    CachedOcr(CountingEngine(), tmp_path, limit=8)
    assert sorted(folder.glob("*.json")) == newest
