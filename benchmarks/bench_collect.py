"""Plugin import time; ``--collect-only`` of 200 marked tests vs 200 plain tests; what a session without
artemis tests pays for the plugin.

    python benchmarks/bench_collect.py [--tests 200] [--repeats 7] [--bytecode[=installed]]

Import: ``python -X importtime -c "import pytest_artemis.plugin"``; the total is the sum of the top-level
cumulative times, split into what ``pytest`` itself costs and what the plugin adds on top (``-c "import
pytest; import pytest_artemis.plugin"``, lines after pytest's). Collection: projects with the same
test functions (each takes the ``artemis`` fixture): marked with goal/verify/assert_ (two probe checks),
plugin on; the same markers with text checks only (the test modules import nothing of artemis), plugin
on and off (off: what pytest itself charges for the markers, a floor no plugin reading them goes under); the
same marked project with ``-p no:artemis`` (what the test modules' own import of
``pytest_artemis.probes`` costs without the plugin); the floor of any pydantic-based probe check: the
marked project with ``probes`` replaced by two bare pydantic models of the same fields (a local module,
``-p no:artemis``: importing pydantic and building two models is all it pays); unmarked with
``-p no:artemis``; unmarked with the plugin on. Every measurement is repeated
``--repeats`` times, interleaved, and medians are reported (the machine is noisy); the CPU time of each
pytest process (user + sys) is printed too, being far less sensitive to other load than wall time.
Finally a whole session (not only collection) of plain tests that use nothing of artemis runs with the plugin
on and with ``-p no:artemis``: the difference is what the plugin costs a session that does not use it.
Every pytest process runs in a user's environment (``userenv.py``: dev-only plugins off, loaded ones named).
Bytecode: by default the sessions inherit this environment's ``PYTHONDONTWRITEBYTECODE`` (set here: every
process compiles the package and pytest rewrites the test modules again, as in many containers and CI);
``--bytecode`` lets them cache it (a private ``PYTHONPYCACHEPREFIX``, filled by one untimed round first),
as repeated local runs have it; ``--bytecode=installed`` keeps the bytecode of the installed code (Python,
pytest, this package: pip compiles a package when it installs it) but compiles the test modules afresh in
every session, as the first CI run after ``pip install`` does.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from userenv import describe, env, pytest_argv

IMPORT_TARGET_S = 0.5
COLLECT_TARGET = 1.20
UNUSED_TARGET_S = 0.1
_LINE = re.compile(r"^import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)$")
ENV = env()

MARKED = '''
@pytest.mark.goal("Turn on Wi-Fi number {n} in Settings", app="com.android.settings")
@pytest.mark.verify("Wi-Fi is on", probe=probes.setting("global", "wifi_on", equals="1"))
@pytest.mark.verify("An alarm is set", probe=probes.alarm_set("07:30"))
@pytest.mark.assert_("No crash dialog appears", when="end")
def test_case_{n}(artemis):
    assert artemis is not None
'''
MARKED_TEXT = '''
@pytest.mark.goal("Turn on Wi-Fi number {n} in Settings", app="com.android.settings")
@pytest.mark.verify("Wi-Fi is on")
@pytest.mark.verify("An alarm is set")
@pytest.mark.assert_("No crash dialog appears", when="end")
def test_case_{n}(artemis):
    assert artemis is not None
'''
UNMARKED = '''
def test_case_{n}(artemis):
    assert artemis is not None
'''
PLAIN = '''
def test_case_{n}():
    assert {n} >= 0
'''
#: The probe checks of MARKED as two bare pydantic models (same fields, no validation of their own).
FLOOR_CHECKS = '''
from pydantic import BaseModel, ConfigDict, Field


class ProbeSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    kind: str = Field(min_length=1)
    params: dict[str, str] = Field(default_factory=dict)


class ProbeCheck(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    probe: ProbeSpec
    name: str = Field(min_length=1)
    args: dict[str, str | int | bool | None] = Field(default_factory=dict)
    description: str = ""


def setting(ns, key, equals=None):
    return ProbeCheck(probe=ProbeSpec(kind="setting", params={"ns": ns, "key": key}), name="setting_equals",
                      args={"equals": equals}, description=f"settings {ns}/{key} == {equals!r}")


def alarm_set(time):
    return ProbeCheck(probe=ProbeSpec(kind="alarms"), name="alarm_set",
                      args={"time": time, "enabled": True, "clock": None},
                      description=f"the clock app has an alarm at {time}")
'''


def import_times() -> tuple[float, float, list[tuple[int, int, str]]]:
    """(pytest_artemis.plugin cumulative s, the plugin on top of an imported pytest s, that import's
    lines as (self us, cumulative us, module))."""
    def run(code: str) -> list[tuple[int, int, str]]:
        out = subprocess.run([sys.executable, "-X", "importtime", "-c", code], env=ENV,
                             capture_output=True, text=True, check=True).stderr
        # depth 1 = a top-level import (one space after the bar); nested ones are indented further
        return [(len(m.group(3)), int(m.group(1)), int(m.group(2)), m.group(4))
                for m in map(_LINE.match, out.splitlines()) if m]

    alone = run("import pytest_artemis.plugin")
    plugin = next(cum for depth, _, cum, name in alone if depth <= 1 and name == "pytest_artemis.plugin")
    after = run("import pytest; import pytest_artemis.plugin")
    at = next(i for i, (depth, _, _, name) in enumerate(after) if depth <= 1 and name == "pytest")
    extra = sum(cum for depth, _, cum, _ in after[at + 1:] if depth <= 1)
    return plugin / 1e6, extra / 1e6, [(own, cum, name) for _, own, cum, name in after[at + 1:]]


def make_projects(root: Path, tests: int, per_file: int = 20) -> dict[str, Path]:
    projects = {}
    for name, template, head in (("marked", MARKED, "import pytest\nfrom pytest_artemis import probes\n"),
                                 ("floor", MARKED, "import pytest\nimport floor_checks as probes\n"),
                                 ("marked_text", MARKED_TEXT, "import pytest\n"),
                                 ("unmarked", UNMARKED, ""), ("plain", PLAIN, "")):
        project = root / name
        project.mkdir()
        if name == "floor":
            (project / "floor_checks.py").write_text(FLOOR_CHECKS)
        # The markers are declared, so the marked project collected with -p no:artemis warns of none.
        (project / "pytest.ini").write_text("[pytest]\nmarkers =\n    goal\n    verify\n    assert_\n")
        for start in range(0, tests, per_file):
            body = head + "".join(template.format(n=n) for n in range(start, min(tests, start + per_file)))
            (project / f"test_file_{start // per_file:03d}.py").write_text(body)
        projects[name] = project
    return projects


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def artemis_source(cwd: Path) -> str:
    """Where the measured sessions import ``pytest_artemis`` from (a checkout on ``PYTHONPATH`` or the
    installed package), so a run says which code it measured."""
    code = "import pytest_artemis, pathlib; print(pathlib.Path(pytest_artemis.__file__).parent.parent)"
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, env=ENV, capture_output=True, text=True,
                          check=True).stdout.strip()


def session(project: Path, *extra: str) -> tuple[float, float, str]:
    """(wall s, CPU s, summary line) of one ``pytest -q`` subprocess."""
    argv = pytest_argv("-q", *extra)
    cpu = _children_cpu()
    started = time.perf_counter()
    proc = subprocess.run(argv, cwd=project, env=ENV, capture_output=True, text=True)
    wall = time.perf_counter() - started
    cpu = _children_cpu() - cpu
    summary = (proc.stdout.strip().splitlines() or ["(no output)"])[-1]
    if proc.returncode != 0:
        raise SystemExit(f"collection failed in {project} {extra}: "
                         f"{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
    return wall, cpu, summary


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tests", type=int, default=200, help="generated tests (default 200)")
    parser.add_argument("--repeats", type=int, default=7, help="interleaved repeats; medians (default 7)")
    parser.add_argument("--bytecode", nargs="?", const="all", default="none", choices=("all", "installed"),
                        help="let the sessions cache bytecode (a private pycache, warmed first): all of it, "
                             "or (installed) all but the test modules'")
    args = parser.parse_args()
    imports: list[tuple[float, float, list[tuple[int, int, str]]]] = []
    labels = ("marked", "marked, no plugin", "floor", "marked text", "marked text, no plugin", "plain",
              "unmarked+plugin", "unused, plugin on", "unused, -p no:artemis")
    walls: dict[str, list[float]] = {k: [] for k in labels}
    cpus: dict[str, list[float]] = {k: [] for k in labels}
    summaries: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="artemis-bench-collect-") as tmp:
        projects = make_projects(Path(tmp), args.tests)
        cached = args.bytecode != "none"
        prefix = Path(tmp) / "pycache"
        if cached:
            ENV.pop("PYTHONDONTWRITEBYTECODE", None)
            ENV["PYTHONPYCACHEPREFIX"] = str(prefix)
        cases = (("marked", projects["marked"], ("--collect-only",)),
                 ("marked, no plugin", projects["marked"], ("--collect-only", "-p", "no:artemis")),
                 ("floor", projects["floor"], ("--collect-only", "-p", "no:artemis")),
                 ("marked text", projects["marked_text"], ("--collect-only",)),
                 ("marked text, no plugin", projects["marked_text"], ("--collect-only", "-p", "no:artemis")),
                 ("plain", projects["unmarked"], ("--collect-only", "-p", "no:artemis")),
                 ("unmarked+plugin", projects["unmarked"], ("--collect-only",)),
                 ("unused, plugin on", projects["plain"], ()),
                 ("unused, -p no:artemis", projects["plain"], ("-p", "no:artemis")))
        for round_ in range(args.repeats + cached):
            timed = not (cached and round_ == 0)  # with --bytecode, round 0 fills the cache
            if timed:
                imports.append(import_times())
            for label, project, extra in cases:
                if args.bytecode == "installed":  # the projects' cached modules (pytest's rewrites too)
                    shutil.rmtree(prefix / Path(tmp).relative_to(Path(tmp).anchor), ignore_errors=True)
                wall, cpu, summaries[label] = session(project, *extra)
                if timed:
                    walls[label].append(wall)
                    cpus[label].append(cpu)
        header = f"{describe()}; pytest_artemis from {artemis_source(projects['plain'])}"
    plugin, extra = (statistics.median(i[k] for i in imports) for k in range(2))
    bytecode = ("cached (--bytecode)" if args.bytecode == "all" else
                "cached but the test modules' (--bytecode=installed)" if args.bytecode == "installed" else
                "not cached (PYTHONDONTWRITEBYTECODE=1)" if os.environ.get("PYTHONDONTWRITEBYTECODE")
                else "as this environment has it")
    print(f"{os.cpu_count()} CPU cores, {args.repeats} interleaved repeats, medians; load average "
          f"{os.getloadavg()[0]:.1f}; bytecode {bytecode}")
    print(header)
    print(f"import pytest_artemis.plugin (-X importtime cumulative, pytest included): {plugin:.3f} s "
          f"(target <= {IMPORT_TARGET_S} s: {'met' if plugin <= IMPORT_TARGET_S else 'MISSED'}); "
          f"on top of an already imported pytest: {extra:.3f} s")
    heaviest = sorted(imports[-1][2], reverse=True)[:8]
    print("  heaviest modules on top of pytest (self ms): "
          + ", ".join(f"{name} {own / 1000:.1f}" for own, _, name in heaviest))
    title = f"collect-only, {args.tests} tests"
    print(f"{title:<44} {'median s':>8} {'min s':>6} {'max s':>6} {'CPU s':>6}  summary")
    for label, title in (("marked", "marked, plugin on"), ("marked, no plugin", "marked, -p no:artemis"),
                         ("floor", "marked, bare pydantic checks, -p no:artemis"),
                         ("marked text", "marked, text checks only, plugin on"),
                         ("marked text, no plugin", "marked, text checks only, -p no:artemis"),
                         ("plain", "unmarked, -p no:artemis (plain pytest)"),
                         ("unmarked+plugin", "unmarked, plugin on")):
        w = walls[label]
        print(f"{title:<44} {statistics.median(w):8.3f} {min(w):6.3f} {max(w):6.3f} "
              f"{statistics.median(cpus[label]):6.3f}  {summaries[label]}")
    marked, plain, unmarked = (statistics.median(walls[k]) for k in ("marked", "plain", "unmarked+plugin"))
    ratio = marked / plain
    print(f"marked / plain = {ratio:.3f} (target <= {COLLECT_TARGET:.2f}): "
          f"{'met' if ratio <= COLLECT_TARGET else 'MISSED'}; marked / unmarked with plugin = "
          f"{marked / unmarked:.3f}; unmarked with plugin / plain = {unmarked / plain:.3f}")
    cpu_m, cpu_p, cpu_u, cpu_n, cpu_f = (statistics.median(cpus[k]) for k in (
        "marked", "plain", "unmarked+plugin", "marked, no plugin", "floor"))
    print(f"CPU time (less sensitive to other load): marked / plain = {cpu_m / cpu_p:.3f}; "
          f"marked / unmarked with plugin = {cpu_m / cpu_u:.3f}; unmarked with plugin / plain = "
          f"{cpu_u / cpu_p:.3f}; min wall marked / plain = {min(walls['marked']) / min(walls['plain']):.3f}")
    print(f"the test modules' own code (`from pytest_artemis import probes`, the probe checks: no pydantic), "
          f"plugin off: marked, -p no:artemis / plain = {cpu_n / cpu_p:.3f} (CPU); what the plugin adds to "
          f"them: marked / marked, -p no:artemis = {cpu_m / cpu_n:.3f} (CPU)")
    cpu_t, cpu_tn = (statistics.median(cpus[k]) for k in ("marked text", "marked text, no plugin"))
    print(f"probe checks over text checks, plugin on: marked / marked, text checks only = "
          f"{cpu_m / cpu_t:.3f} (CPU, +{(cpu_m - cpu_t) * 1000:.0f} ms)")
    print(f"pytest's own cost of the markers (text checks, -p no:artemis) / plain = {cpu_tn / cpu_p:.3f} "
          f"(CPU); what artemis adds over it: marked / that = {cpu_m / cpu_tn:.3f}, text checks plugin on / "
          f"that = {cpu_t / cpu_tn:.3f}")
    print(f"the floor of pydantic-based probe checks (two bare models, plugin off) / plain = "
          f"{cpu_f / cpu_p:.3f} (CPU); marked, -p no:artemis / that floor = {cpu_n / cpu_f:.3f}")
    on, off = (walls[k] for k in ("unused, plugin on", "unused, -p no:artemis"))
    cost = statistics.median(a - b for a, b in zip(on, off, strict=True))
    cpu_on, cpu_off = (cpus[k] for k in ("unused, plugin on", "unused, -p no:artemis"))
    cpu_cost = statistics.median(a - b for a, b in zip(cpu_on, cpu_off, strict=True))
    print(f"a session of {args.tests} tests that use nothing of artemis: plugin on "
          f"{statistics.median(on):.3f} s, -p no:artemis {statistics.median(off):.3f} s "
          f"({summaries['unused, plugin on']})")
    print(f"{'measure (median of paired repeats)':<44} {'value':>8} {'target':>8}  verdict")
    for label, value, target, unit in (
            ("collect-only marked / plain", ratio, COLLECT_TARGET, "x"),
            ("  the same in CPU time", cpu_m / cpu_p, COLLECT_TARGET, "x"),
            ("  floor: bare pydantic checks / plain, CPU", cpu_f / cpu_p, COLLECT_TARGET, "x"),
            ("marked, text checks only / plain, CPU", cpu_t / cpu_p, COLLECT_TARGET, "x"),
            ("plugin cost to a session not using it", cost, UNUSED_TARGET_S, "s"),
            ("  the same in CPU time", cpu_cost, UNUSED_TARGET_S, "s")):
        print(f"{label:<44} {value:7.3f}{unit} {'<= ' + format(target, 'g'):>8}  "
              f"{'met' if value <= target else 'MISSED'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
