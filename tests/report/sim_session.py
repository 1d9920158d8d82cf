"""Real runs for the report tests: a small pytest session on the simulated phone, written by the engine.

The operator is the examples' demo agent (it reads each screen and taps, types and swipes on the
simulated phone); the planner is its recipe planner; the checker decides model-judged items by the item
text's prefix (``PASS:``/``FAIL:``/``MAYBE:``) so every outcome appears once. One more run is killed
in the middle (``os._exit``), leaving its journal RUNNING, as a ``kill -9`` would.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from pytest_artemis.report import IndexEntry, render_index, render_run_report
from pytest_artemis.store import list_runs, read_run

REPO = Path(__file__).resolve().parents[2]

CONFTEST = f"""
import os
import re
import sys

import pytest

sys.path.insert(0, {str(REPO / "examples")!r})
from demo_agent import operate, plan_for  # the examples' screen-reading demo agent

from pytest_artemis.agents.schemas import CheckReport, CitationClaim, ModelVerdict, PlanReply
from pytest_artemis.models import ModelSet
from pytest_artemis.testing import ModelUnavailable, ScriptedModel, citations_for

STATUS = {{"PASS": "passed", "FAIL": "failed", "MAYBE": "inconclusive"}}


def respond(request):
    if request.role == "planner":
        return PlanReply(plan=plan_for(request.goal))
    if request.role == "operator":
        if "[model-down]" in request.goal:
            raise ModelUnavailable("provider answered HTTP 503", http_status=503)
        if "[killed]" in request.goal and request.turn >= 3:
            os._exit(9)
        return operate(request)
    verdicts = []
    for item in request.checks:
        status = STATUS.get(item.text.split(":", 1)[0], "passed")
        shown = citations_for(item, request.screens) if status == "passed" and not item.visual else []
        claim = cite(request, item)
        seen = f"the screen shows {{claim.quote!r}}" if claim else "nothing on the recorded screens to cite"
        verdicts.append(ModelVerdict(item=item.text, status=status, evidence=seen,
                                     citations=shown or ([claim] if claim else [])))
    return CheckReport(verdicts=verdicts)


def cite(request, item):
    if item.visual:  # a judgement of the screenshot itself, allowed because the check opted in
        screen = request.screens[-1] if request.screens else None
        return CitationClaim(step=screen.step, screen=screen.screen, visual=True) if screen else None
    # The element showing the text the item quotes ('7:30 AM'); a failing claim cites what the screen
    # shows instead (the element sharing the quote's first characters); else the newest labelled one.
    quoted = re.findall(r"'([^']+)'", item.text)
    want = quoted[0].casefold() if quoted else ""
    screens = list(reversed(request.screens))
    tests = [lambda label: want and want in label, lambda label: want and want[:4] in label, bool]
    for test in tests:
        for screen in screens:
            element = next((e for e in screen.view.elements if test(e.label.casefold())), None)
            if element is not None:
                return CitationClaim(step=screen.step, screen=screen.screen, element=element.index,
                                     quote=element.label)
    return None


@pytest.fixture
def artemis_model():
    return ModelSet.uniform(ScriptedModel(respond))
"""

TESTS = """
import pytest

from pytest_artemis import probes


@pytest.mark.goal("Create an alarm for 7:30 AM in the Clock app")
@pytest.mark.verify("The alarm list has a 7:30 AM alarm", probe=probes.alarm_set("07:30"))
@pytest.mark.assert_("PASS: The alarm list shows '7:30 AM'")
@pytest.mark.assert_("PASS: The new alarm's switch looks blue", visual=True)
def test_alarm_passed(artemis):
    pass


@pytest.mark.goal("Create a contact named Margaret Hamilton with phone 555-0199")
@pytest.mark.verify("Margaret Hamilton is saved", probe=probes.contact_exists(name="Margaret Hamilton"))
@pytest.mark.assert_("Margaret Hamilton's number is 555-0123",
                     probe=probes.contact_exists(name="Margaret Hamilton", phone="555-0123"))
@pytest.mark.assert_("FAIL: The saved contact shows '555-0123'")
def test_contact_failed(artemis):
    pass


@pytest.mark.goal("Turn on Extra dim in Settings", max_steps=6)
@pytest.mark.verify("Extra dim is on",
                    probe=probes.setting("secure", "reduce_bright_colors_activated", equals="1"))
def test_extra_dim_blocked(artemis):
    pass


@pytest.mark.goal("Turn off Wi-Fi in Settings")
@pytest.mark.verify("Wi-Fi is off", probe=probes.setting("global", "wifi_on", equals=False))
@pytest.mark.assert_("MAYBE: The screen looks calmer")
def test_wifi_unchecked(artemis):
    pass


@pytest.mark.goal("Turn on Dark theme in Settings [model-down]")
@pytest.mark.verify("Dark theme is on", probe=probes.setting("secure", "ui_night_mode", equals="2"))
def test_model_down_error(artemis):
    pass
"""

KILLED = """
import pytest


@pytest.mark.goal("Create an alarm for 6:45 AM in the Clock app [killed]")
@pytest.mark.assert_("PASS: The alarm list shows '6:45 AM'")
def test_killed_interrupted(artemis):
    pass
"""

#: Test name → the word its run page and index row must show.
WORDS = {
    "test_alarm_passed": "PASSED",
    "test_contact_failed": "FAILED",
    "test_extra_dim_blocked": "BLOCKED",
    "test_wifi_unchecked": "UNCHECKED",
    "test_model_down_error": "ERROR",
    "test_killed_interrupted": "INTERRUPTED",
}


@dataclass(frozen=True)
class SimSession:
    """The artifacts of the session: its root, each test's run directory, the index."""

    root: Path
    runs: dict[str, Path]
    replayed: Path
    """The passing test's run in a later session that replayed its recorded decisions."""

    @property
    def index(self) -> Path:
        return self.root / "index.html"

    def report(self, name: str) -> Path:
        return self.runs[name] / "report.html"

    @classmethod
    def load(cls, workdir: Path) -> SimSession:
        """The session another process built in ``workdir``."""
        root = workdir / "artifacts"
        (replayed,) = list_runs(workdir / "replayed")
        return cls(root=root, runs={_name(d): d for d in list_runs(root)}, replayed=replayed)

    def copy_to(self, dest: Path) -> SimSession:
        """A copy of the artifacts under ``dest`` (run directories keep their relative places)."""
        shutil.copytree(self.root, dest / "artifacts")
        shutil.copytree(self.replayed.parent.parent, dest / "replayed")
        return SimSession.load(dest)


def _name(run_dir: Path) -> str:
    return read_run(run_dir).header.test_id.rpartition("::")[2]


def _pytest(project: Path, root: Path, test_file: str, *extra: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARTEMIS_")}
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")])
    argv = [
        sys.executable,
        "-m",
        "pytest",
        "-p",
        "no:cacheprovider",
        "-p",
        "no:xdist",
        test_file,
        "--artemis-device=sim",
        f"--artemis-artifacts={root}",
        f"--artemis-recordings={project / 'recordings'}",
        *extra,
    ]
    return subprocess.run(argv, cwd=project, env=env, capture_output=True, text=True, timeout=300)


def build_session(workdir: Path) -> SimSession:
    """Run the suite on the simulated phone (one session, then the killed run) and render the index."""
    project, root = workdir / "project", workdir / "artifacts"
    project.mkdir(parents=True)
    (project / "conftest.py").write_text(CONFTEST)
    (project / "test_report_suite.py").write_text(TESTS)
    (project / "test_killed.py").write_text(KILLED)
    done = _pytest(project, root, "test_report_suite.py", "--artemis-replay=record")
    assert done.returncode == 1, done.stdout[-4000:] + done.stderr[-2000:]
    killed = _pytest(project, root, "test_killed.py")
    assert killed.returncode == 9, killed.stdout[-4000:] + killed.stderr[-2000:]
    runs = {_name(d): d for d in list_runs(root)}
    assert set(runs) == set(WORDS), sorted(runs)
    # The passing test again, its decisions replayed from the recording the first session made.
    again = _pytest(
        project, workdir / "replayed", "test_report_suite.py::test_alarm_passed", "--artemis-replay=auto"
    )
    assert again.returncode == 0, again.stdout[-4000:] + again.stderr[-2000:]
    # The killed process rendered neither its page nor an index row: render them as the plugin would
    # at the next opportunity, from the journal it left.
    render_run_report(runs["test_killed_interrupted"], root=root)
    entries = [IndexEntry.from_record(read_run(runs[name]), root) for name in WORDS]
    render_index(root, entries)
    return SimSession.load(workdir)
