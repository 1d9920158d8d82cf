"""A run's ruling for its test (RunOutcome → pytest outcome) and the report hooks that carry its word."""

from __future__ import annotations

from collections.abc import Generator, Iterable
from typing import TYPE_CHECKING, Literal, NamedTuple

import pytest

if TYPE_CHECKING:
    from pytest_artemis.contracts import ItemSummary, RunOutcome

Word = Literal["PASSED", "FAILED", "BLOCKED", "ERROR", "UNCHECKED"]
UncheckedMode = Literal["xfail", "skip", "fail"]


class ArtemisOutcome(pytest.fail.Exception):  # type: ignore[misc,name-defined]
    """A test outcome the plugin raised from a run's verdicts (BLOCKED, ERROR, FAILED, strict UNCHECKED).

    A BaseException like every pytest outcome, so agent code's ``except Exception`` cannot swallow it.
    """

    # Like pytest's own outcomes: one-line summaries read "ArtemisOutcome: BLOCKED: …", no module path.
    __module__ = "builtins"


def _fail(message: str) -> None:
    raise ArtemisOutcome(message, pytrace=False)


class Ruling(NamedTuple):
    """What a run means for its test: the word, the phase that reports it, and the message.

    A named tuple: defining a dataclass would cost every session's plugin import a few tenths of a ms.
    """

    word: Word
    message: str = ""
    reason: str = ""
    """One line after the word: the JUnit message (``WORD: reason``) and the short-summary text."""

    @property
    def phase(self) -> Literal["setup", "call"]:
        """BLOCKED/ERROR are setup errors (JUnit ``<error>``); FAILED/UNCHECKED are decided in call."""
        return "setup" if self.word in ("BLOCKED", "ERROR") else "call"


def rule(outcome: RunOutcome, last_word: str = "") -> Ruling:
    """Map a run outcome onto the outcome table of docs/outcomes-and-ci.md (the word is
    ``contracts.outcome_word``; an interrupted run is an ``ERROR`` to pytest) and write the message that
    explains it (``last_word``: the run's last step's decision, which a BLOCKED message leads with when
    no breaker or budget stopped the run)."""
    from pytest_artemis.contracts import blocked_cause, outcome_word

    word = outcome_word(outcome)
    tally = outcome.tests
    if word == "FAILED":
        failed_asserts = tuple(i for i in tally.with_status("failed") if i.kind == "assert")
        return Ruling("FAILED", _failed_message(outcome, failed_asserts),
                         _first(f"{len(failed_asserts) or tally.failed} assertion(s) failed", failed_asserts))
    if word in ("ERROR", "INTERRUPTED"):
        message = _error_message(outcome)
        return Ruling("ERROR", message, message.split("\n", 1)[0].removeprefix("ERROR: "))
    if word == "BLOCKED":
        cause = blocked_cause(outcome, last_word)
        message = _blocked_message(outcome, tally.with_status("failed"), cause)
        return Ruling("BLOCKED", message, _blocked_reason(outcome, cause))
    if word == "UNCHECKED":
        items = tally.with_status("unchecked", "inconclusive")
        return Ruling("UNCHECKED", _unchecked_message(items),
                         _first(f"{len(items)} item(s) not confirmed", items))
    return Ruling("PASSED")


def _first(head: str, items: tuple[ItemSummary, ...]) -> str:
    """``head`` and the first item with its evidence, on one line."""
    if not items:
        return head
    return f"{head}: {_line(items[0]).strip().removeprefix('- ')}"


def _blocked_reason(outcome: RunOutcome, cause: str) -> str:
    """The cause first (a short-summary line keeps its start), then the first unmet criterion."""
    unmet = f"; unmet: {outcome.task.unmet[0]!r}" if outcome.task.unmet else ""
    return " ".join(f"{cause}{unmet}".split())


def _line(item: ItemSummary) -> str:
    kind = {"assert": "assert_", "goal": "goal"}.get(item.kind, "verify")
    when = " (when=end)" if item.when == "end" else ""
    detail = item.evidence or item.reason or "no evidence recorded"
    if item.reason and item.evidence and item.reason not in item.evidence:
        detail = f"{item.evidence} [{item.reason}]"
    return f"  - {kind} {item.text!r}{when}: {detail}"


def _lines(items: Iterable[ItemSummary]) -> str:
    return "\n".join(_line(i) for i in items)


def _failed_message(outcome: RunOutcome, items: tuple[ItemSummary, ...]) -> str:
    count = len(items) or outcome.tests.failed
    head = f"FAILED: {count} assertion{'s' if count != 1 else ''} failed"
    body = _lines(items) if items else "  (no per-item detail recorded)"
    tail = ""
    if outcome.infra is not None or outcome.execution != "finished":
        tail = "\n" + _error_message(outcome).replace("ERROR: ", "the run also ended early: ", 1)
    return f"{head}\n{body}{tail}"


def _error_message(outcome: RunOutcome) -> str:
    device = f" on device {outcome.device}" if outcome.device else ""
    if outcome.infra is not None and outcome.infra.kind == "usage":
        return f"ERROR: usage error{device}: {outcome.infra.message}"
    if outcome.infra is not None:
        infra = outcome.infra
        trace = f"\n{infra.traceback.rstrip()}" if infra.traceback else ""
        message = infra.message.removeprefix(f"{outcome.device}: ") if outcome.device else infra.message
        head = f"ERROR: infrastructure failure ({infra.kind}) {infra.error_class}{device}: {message}"
        return head + trace
    reason = outcome.stop_reason or "no reason recorded"
    return f"ERROR: run {outcome.execution}{device}: {reason}"


def _blocked_message(outcome: RunOutcome, failed_verify: tuple[ItemSummary, ...], cause: str) -> str:
    """The cause, then the task's own reason (which subgoals are open) when it adds to it, then every
    unmet criterion with its last finding."""
    task = outcome.task
    lines = [f"BLOCKED: {cause}"]
    # What the task's reason adds to the cause (which subgoals are still open), without saying it twice.
    extra = task.reason.removeprefix(cause).lstrip("; ") if task.reason else ""
    if extra and extra not in cause:
        lines.append(f"task {task.status}: {extra}")
    by_text = {i.text: i for i in outcome.tests.items if i.kind in ("verify", "goal")}
    unmet = list(task.unmet) + [i.text for i in failed_verify if i.text not in task.unmet]
    if unmet:
        lines.append("unmet criteria:")
        for text in unmet:
            item = by_text.get(text)
            lines.append(_line(item) if item else f"  - verify {text!r}")
    return "\n".join(lines)


def _unchecked_message(items: tuple[ItemSummary, ...]) -> str:
    count = len(items)
    head = f"UNCHECKED: {count} item{'s' if count != 1 else ''} could not be confirmed (nothing failed)"
    return f"{head}\n{_lines(items)}" if items else head


def raise_in_call(ruling: Ruling, unchecked: UncheckedMode, *, runxfail: bool = False) -> None:
    """Raise the call-phase outcome of a ruling (FAILED/UNCHECKED); return for the other words.

    Under ``--runxfail`` pytest turns ``pytest.xfail`` into a no-op: an UNCHECKED run would pass, so
    it fails instead (nothing that was not confirmed may pass).
    """
    if ruling.word == "FAILED":
        _fail(ruling.message)
    if ruling.word == "UNCHECKED":
        if unchecked == "skip":
            pytest.skip(ruling.message)
        if unchecked == "fail":
            _fail(ruling.message.replace("UNCHECKED:", "UNCHECKED (strict):", 1))
        if runxfail:
            _fail(ruling.message.replace("UNCHECKED:", "UNCHECKED (--runxfail cannot make it pass):", 1))
        # The xfail reason is what the short summary prints after the word (which it shows already).
        pytest.xfail(ruling.message.removeprefix("UNCHECKED: "))


def worst(rulings: Iterable[Ruling]) -> Ruling | None:
    """The ruling that decides a test with several runs (FAILED > ERROR > BLOCKED > UNCHECKED)."""
    ranked = sorted(rulings, key=lambda j: _RANK[j.word])
    return ranked[0] if ranked else None


_RANK: dict[Word, int] = {"FAILED": 0, "ERROR": 1, "BLOCKED": 2, "UNCHECKED": 3, "PASSED": 4}


def report_word(
    ruling: Ruling | None, when: str, outcome: str, wasxfail: bool, ours: bool, deferred: bool = False
) -> str | None:
    """The ``artemis.outcome`` property of a test after one of its reports (None: leave it as is).

    ``ours``: the report's exception was raised by the plugin (not by the test body or a fixture).
    ``deferred``: a run from the test body ended BLOCKED/ERROR, which is reported after the body.
    The property is the run's word where it decided the report (UNCHECKED also when
    ``--artemis-unchecked=skip`` made it a plain skip), else what pytest reports.
    """
    if deferred and when == "call" and outcome == "passed":
        return ruling.word if ruling is not None else None
    if outcome == "failed":
        if when == "teardown" and deferred and ours and ruling is not None:
            return ruling.word
        if when == "call":
            strict_unchecked = ruling is not None and ruling.word == "UNCHECKED"
            return ruling.word if ruling is not None and ours and not strict_unchecked else "FAILED"
        return ruling.word if when == "setup" and ruling is not None and ours else "ERROR"
    if outcome == "skipped" and when in ("setup", "call"):
        unchecked = when == "call" and ruling is not None and ruling.word == "UNCHECKED"
        return "UNCHECKED" if unchecked else ("XFAIL" if wasxfail else "SKIPPED")
    return "PASSED" if when == "call" else None


def status_for(
    when: str, outcome: str, word: str | None, wasxfail: bool
) -> tuple[str, str, tuple[str, dict[str, bool]]] | None:
    """``pytest_report_teststatus`` answer: our word inside pytest's own category, or None."""
    if word == "BLOCKED" and when == "setup" and outcome == "failed":
        return "error", "B", ("BLOCKED", {"red": True, "bold": True})
    if word in ("BLOCKED", "ERROR") and when == "call" and outcome == "passed":
        return "", "", ("", {})  # the body's run is reported as an error after it, in teardown
    if word in ("BLOCKED", "ERROR") and when == "teardown" and outcome == "failed":
        letter = "B" if word == "BLOCKED" else "E"
        return "error", letter, (word, {"red": True, "bold": True})
    if word == "UNCHECKED" and when == "call" and outcome == "skipped" and wasxfail:
        return "xfailed", "u", ("UNCHECKED", {"yellow": True})
    if word == "ERROR" and when in ("call", "???") and outcome == "failed":
        return "error", "E", ("ERROR", {"red": True, "bold": True})
    return None


rulings_key = pytest.StashKey[list[Ruling]]()
"""The rulings of an item's runs (setup run first, then ``artemis.run()`` calls)."""
deferred_key = pytest.StashKey[Ruling]()
"""A BLOCKED/ERROR ruling of a run from the test body, raised once the body's fixtures are torn down."""


def _rulings(item: pytest.Item) -> list[Ruling]:
    """The rulings of the item's runs so far (none before its first run)."""
    return item.stash.get(rulings_key, [])


def raise_in_setup(ruling: Ruling) -> None:
    """Raise BLOCKED/ERROR from the fixture's setup (JUnit ``<error>``); return for the other words."""
    if ruling.phase == "setup":
        _fail(ruling.message)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> object:
    """After the body: apply the runs' verdicts. A failure in the body propagates first and wins."""
    result = yield
    ruling = worst(_rulings(item))
    if ruling is not None and ruling.phase == "setup":
        # Only a run from the body gets here BLOCKED/ERROR (the fixture's own run raised in setup). An
        # error is not a failure: it is raised after the body, in teardown, where pytest reports errors.
        item.stash[deferred_key] = ruling
    elif ruling is not None and ruling.word != "PASSED":
        from .state import settings_key

        raise_in_call(ruling, item.stash[settings_key].unchecked,
                      runxfail=bool(item.config.getoption("runxfail", False)))
    return result


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> object:
    """After the fixtures are torn down: the BLOCKED/ERROR of a run from the test body, as an error."""
    result = yield
    ruling = item.stash.get(deferred_key, None)
    if ruling is not None:
        _fail(ruling.message)
    return result


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Outermost, so xfail handling is done: stamp ``artemis.outcome`` on the item and the report."""
    from .junit import props_key, set_report_word

    report: pytest.TestReport = yield
    if props_key in item.stash:
        ours = call.excinfo is not None and isinstance(call.excinfo.value, ArtemisOutcome)
        ruling = worst(_rulings(item))
        word = report_word(ruling, report.when, report.outcome, hasattr(report, "wasxfail"), ours,
                           deferred_key in item.stash)
        if word is not None:
            set_report_word(item, report, word)
        if ours:
            _lead_with_reason(report, _reason(ruling, report, str(call.excinfo.value)))  # type: ignore[union-attr]
    return report


def _reason(ruling: Ruling | None, report: pytest.TestReport, raised: str) -> str:
    """The one-line reason of a report the plugin raised."""
    if ruling is None or not ruling.reason:  # raised before any run (e.g. the provider breaker)
        return raised.splitlines()[0].removeprefix("ERROR: ") if raised else ""
    if ruling.word == "UNCHECKED" and report.failed:  # strict or --runxfail: say which
        return f"{raised.split(':', 1)[0]}: {ruling.reason}"
    return ruling.reason


def _lead_with_reason(report: pytest.TestReport, reason: str) -> None:
    """The one-line crash message (short summary, JUnit message) is the reason, not the exception name."""
    crash = getattr(report.longrepr, "reprcrash", None)
    if crash is not None:
        crash.message = reason


def pytest_report_teststatus(
    report: pytest.TestReport, config: pytest.Config
) -> tuple[str, str, tuple[str, dict[str, bool]]] | None:
    """BLOCKED / UNCHECKED / crash ERROR words inside pytest's own categories."""
    from .junit import report_word_of

    if not isinstance(report, pytest.TestReport):
        return None
    return status_for(report.when, report.outcome, report_word_of(report), hasattr(report, "wasxfail"))
