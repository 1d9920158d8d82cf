"""Every code block of getting-started.md and writing-checks.md, run as a user would: each Python block is
the file it names, pasted into a fresh project outside ``examples/``, and run with ``pytest`` on the
simulated phone (with the page's own command line when it shows one)."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest

from pytest_artemis.junit import read_properties

DOCS = Path(__file__).resolve().parents[2] / "docs"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.MULTILINE | re.DOTALL)

#: What each page's test files must report (the pages say so in their prose).
EXPECTED: dict[tuple[str, str], dict[str, str]] = {
    ("getting-started.md", "test_airplane_mode.py"): {"test_airplane_mode": "PASSED"},
    ("getting-started.md", "test_from_the_body.py"): {"test_run_from_the_body": "PASSED"},
    ("getting-started.md", "test_settings_per_test.py"): {"test_bluetooth": "PASSED"},
    ("writing-checks.md", "test_wifi.py"): {"test_wifi_off": "PASSED"},
    ("writing-checks.md", "test_battery.py"): {"test_wifi_off_keeps_the_battery": "PASSED"},
}

#: Shell lines a test cannot run, and why; every other line must be a ``pytest`` run of a page's file.
NOT_RUN = {
    'pip install -e ".[ocr]"': "installs the package (the test runs from this checkout)",
    "pytest examples/ --artemis-device=sim": "the repository's examples (tests/examples runs them)",
    "python -m pytest_artemis.sim --devices 2 --port 5038": "a standalone server on a fixed port "
                                                            "(tests/sim/test_sim_cli.py starts one)",
    "ADB_SERVER_SOCKET=tcp:127.0.0.1:5038 adb devices": "needs the standalone server above",
    "adb devices": "needs a real phone or an emulator",
    "export ARTEMIS_API_KEY=...": "needs a provider's API key",
    "pytest tests/ --artemis-device=emulator-5554 --artemis-model=openai/gpt-4o": "needs an emulator, a key",
    "pytest tests/ --artemis-device=1A2B3C4D5E --artemis-model=openai/gpt-4o": "needs a real phone and a key",
}

#: Stands in for ``--artemis-model`` on pages whose blocks bring no model: a script per goal, in the
#: conftest of the directory above the user's project.
MODEL_STAND_IN = '''
import pytest
from pytest_artemis.testing import finish, on_screen, scripted_agent, tap

SCRIPTS = {
    "Turn off Wi\\u2011Fi in Settings": ([tap("Settings"), tap("Network & internet"), tap("Wi-Fi"), finish()],
                                       on_screen("Wi-Fi", checked=False)),
}


@pytest.fixture
def artemis_model(request):
    steps, goal = SCRIPTS[request.node.get_closest_marker("goal").args[0]]
    return scripted_agent(*steps, goal=goal)
'''


@dataclass(frozen=True)
class Page:
    """A page's Python blocks by file name, and its shell lines."""

    files: dict[str, str]
    shell: list[str]

    @classmethod
    def read(cls, name: str) -> Page:
        files: dict[str, str] = {}
        shell: list[str] = []
        for lang, body in FENCE.findall((DOCS / name).read_text(encoding="utf-8")):
            if lang == "python":
                first = body.splitlines()[0]
                assert re.fullmatch(r"# [\w.]+\.py", first), f"{name}: a block names its file: {first!r}"
                files[first[2:]] = files.get(first[2:], "") + body
            elif lang == "bash":
                shell += [line.split("  #")[0].strip() for line in body.splitlines() if line.strip()]
        return cls(files, shell)

    def argv(self, test_file: str) -> list[str]:
        """The page's own command line for ``test_file``, or the plain one."""
        for line in self.shell:
            words = shlex.split(line)
            if words[:2] == ["pytest", test_file]:
                return words[1:]
        return [test_file, "--artemis-device=sim"]


PAGES = {name: Page.read(name) for name in ("getting-started.md", "writing-checks.md")}


def test_every_block_is_run_or_says_why_not():
    for name, page in PAGES.items():
        tests = {f for f in page.files if f.startswith("test_")}
        assert tests == {f for (p, f) in EXPECTED if p == name}, name
        for line in page.shell:
            runs_a_page_file = line.startswith("pytest ") and shlex.split(line)[1] in page.files
            assert runs_a_page_file or line in NOT_RUN, f"{name}: {line!r} is neither run nor excused"


def _words(xml: Path) -> dict[str, str]:
    return {nodeid.rpartition("::")[2]: props.get("artemis.outcome", "")
            for nodeid, props in read_properties(xml).items()}


@pytest.mark.parametrize(("page_name", "test_file"), sorted(EXPECTED))
def test_a_pages_code_runs_as_written(pytester: pytest.Pytester, monkeypatch, page_name, test_file):
    page = PAGES[page_name]
    user = pytester.mkdir("my_project")  # a directory of the user's own, nowhere near examples/
    for name, text in page.files.items():
        if name == "conftest.py" or name == test_file:
            (user / name).write_text(text, encoding="utf-8")
    argv = page.argv(test_file)
    if any("def artemis_model" in text for text in page.files.values()):
        monkeypatch.chdir(user)  # the page brings its model: run exactly its command, in the project
    else:
        pytester.makeini("[pytest]\n")
        pytester.makeconftest(MODEL_STAND_IN)
        argv = [f"{user.name}/{argv[0]}", *argv[1:]]
    xml = pytester.path / "junit.xml"
    result = pytester.runpytest_subprocess(*argv, "-p", "no:cacheprovider", f"--junitxml={xml}")
    assert result.ret == 0, result.stdout.str()
    assert _words(xml) == EXPECTED[(page_name, test_file)]
