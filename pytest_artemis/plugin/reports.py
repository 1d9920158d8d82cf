"""HTML reports: ``report.html`` after each run; at session end (controller) the session's record and
index under ``<artifacts>/sessions/<session>/`` and the directory's ``index.html``.

Thin calls into ``pytest_artemis.report``: the run report is rendered from the run's journal in the
process that ran it; the index is rendered by the controller from the test reports' properties (under
xdist they arrive from the workers), reading each run's outcome back from the shared artifacts dir.
Runners sharing the artifacts directory each leave their session (``report/sessions.py``).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from .options import options_key
from .summary import index_path_key

if TYPE_CHECKING:
    from pytest_artemis.contracts import RunOutcome
    from pytest_artemis.report import IndexEntry
    from pytest_artemis.store import RunRecord


def _record(run_dir: Path) -> RunRecord | None:
    """The run's journal; None when there is no readable run there (never ran, torn)."""
    from pytest_artemis.store import JournalCorrupt, read_run

    if not (run_dir / "run.jsonl").is_file():
        return None
    try:
        return read_run(run_dir)
    except JournalCorrupt:
        return None


def index_entry(root: Path, nodeid: str, props: dict[str, str]) -> IndexEntry:
    """One index line: the test's word from its properties, the reason and numbers from its journal."""
    from pytest_artemis.report import IndexEntry

    run_dir = Path(props.get("artemis.artifacts") or root)
    record = _record(run_dir)
    word = props["artemis.outcome"]
    if record is not None:
        entry = IndexEntry.from_record(record, root, nodeid=nodeid, word=word)
        if not (run_dir / "report.html").is_file():  # not kept (--artemis-keep): listed without a link
            entry = entry.model_copy(update={"run_dir": str(run_dir.resolve())})
    else:
        try:
            rel = run_dir.resolve().relative_to(root).as_posix()
        except ValueError:
            rel = str(run_dir)  # outside the root: listed without a link
        entry = IndexEntry.from_outcome(nodeid, rel, None, word=word)
    if not entry.device and props.get("artemis.device"):
        entry = entry.model_copy(update={"device": props["artemis.device"]})
    return entry


def prune(run_dir: Path) -> None:
    """Drop a run's screenshots and report page (``--artemis-keep``); its journal, ledger and outcome stay."""
    import shutil

    from pytest_artemis.report import REPORT_FILE

    shutil.rmtree(run_dir / "screens", ignore_errors=True)
    (run_dir / REPORT_FILE).unlink(missing_ok=True)


def render_report(item: pytest.Item, artifacts: Path, word: str) -> None:
    """Render the page of a run of ``item`` that ended without ``pytest_artemis_run_finish`` (a hook
    raised), as the registered ``Reports`` plugin renders every other run."""
    reports = item.config.pluginmanager.get_plugin("artemis.reports")
    if isinstance(reports, Reports):
        reports.render(item.nodeid, artifacts, word)


class Reports:
    """Registered as a plugin in ``pytest_configure``; renders the run reports and the session index."""

    def __init__(self, config: pytest.Config) -> None:
        self._config = config
        self._seen: dict[str, dict[str, str]] = {}
        self._runs: dict[str, list[Path]] = {}
        self._interrupted: dict[Path, IndexEntry] = {}
        self._unwritten: list[str] = []
        self._started = time.time()

    def _root(self) -> Path:
        return self._config.stash[options_key].artifacts.resolve()

    def _find_interrupted(self) -> None:
        """Give every interrupted run nobody reported its INTERRUPTED page and remember its index row."""
        from pytest_artemis.report import IndexEntry

        from .interrupted import unreported_interrupted  # only when an artifacts directory exists

        root = self._root()
        for record in unreported_interrupted(root):
            if self._page(record.dir, "INTERRUPTED"):
                self._interrupted[record.dir.resolve()] = IndexEntry.from_record(record, root,
                                                                                  word="INTERRUPTED")

    def _page(self, run_dir: Path, word: str) -> bool:
        """Render a run's ``report.html``; a full or read-only disk is noted for the session's end (the
        run's journal and outcome stand without the page), never raised into a test or the summary."""
        from pytest_artemis.report import render_run_report

        try:
            render_run_report(run_dir, outcome_word=word, root=self._root())
        except OSError as exc:
            self._unwritten.append(f"{run_dir}: {exc.strerror or exc}")
            return False
        return True

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        """Runs an earlier session left unfinished (killed, interrupted) are reported by this one."""
        self._started = time.time()
        if not hasattr(self._config, "workerinput") and self._root().is_dir():
            self._find_interrupted()

    @pytest.hookimpl(trylast=True)
    def pytest_artemis_run_finish(self, item: pytest.Item, outcome: RunOutcome, artifacts: Path,
                                  word: str) -> None:
        """Render the run's ``report.html`` next to its journal, with the word the run maps to."""
        self.render(item.nodeid, artifacts, word)

    def render(self, nodeid: str, artifacts: Path, word: str) -> None:
        """Render a run's ``report.html`` next to its journal; ``--artemis-keep`` prunes it at teardown."""
        self._page(artifacts, word)
        self._runs.setdefault(nodeid, []).append(artifacts)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Remember each artemis test's properties (later reports of a test carry the final word)."""
        props = {str(entry[0]): str(entry[1]) for entry in report.user_properties
                 if str(entry[0]).startswith("artemis.")}
        if "artemis.outcome" in props:
            self._seen[report.nodeid] = props
        if report.when == "teardown" and report.nodeid in self._runs:
            keep = self._config.stash[options_key].keep
            runs = self._runs.pop(report.nodeid)
            if keep == "none" or (keep == "failed" and props.get("artemis.outcome") == "PASSED"):
                for run_dir in runs:
                    prune(run_dir)

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        """Record the session and write the indexes on the controller (never on an xdist worker)."""
        if hasattr(self._config, "workerinput"):
            return
        root = self._root()
        for props in self._seen.values():  # a run whose process died before it could render its page
            run_dir = Path(props.get("artemis.artifacts") or root)
            if props.get("artemis.execution") == "interrupted" and (run_dir / "run.jsonl").is_file():
                self._page(run_dir, props["artemis.outcome"])
        if self._seen and root.is_dir():
            self._find_interrupted()  # this session's own: Ctrl-C, a worker killed without a crash report
        reported = {Path(props.get("artemis.artifacts") or root).resolve() for props in self._seen.values()}
        entries = [index_entry(root, nodeid, props) for nodeid, props in self._seen.items()]
        entries += [entry for run_dir, entry in self._interrupted.items() if run_dir not in reported]
        self._say_unwritten()
        if not entries:
            return  # a session without artemis runs never loads the report package
        import socket

        from pytest_artemis.report.sessions import SessionRecord, record_session, session_name

        runner = self._config.stash[options_key].runner or socket.gethostname()
        name = session_name(runner, self._started)
        record = SessionRecord(session=name, runner=runner, started_at=self._started, finished_at=time.time(),
                               entries=tuple(e.model_copy(update={"session": name}) for e in entries))
        try:
            self._config.stash[index_path_key] = record_session(root, record)
        except OSError as exc:  # a full or read-only disk must not crash the session summary
            self._say(f"artemis: the session index could not be written in {root}: {exc}")

    def _say_unwritten(self) -> None:
        if self._unwritten:
            more = f" (and {len(self._unwritten) - 1} more)" if len(self._unwritten) > 1 else ""
            self._say(f"artemis: a report page could not be written in {self._unwritten[0]}{more}; the runs' "
                      "journals and outcomes are kept")

    def _say(self, line: str) -> None:
        terminal = self._config.pluginmanager.get_plugin("terminalreporter")
        if terminal is not None:
            terminal.write_line(line, red=True)
