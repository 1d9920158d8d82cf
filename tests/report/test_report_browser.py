"""The pages in a real headless Chromium (DevTools protocol): no console errors, every image loads,
no label hides its target, keys and enlarging work, and the index filters and sorts."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from browser import CHROMIUM, Browser, Page, browser
from sim_session import WORDS, SimSession

from pytest_artemis.store import read_run

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="Debian chromium not installed (apt install chromium)"
)

#: Label boxes (SVG user units = device pixels) that overlap their target, or whose text overflows the box.
LABEL_PROBLEMS = """
(() => {
  const bad = [];
  for (const g of document.querySelectorAll("g.ov-label")) {
    const [l, t, r, b] = g.dataset.target.split(",").map(Number);
    const box = g.querySelector("rect").getBBox(), text = g.querySelector("text").getBBox();
    const right = box.x + box.width, bottom = box.y + box.height;
    if (box.x < r && l < right && box.y < b && t < bottom) bad.push("overlap " + g.textContent);
    if (text.x < box.x - 1 || text.x + text.width > right + 1) bad.push("overflow " + g.textContent);
  }
  return {labels: document.querySelectorAll("g.ov-label").length, bad};
})()
"""


@pytest.fixture(scope="module")
def chrome() -> Iterator[Browser]:
    with browser() as b:
        yield b


def _open(chrome: Browser, url: str) -> Page:
    page = chrome.open(url)
    page.eval("artemisImages()")
    return page


def test_every_run_page_loads_clean_with_every_image_and_no_hidden_target(chrome, sim_session: SimSession):
    labels = 0
    for name, word in WORDS.items():
        page = _open(chrome, sim_session.report(name).as_uri())
        loaded = page.eval("document.body.dataset.imagesLoaded")
        ok, total = loaded.split("/")
        record = read_run(sim_session.runs[name])
        # A killed process loses the screenshots its background writer had not written yet; never silently.
        missing = [ref for s in record.steps for ref in (s.pre_screen, s.post_screen)
                   if ref and not record.screen_path(ref).exists()]
        assert ok == total and int(total) + len(missing) >= 2 * len(record.steps), (name, loaded)
        assert not missing or (word == "INTERRUPTED" and "were never written" in
                               sim_session.report(name).read_text()), (name, missing)
        assert page.errors() == [], name
        assert all(url.startswith("file://") for url in page.requests()), name
        assert page.eval("document.getElementById('banner').dataset.outcome") == word
        found = page.eval(LABEL_PROBLEMS)
        assert found["bad"] == [], (name, found)
        labels += found["labels"]
    assert labels >= 10  # taps and typing were drawn and labelled


def test_failed_banner_in_the_browser_says_which_assertion_failed(chrome, sim_session: SimSession):
    page = _open(chrome, sim_session.report("test_contact_failed").as_uri())
    banner = page.eval("document.getElementById('banner').innerText")
    assert "FAILED" in banner and "Margaret Hamilton's number is 555-0123" in banner
    assert "FAIL: The saved contact shows '555-0123'" in banner


def test_keys_move_between_steps_and_screenshots_enlarge(chrome, sim_session: SimSession):
    page = _open(chrome, sim_session.report("test_contact_failed").as_uri())
    page.key("j")
    assert page.eval("location.hash") == "#step-1"
    page.key("j")
    assert page.eval("location.hash") == "#step-2"
    page.key("k")
    assert page.eval("location.hash") == "#step-1"
    page.eval("document.querySelector('.shot').click()")
    assert page.eval("document.querySelector('#lightbox .shot.big img').getBoundingClientRect().height") > 500
    page.key("ArrowRight")
    assert "step 1 after" in page.eval("document.querySelector('#lightbox .lbcap').textContent")
    page.key("Escape")
    assert page.eval("document.getElementById('lightbox')") is None
    page.key("l")
    assert page.eval("document.body.classList.contains('no-labels')")
    assert page.errors() == []


def test_run_pages_link_to_the_previous_and_next_test(chrome, sim_session: SimSession):
    page = _open(chrome, sim_session.report("test_contact_failed").as_uri())
    prev = page.eval("document.getElementById('prev-test').href")
    nxt = page.eval("document.getElementById('next-test').href")
    assert prev == sim_session.report("test_alarm_passed").as_uri()
    assert nxt == sim_session.report("test_extra_dim_blocked").as_uri()
    assert page.eval("document.getElementById('to-index').href") == sim_session.index.as_uri()


VISIBLE = "[...document.querySelectorAll('#tests-table tbody tr')].filter(r => !r.hidden)"


def test_index_filters_by_outcome_searches_by_name_and_sorts_by_column(chrome, sim_session: SimSession):
    page = _open(chrome, sim_session.index.as_uri())
    words = f"{VISIBLE}.map(r => r.dataset.outcome)"
    assert sorted(page.eval(words)) == sorted(WORDS.values())
    page.eval("document.querySelector('button.filter[data-outcome=FAILED]').click()")
    assert page.eval(words) == ["FAILED"]
    assert page.eval("document.getElementById('shown').textContent") == f"1 of {len(WORDS)} shown"
    page.eval("document.querySelector('button.filter[data-outcome=FAILED]').click()")
    assert len(page.eval(words)) == len(WORDS)
    page.eval(
        "const s = document.getElementById('search'); s.value = 'WIFI'; s.dispatchEvent(new Event('input'))"
    )
    assert page.eval(words) == ["UNCHECKED"]
    page.eval(
        "const t = document.getElementById('search'); t.value = ''; t.dispatchEvent(new Event('input'))"
    )
    for column in ("duration", "steps", "test"):
        values = f"{VISIBLE}.map(r => r.querySelector('.c-{column}').dataset.v)"
        page.eval(f"document.querySelector('th[data-sort={column}]').click()")
        ascending = page.eval(values)
        page.eval(f"document.querySelector('th[data-sort={column}]').click()")
        descending = page.eval(values)
        key = (lambda v: v.lower()) if column == "test" else float
        assert ascending == sorted(ascending, key=key) and descending == sorted(
            descending, key=key, reverse=True
        )
        assert ascending != descending
    assert page.errors() == []
