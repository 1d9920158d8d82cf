"""Regenerate the report screenshots in ``docs/images`` from real pages of a simulated-phone session.

    python tests/report/doc_images.py docs/images

Runs the report tests' session on the simulated phone, opens the pages in headless Chromium (every image
loaded first) and captures them.
"""

from __future__ import annotations

import base64
import sys
import tempfile
from pathlib import Path

from browser import Page, browser
from sim_session import build_session

SHOTS = {  # file name → (test whose page it shows, or "" for the index; height in CSS pixels)
    "report.png": ("test_contact_failed", 1700),
    "report-blocked.png": ("test_extra_dim_blocked", 1000),
    "report-index.png": ("", 900),
}


def _capture(page: Page, height: int) -> bytes:
    metrics = {"width": 1280, "height": height, "deviceScaleFactor": 1, "mobile": False}
    page.browser.send("Emulation.setDeviceMetricsOverride", metrics, session=page.session)
    page.eval("artemisImages()")
    shot = page.browser.send("Page.captureScreenshot", {"format": "png"}, session=page.session)
    return base64.b64decode(shot["data"])


def main(out: Path) -> None:
    with tempfile.TemporaryDirectory(prefix="artemis-doc-images-") as work:
        session = build_session(Path(work))
        with browser((1280, 1000)) as chrome:
            for name, (test, height) in SHOTS.items():
                url = (session.report(test) if test else session.index).as_uri()
                (out / name).write_bytes(_capture(chrome.open(url), height))
                print(out / name)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
