"""Every fenced block of every docs page, run as a user would, or checked for what it is.

* A code block that names its file (``# test_x.py``, ``# conftest.py``, ``# pytest.ini``, ``# tool.py``)
  is that file: the named blocks of one section are a project of their own, pasted into a fresh directory
  outside ``examples/``. Each test file runs with ``pytest`` on the simulated phone (with the page's own
  command line when it shows one) and must report what :data:`EXPECTED` says; a section with only a
  conftest runs :data:`EXERCISE`'s test against it; a script runs with ``python`` (with the page's
  arguments).
* A bash line is run that way, or :data:`NOT_RUN` says why it cannot be.
* A JSON block is validated against the contract it shows, a YAML block parsed; an unlabelled block is
  output the page quotes, and :data:`OUTPUT` says whose.

A block nobody classified fails the test, so a new block is run or excused when it is written.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest
import yaml
from doc_blocks import BLOCKS, Block, page_command, section_files, shell_lines

from pytest_artemis.junit import read_properties

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

#: What each page's test files must report (the pages say so in their prose; the stand-in checker is honest).
EXPECTED: dict[tuple[str, str], dict[str, str]] = {
    ("configuration.md", "test_quick.py"): {"test_quick": "PASSED"},
    ("getting-started.md", "test_airplane_mode.py"): {"test_airplane_mode": "PASSED"},
    ("getting-started.md", "test_from_the_body.py"): {"test_run_from_the_body": "PASSED"},
    ("getting-started.md", "test_settings_per_test.py"): {"test_bluetooth": "PASSED"},
    ("setting-up-the-device.md", "test_bluetooth_off.py"): {"test_bluetooth_off": "PASSED"},
    ("setting-up-the-device.md", "test_login.py"): {"test_login": "PASSED"},
    ("simulated-phone.md", "test_crash.py"): {"test_alarm_survives_a_crash": "PASSED"},  # it recovers
    ("testing-with-scripted-model.md", "test_airplane_mode.py"): {"test_airplane_mode": "PASSED"},
    ("testing-with-scripted-model.md", "test_clock.py"): {"test_open_clock": "PASSED"},
    ("testing-with-scripted-model.md", "test_truncated.py"): {
        "test_a_truncated_reply_runs_nothing": "PASSED"},
    ("testing-with-scripted-model.md", "test_toasts.py"): {"test_toast_claim_is_not_believed": "FAILED"},
    ("writing-checks.md", "test_wifi.py"): {"test_wifi_off": "PASSED"},
    ("writing-checks.md", "test_battery.py"): {"test_wifi_off_keeps_the_battery": "PASSED"},
}

#: A test run against a section that brings only a conftest: it uses what the conftest provides.
EXERCISE: dict[tuple[str, str], tuple[str, dict[str, str]]] = {
    ("models-and-costs.md", "Per-role models"): ('''
def test_the_models(artemis_model):
    assert artemis_model.checker.name == "openai/my-model" and artemis_model.operator.stream
''', {}),
}

#: The setup page's fixtures load as written (installing an app and granting it a permission need a real
#: app on an emulator or phone; seeding contacts and alarms needs the simulated phone's providers).
_LOADS = ("""
def test_loaded(request):
    assert request.session.items
""", {})
EXERCISE.update({
    ("setting-up-the-device.md", "The app under test: installed, launched, a permission granted"): _LOADS,
    ("setting-up-the-device.md", "Seeded data"): _LOADS,
})

#: Conftest-only sections another test runs as written, and which.
EXERCISED_ELSEWHERE = {
    ("device-farms.md", "Your own farm: a lease backend"):
        "tests/docs/test_device_farms_page.py leases two simulated phones through it under -n 2",
}

#: Shell lines a test cannot run, and why; every other line runs a page's file or is ``pytest tests/ …``,
#: the user's own suite (on their phones, with their key).
NOT_RUN = {
    'pip install -e ".[ocr]"': "installs the package (the test runs from this checkout)",
    "pytest examples/ --artemis-device=sim": "the repository's examples (tests/examples runs them)",
    "pytest examples/ -n 2 --artemis-device=sim:2": "the examples under xdist (tests/examples runs them)",
    "python -m pytest_artemis.sim --devices 2 --port 5038": "a standalone server on a fixed port "
                                                            "(tests/sim/test_sim_cli.py starts one)",
    "python -m pytest_artemis.sim --devices 2 --port 5048 &": "likewise",
    "ADB_SERVER_SOCKET=tcp:127.0.0.1:5038 adb devices": "needs the standalone server above",
    "pytest examples/ -n 2 --artemis-adb-server=127.0.0.1:5048 --artemis-device=emulator-5554,emulator-5556":
        "needs the standalone server above",
    "python -m pytest_artemis.sim --host 127.0.0.2 --port 5037 &": "a standalone server on a fixed port, "
                                                                    "as a device host runs it (tests/farm "
                                                                    "runs sessions over two such servers)",
    "python -m pytest_artemis.sim --host 127.0.0.3 --port 5037 &": "likewise",
    "pytest examples/ -n 2 --artemis-device=127.0.0.2:5037/emulator-5554,127.0.0.3:5037/emulator-5554":
        "needs the two standalone servers above",
    "export ARTEMIS_STF_TOKEN=...": "needs an STF server's access token (tests/farm runs an STF double)",
    "adb devices": "needs a real phone or an emulator",
    "adb -a -P 5037 nodaemon server": "a device host's own adb server",
    "python -m pytest_artemis.report merge merged/ runner-a/.artemis runner-b/.artemis":
        "needs two runners' artifacts (tests/report/test_sessions_merge.py merges three sessions)",
    "export ARTEMIS_API_KEY=...": "needs a provider's API key",
    "ARTEMIS_ALLOW_MODEL_REQUESTS=0 pytest tests/ --artemis-device=sim": "the user's own suite "
                                                                          "(tests/plugin/test_preflight.py)",
    'git add .artemis-recordings && git commit -m "Replay recordings"': "commits to the user's repository",
    **dict.fromkeys(("python -m pytest_artemis.fitness --model openai/gpt-4o",
                     "python -m pytest_artemis.fitness --operator-model openai/gpt-4o-mini "
                     "--checker-model anthropic/claude-sonnet-4-20250514",
                     "python -m pytest_artemis.fitness --checker-model anthropic/claude-sonnet-4-20250514"),
                    "a provider's model, with its key (tests/fitness/test_fitness_docs.py parses the flags)"),
    "python -m pytest_artemis.fitness --model openai/my-model --api-base http://127.0.0.1:8000/v1":
        "needs the user's own server (tests/fitness/test_litellm_path.py runs the kit against a local one)",
    "python -m pytest_artemis.fitness --model scripted:honest --out fitness-selftest":
        "the kit's own run with a scripted model (tests/fitness runs each scripted model this way)",
}

#: The unlabelled blocks of each page: output the page quotes, and where it comes from.
OUTPUT = {
    "device-farms.md": "the line a quarantined device prints (tests/farm/test_farm_servers.py checks it) and "
                       "the artifacts directory's layout (tests/report/test_sessions_merge.py)",
    "models-and-costs.md": "a model timeout's message (tests/plugin/test_provider_errors.py checks it) and a "
                           "checker request in full (tests/docs/test_checker_contract_page.py generates it)",
    "outcomes-and-ci.md": "messages of the examples' FAILED and BLOCKED runs",
    "performance.md": "what the benchmarks/ scripts print",
    "replay.md": "what replayed runs print (tests/replay checks the lines)",
    "fitness.md": "the fitness kit's output for scripted:liar (tests/fitness/test_fitness_docs.py checks it)",
}

#: Stands in for ``--artemis-model`` on pages whose blocks bring no model: a script for the goals the
#: docs use, else the examples' demo agent; in the conftest of the directory above the user's project.
MODEL_STAND_IN = f'''
import sys

import pytest
from pytest_artemis.testing import finish, on_screen, scripted_agent, tap

sys.path.insert(0, {str(EXAMPLES)!r})
from demo_agent import demo_models  # noqa: E402

SCRIPTS = {{
    "Turn off Wi\\u2011Fi in Settings": ([tap("Settings"), tap("Network & internet"), tap("Wi-Fi"), finish()],
                                       on_screen("Wi-Fi", checked=False)),
}}


@pytest.fixture
def artemis_model(request):
    marker = request.node.get_closest_marker("goal")
    if marker is None or marker.args[0] not in SCRIPTS:
        return demo_models()
    steps, goal = SCRIPTS[marker.args[0]]
    return scripted_agent(*steps, goal=goal)
'''

def _runnable_lines() -> list[tuple[Block, str]]:
    return [(b, line) for b in BLOCKS if b.lang == "bash" for line in shell_lines(b)]


def test_every_block_is_run_or_says_why_not():
    named = {(b.page, b.name) for b in BLOCKS if b.name}
    tests = {key for key in named if key[1].startswith("test_")}
    assert tests == set(EXPECTED), "every test file a page shows is run"
    conftest_only = {(b.page, b.section) for b in BLOCKS if b.name == "conftest.py"
                     and not any(f.startswith("test_") for f in section_files(b.page, b.section))}
    assert conftest_only == set(EXERCISE) | set(EXERCISED_ELSEWHERE)
    for block in BLOCKS:
        where = f"{block.page} ({block.section}): {block.body.splitlines()[0][:60]!r}"
        if block.lang in ("python", "ini"):
            assert block.name, f"{where}: a code block names its file"
        elif block.lang not in ("bash", "json", "yaml"):  # those are run or checked below
            assert block.lang == "" and block.page in OUTPUT, f"{where}: an unclassified block"
    for block, line in _runnable_lines():
        words = shlex.split(line)
        runs = len(words) > 1 and words[0] in ("pytest", "python") and (block.page, words[1]) in named
        excused = line in NOT_RUN or words[:2] == ["pytest", "tests/"]  # the user's own suite
        assert runs or excused, f"{block.page}: {line!r} is neither run nor excused"


def test_data_blocks_are_what_they_say():
    from pytest_artemis.agents.schemas import CheckReport
    from pytest_artemis.contracts import ModelCallRecord

    for block in BLOCKS:
        if block.lang == "json" and block.section == "The checker contract in full":  # a checker's reply
            CheckReport.model_validate(json.loads(block.body))
        elif block.lang == "json":  # a model_calls.jsonl line
            ModelCallRecord.model_validate(json.loads(block.body))
        if block.lang == "yaml":  # a CI workflow: its pytest step is a command the pages show
            steps = yaml.safe_load(block.body)
            runs = [s["run"] for s in steps if "run" in s]
            assert runs and all(r.startswith("pytest tests/ --artemis-device=") for r in runs)


def _words(xml: Path) -> dict[str, str]:
    return {nodeid.rpartition("::")[2]: props.get("artemis.outcome", "")
            for nodeid, props in read_properties(xml).items()}


def _project(pytester: pytest.Pytester, page: str, section: str, name: str = "my_project") -> Path:
    """The section's files in a directory of the user's own (and the stand-ins they lean on). The page's
    ``pytest.ini`` (its project set-up) is the session's ini file, in the directory above."""
    user = pytester.mkdir(name)
    files = section_files(page, section)
    for file, text in files.items():
        if file != "pytest.ini":
            (user / file).write_text(text, encoding="utf-8")
    if not any("def artemis_model" in text for text in files.values()):
        pytester.makeconftest(MODEL_STAND_IN)
    ini = next((b.body for b in BLOCKS if b.page == page and b.name == "pytest.ini"),
               "# pytest.ini\n[pytest]\n")
    pytester.makeini(ini.split("\n", 1)[1])
    return user


def _run(pytester: pytest.Pytester, user: Path, argv: list[str]) -> tuple[pytest.RunResult, dict[str, str]]:
    xml = pytester.path / "junit.xml"
    argv = [f"{user.name}/{argv[0]}", *argv[1:]] if argv else [user.name]
    result = pytester.runpytest_subprocess(*argv, "-p", "no:cacheprovider", f"--junitxml={xml}")
    return result, _words(xml)


def _section_of(page: str, file: str) -> str:
    return next(b.section for b in BLOCKS if b.page == page and b.name == file)


@pytest.mark.parametrize(("page", "test_file"), sorted(EXPECTED))
def test_a_pages_code_runs_as_written(pytester: pytest.Pytester, page, test_file):
    user = _project(pytester, page, _section_of(page, test_file))
    for other in [p for p in user.glob("test_*.py") if p.name != test_file]:
        other.unlink()
    command = page_command(page, test_file)
    argv = command[1:] if command else [test_file, "--artemis-device=sim"]
    result, words = _run(pytester, user, argv)
    assert words == EXPECTED[(page, test_file)], result.stdout.str()
    passed = all(word == "PASSED" for word in words.values())
    assert result.ret == (0 if passed else 1), result.stdout.str()


@pytest.mark.parametrize(("page", "section"), sorted(EXERCISE))
def test_a_pages_conftest_runs(pytester: pytest.Pytester, page, section):
    test, expected = EXERCISE[(page, section)]
    user = _project(pytester, page, section)
    (user / "test_exercise.py").write_text(test, encoding="utf-8")
    result, words = _run(pytester, user, ["test_exercise.py", "--artemis-device=sim"])
    assert result.ret == 0, result.stdout.str()
    assert words == expected or not expected


def test_a_pages_scripts_run(pytester: pytest.Pytester):
    """``plumbing.py`` as it is; ``ci_summary.py`` on the JUnit file of a getting-started run."""
    scripts = sorted({(b.page, b.name) for b in BLOCKS if b.name.endswith(".py")
                      and not b.name.startswith("test_") and b.name != "conftest.py"})
    assert scripts
    for n, (page, name) in enumerate(scripts):
        user = _project(pytester, page, _section_of(page, name), f"scripts_{n}")
        command = page_command(page, name) or ["python", name]
        if "out.xml" in command:
            run = _project(pytester, "getting-started.md", _section_of("getting-started.md",
                                                                       "test_airplane_mode.py"), f"run_{n}")
            pytester.runpytest_subprocess(f"{run.name}/test_airplane_mode.py", "--artemis-device=sim",
                                          "-p", "no:cacheprovider", f"--junitxml={user / 'out.xml'}")
        args = [str(user / a) if (user / a).exists() else a for a in command[2:]]
        result = pytester.run(sys.executable, str(user / name), *args)
        assert result.ret == 0, f"{page} {name}: {result.stderr.str()}"
        if "out.xml" in command:
            result.stdout.fnmatch_lines(["PASSED *test_airplane_mode.py::test_airplane_mode  steps=*"])
