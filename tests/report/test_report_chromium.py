"""The report in a real headless Chromium: it loads offline, shows the banner and steps, every image loads."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from report_fixtures import Page

from pytest_artemis.report import IndexEntry, render_index, render_run_report

CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="Debian chromium not installed (apt install chromium)"
)


def parse_dom(text: str) -> Page:
    """Parse Chromium's dumped DOM (anything printed before ``<html`` is dropped)."""
    start = text.find("<html")
    assert start >= 0, text[:500]
    return Page(text[start:])


def chromium(tmp_path: Path, url: str, *extra: str) -> str:
    """Run headless Chromium on ``url`` with networking off; returns stdout (the DOM for --dump-dom)."""
    argv = [
        str(CHROMIUM),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--hide-scrollbars",
        f"--user-data-dir={tmp_path / 'chromium-profile'}",
        "--virtual-time-budget=5000",
        *extra,
        url,
    ]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=90, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_report_loads_in_chromium_with_banner_steps_and_every_image(alarm_run: Path, tmp_path: Path) -> None:
    report = render_run_report(alarm_run)
    dom = parse_dom(chromium(tmp_path, report.as_uri(), "--dump-dom"))
    body = dom.all("body")[0]
    assert body.get("data-images-loaded") == "10/10"
    assert dom.by_id["banner"]["data-outcome"] == "UNCHECKED"
    assert len(dom.all("div", "step")) == 5
    assert "10/10 images loaded" in dom.text


def test_report_and_index_screenshots_render(alarm_run: Path, tmp_path: Path) -> None:
    report = render_run_report(alarm_run)
    index = render_index(
        alarm_run.parent, [IndexEntry(nodeid="t::a", outcome="UNCHECKED", run_dir=alarm_run.name)]
    )
    for page in (report, index):
        shot = tmp_path / f"{page.stem}.png"
        chromium(tmp_path, page.as_uri(), f"--screenshot={shot}", "--window-size=1280,2000")
        assert shot.read_bytes().startswith(b"\x89PNG") and shot.stat().st_size > 20_000
