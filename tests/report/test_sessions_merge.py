"""Runners sharing one artifacts directory, and one index over several sessions.

Three real pytest sessions on the simulated phone run at the same time: two share one artifacts directory
(as CI runners on a shared folder do), the third writes its own. Each keeps its runs and its own index;
the shared directory's index lists both; ``python -m pytest_artemis.report merge`` lists all three, and
every link of the merged index opens in a real browser.
"""

from __future__ import annotations

import html
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from browser import CHROMIUM, Browser, browser
from html_page import parse
from sim_session import REPO, SimSession

from pytest_artemis.junit import read_properties
from pytest_artemis.report.__main__ import main
from pytest_artemis.report.sessions import FoundSession, SessionRecord, latest, read_sessions

CONFTEST = '''
import pytest
from pytest_artemis.testing import finish, on_screen, scripted_agent, tap


@pytest.fixture
def artemis_model(request):
    wanted = "Network & internet" if "settings" in request.node.name else "Nowhere at all"
    return scripted_agent(tap("Settings"), finish(), goal=on_screen(wanted))
'''

TESTS = '''
import pytest


@pytest.mark.goal("Open Settings")
def test_opens_settings(artemis):
    pass


@pytest.mark.goal("Open Settings and find the Nowhere page")
def test_finds_no_such_page(artemis):
    pass
'''

WORDS = {"test_opens_settings": "PASSED", "test_finds_no_such_page": "UNCHECKED"}
RUNNERS = {"runner-a": "shared", "runner-b": "shared", "runner-c": "other"}


@dataclass(frozen=True)
class Farm:
    """Where the three sessions left their artifacts, and what each one's JUnit file says."""

    workdir: Path
    props: dict[str, dict[str, dict[str, str]]]
    """Runner → test name → its JUnit properties."""

    def artifacts(self, name: str) -> Path:
        return self.workdir / name


@pytest.fixture(scope="module")
def farm(tmp_path_factory: pytest.TempPathFactory) -> Farm:
    workdir = tmp_path_factory.mktemp("runners")
    (workdir / "conftest.py").write_text(CONFTEST)
    (workdir / "test_runner.py").write_text(TESTS)
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARTEMIS_")}
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")])
    runs = {runner: subprocess.Popen(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", "--artemis-device=sim",
         "--artemis-reset=full", f"--artemis-artifacts={folder}", f"--artemis-runner={runner}",
         f"--junitxml={runner}.xml"], cwd=workdir, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True) for runner, folder in RUNNERS.items()}  # all at once: the shared folder is contended
    for runner, run in runs.items():
        out = run.communicate(timeout=300)[0]
        assert run.returncode == 0, f"{runner}: {out[-3000:]}"
    props = {runner: {nodeid.rpartition("::")[2]: p for nodeid, p in
                      read_properties(workdir / f"{runner}.xml").items()} for runner in RUNNERS}
    return Farm(workdir, props)


def _rows(index: Path) -> list[dict[str, str]]:
    """Each test row of an index: its word, cell values (test, session …) and link (relative to the index)."""
    rows = []
    for word, row in re.findall(r'<tr data-outcome="(\w+)"(.*?)</tr>', index.read_text(), re.S):
        cells = dict(re.findall(r'<td class="c-(\w+)[^"]*" data-v="([^"]*)"', row))
        link = re.search(r'<a href="([^"]+)"', row)
        rows.append({**cells, "word": word, "href": html.unescape(link.group(1)) if link else ""})
    return rows


def _session_links(index: Path) -> list[str]:
    """The link of each row of an index's sessions table."""
    rows = re.findall(r'<tr data-session="[^"]*">(.*?)</tr>', index.read_text(), re.S)
    return [html.unescape(re.search(r'<a href="([^"]+)"', row).group(1)) for row in rows]


def test_sessions_sharing_a_directory_keep_their_own_runs_and_indexes(farm: Farm):
    sessions, problems = read_sessions(farm.artifacts("shared"))
    assert problems == [] and sorted(s.record.runner for s in sessions) == ["runner-a", "runner-b"]
    for found in sessions:
        record = found.record
        ran = {Path(p["artemis.artifacts"]) for p in farm.props[record.runner].values()}
        listed = {(found.root / e.run_dir).resolve() for e in record.entries}
        assert listed == ran and len(ran) == 2  # its own runs, each in a directory of its own
        own = _rows(found.dir / "index.html")
        assert {r["test"].rpartition("::")[2]: r["word"] for r in own} == WORDS
        assert {(found.dir / r["href"]).resolve().parent for r in own} == ran  # links up to the runs
    runs_a, runs_b = ({Path(p["artemis.artifacts"]) for p in farm.props[r].values()} for r in ("runner-a",
                                                                                            "runner-b"))
    assert not runs_a & runs_b
    shared = _rows(farm.artifacts("shared") / "index.html")  # both: they ran at the same time
    assert sorted((r["test"].rpartition("::")[2], r["session"].split("-")[-2]) for r in shared) == sorted(
        (test, runner.rpartition("-")[2]) for test in WORDS for runner in ("runner-a", "runner-b"))
    assert len(_session_links(farm.artifacts("shared") / "index.html")) == 2


def _record(name: str, runner: str, start: float, end: float) -> FoundSession:
    return FoundSession(SessionRecord(session=name, runner=runner, started_at=start, finished_at=end,
                                      entries=()), Path("."))


def test_a_runners_next_session_replaces_its_last_in_the_directory_index():
    sessions = [_record("a1", "a", 0, 10), _record("b1", "b", 5, 30), _record("a2", "a", 12, 20),
                _record("a3", "a", 15, 25)]
    # a1 ended before a's last session began: replaced; a2 ran alongside a3; b has one session.
    assert [s.record.session for s in latest(sessions)] == ["b1", "a2", "a3"]


def _merge(farm: Farm, out: Path) -> Path:
    done = subprocess.run([sys.executable, "-m", "pytest_artemis.report", "merge", str(out),
                           str(farm.artifacts("shared")), str(farm.artifacts("other"))],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert done.stdout.strip() == f"{out / 'index.html'}: 3 session(s), 6 test(s)"
    return out / "index.html"


def test_merge_lists_every_sessions_tests_with_links_to_their_reports(farm: Farm, tmp_path: Path):
    index = _merge(farm, tmp_path / "merged")
    rows = _rows(index)
    ran = {Path(p["artemis.artifacts"]) for tests in farm.props.values() for p in tests.values()}
    assert {(index.parent / r["href"]).resolve().parent for r in rows} == ran and len(rows) == 6
    for row in rows:
        page = (index.parent / row["href"]).read_text()
        assert f'data-outcome="{row["word"]}"' in page
    sessions = _session_links(index)
    assert len(sessions) == 3 and all((index.parent / link).is_file() for link in sessions)
    assert "6 tests · " in parse(index).text


@pytest.fixture(scope="module")
def chrome() -> Iterator[Browser]:
    if CHROMIUM is None:
        pytest.skip("Debian chromium not installed (apt install chromium)")
    with browser() as b:
        yield b


VISIBLE = "[...document.querySelectorAll('#tests-table tbody tr')].filter(r => !r.hidden)"


def test_the_merged_index_works_in_a_browser(chrome: Browser, farm: Farm, tmp_path: Path):
    index = _merge(farm, tmp_path / "merged")
    page = chrome.open(index.as_uri())
    links = page.eval(f"{VISIBLE}.map(r => [r.dataset.outcome, r.querySelector('.c-test a').href])")
    assert len(links) == 6 and page.errors() == []
    for word, url in links:  # every link opens its run's page, which shows the row's word
        run = chrome.open(url)
        assert run.eval("document.getElementById('banner').dataset.outcome") == word
        assert run.errors() == []
    page = chrome.open(index.as_uri())
    page.eval("const s = document.getElementById('search'); s.value = 'runner-c'; "
              "s.dispatchEvent(new Event('input'))")
    assert len(page.eval(f"{VISIBLE}.map(r => r.dataset.name)")) == 2  # the search finds a session
    own = page.eval("[...document.querySelectorAll('#sessions-table a')].map(a => a.href)")
    for url in own:  # each session's own index, its links up to its runs
        session = chrome.open(url)
        assert session.eval(f"{VISIBLE}.length") == 2 and session.errors() == []
        first = session.eval("document.querySelector('#tests-table .c-test a').href")
        assert chrome.open(first).eval("document.getElementById('banner').dataset.outcome") in WORDS.values()


def test_merge_lists_the_runs_of_a_session_killed_before_its_end(sim_session: SimSession, tmp_path: Path):
    """The report suite's killed run has no session record (its process died): merge lists it from its
    journal, next to the session that did finish."""
    assert main(["merge", str(tmp_path), str(sim_session.root)]) == 0
    rows = {r["test"].rpartition("::")[2]: r for r in _rows(tmp_path / "index.html")}
    killed = rows.pop("test_killed_interrupted")
    assert killed["word"] == "INTERRUPTED" and killed["session"] == ""
    assert (tmp_path / killed["href"]).resolve() == sim_session.report("test_killed_interrupted")
    assert rows and all(r["session"] for r in rows.values())


def test_merge_names_a_directory_with_nothing_to_merge(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    (tmp_path / "empty").mkdir()
    for where, said in ((tmp_path / "missing", "not a directory"), (tmp_path / "empty", "no pytest-artemis")):
        with pytest.raises(SystemExit) as stopped:
            main(["merge", str(tmp_path / "out"), str(where)])
        assert stopped.value.code == 2
        assert f"merge: error: {where}: {said}" in capsys.readouterr().err
