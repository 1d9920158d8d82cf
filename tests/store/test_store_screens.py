"""Screenshots written off the step's path: named at once, served from memory, on disk before the close."""

from __future__ import annotations

import hashlib
import io
import os
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from PIL import Image
from test_store_journal import outcome  # the closed outcome the journal tests write

from pytest_artemis.contracts import StepRecord
from pytest_artemis.device import Capture
from pytest_artemis.device.frames import parse_frame
from pytest_artemis.store import ArtifactsWriteFailed, Redactor, RunHeader, RunJournal, read_run

T0 = 1764493200.5


def _capture(shade: int = 40) -> Capture:
    """A real raw-frame capture: a 4×3 RGBA_8888 frame with a 16-byte header."""
    raw = struct.pack("<4I", 4, 3, 1, 1) + bytes([shade, 90, 200, 255]) * 12
    return Capture.from_frame(parse_frame(raw), raw)


class SlowScreen:
    """A capture whose PNG is not encoded until ``ready`` is set (an encode that takes its time)."""

    def __init__(self, capture: Capture) -> None:
        self.capture = capture
        self.sha256 = capture.sha256
        self.ready = threading.Event()

    @property
    def png(self) -> bytes:
        assert self.ready.wait(10)
        return self.capture.png


def _journal(tmp_path: Path) -> RunJournal:
    header = RunHeader(run_id="run-1", goal="g", device="emulator-5554", started_at=T0)
    return RunJournal.create(tmp_path, header, redactor=Redactor())


def _step(pre: str, post: str | None = None) -> StepRecord:
    return StepRecord(step=1, turn="act", pre_screen=pre, post_screen=post, hierarchy="h.xml",
                      started_at=T0, finished_at=T0 + 1)


def test_a_capture_is_named_at_once_and_served_from_memory_until_written(tmp_path: Path) -> None:
    journal = _journal(tmp_path)
    slow = SlowScreen(_capture())
    started = time.perf_counter()
    sha = journal.put_screen(slow)
    assert time.perf_counter() - started < 1 and sha == slow.capture.sha256  # the step did not wait
    path = journal.dir / "screens" / f"{sha}.png"
    assert not path.exists()
    slow.ready.set()
    png = journal.screen_png(sha)  # still pending or already written: the same bytes either way
    journal.flush_screens()
    assert png == path.read_bytes() == slow.capture.png
    with Image.open(io.BytesIO(png)) as img:
        assert img.mode == "RGB" and img.getpixel((3, 2)) == (40, 90, 200)  # lossless, alpha all opaque


def test_close_waits_for_every_screenshot_still_being_written(tmp_path: Path) -> None:
    journal = _journal(tmp_path)
    slows = [SlowScreen(_capture(shade)) for shade in (1, 2, 3)]
    names = [journal.put_screen(s) for s in slows]
    journal.append_step(_step(names[0], names[1]))
    threading.Timer(0.3, lambda: [s.ready.set() for s in slows]).start()
    journal.close(outcome())
    record = read_run(journal.dir)
    assert record.notices == () and record.execution == "finished"
    for name, slow in zip(names, slows, strict=True):
        assert record.screen_path(name).read_bytes() == slow.capture.png


def test_a_screenshot_that_cannot_be_written_fails_the_next_journal_write(tmp_path: Path) -> None:
    journal = _journal(tmp_path)
    screens = journal.dir / "screens"
    screens.rmdir()
    screens.write_text("not a directory")  # every write under screens/ is refused by the system
    sha = journal.put_screen(_capture())
    with pytest.raises(ArtifactsWriteFailed, match=rf"cannot write .*{sha}\.png"):
        for _ in range(100):  # the write fails in the background; a later journal write says so
            journal.append_step(_step(sha))
            time.sleep(0.05)


def test_close_records_a_screenshot_it_could_not_write_and_still_closes(tmp_path: Path) -> None:
    journal = _journal(tmp_path)
    screens = journal.dir / "screens"
    screens.rmdir()
    screens.write_text("not a directory")
    journal.put_screen(_capture())
    journal.close(outcome())  # the outcome is decided: the lost file is recorded, not raised
    record = read_run(journal.dir)
    assert record.execution == "finished"
    (event,) = [e for e in record.events if e.kind == "screens_not_written"]
    assert "cannot write" in str(event.fields["error"])


KILLED = """
import os, sys, threading
sys.path.insert(0, {here!r})
from test_store_screens import SlowScreen, _capture, _journal, _step
from pathlib import Path

journal = _journal(Path({root!r}))
slow = SlowScreen(_capture())
journal.append_step(_step(journal.put_screen(slow)))
print(journal.dir, flush=True)
os._exit(9)  # killed while the screenshot was still being encoded
"""


def test_a_run_killed_before_its_screenshot_was_written_says_so_when_read(tmp_path: Path) -> None:
    code = KILLED.format(here=str(Path(__file__).parent), root=str(tmp_path))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert proc.returncode == 9, proc.stderr
    record = read_run(proc.stdout.strip())
    assert record.execution == "interrupted"
    assert any(n.startswith("screens/: 1 screenshot(s) the steps refer to were never written") and
               n.endswith("step 1 pre") for n in record.notices), record.notices


def test_png_bytes_are_hashed_and_written_at_once(tmp_path: Path) -> None:
    journal = _journal(tmp_path)
    png = _capture().png
    sha = journal.put_screen(png)
    assert sha == hashlib.sha256(png).hexdigest() and (journal.dir / "screens" / f"{sha}.png").exists()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a thread's own nice value is Linux's")
def test_the_writer_yields_the_cores_to_the_run(tmp_path: Path) -> None:
    journal = _journal(tmp_path)
    seen: list[int] = []

    class Probing(SlowScreen):
        @property
        def png(self) -> bytes:
            seen.append(os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))
            return self.capture.png

    journal.put_screen(Probing(_capture()))
    journal.flush_screens()
    assert seen == [max(10, os.getpriority(os.PRIO_PROCESS, 0))]
