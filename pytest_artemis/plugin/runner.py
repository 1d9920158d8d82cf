"""One run for one test: RunConfig from its settings, the journal, the observer, run_task, the ruling."""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from pytest_artemis.contracts import CheckVerdict, RunOutcome, StepRecord, TaskSpec

from .before_run import found_key, note_launched
from .breaker import ProviderBreaker, breaker_key
from .interrupted import running
from .junit import add_section, outcome_properties, section_text, set_properties
from .options import ArtemisOptions
from .progress import Progress
from .redaction import session_redactor
from .rulings import ArtemisOutcome, Ruling, rule
from .settings import RunSettings
from .timeout import run_deadline

if TYPE_CHECKING:
    from pytest_artemis.device.base import Device
    from pytest_artemis.device.ocr import OcrEngine
    from pytest_artemis.device.setup import DeviceSetup
    from pytest_artemis.engine.config import RunConfig
    from pytest_artemis.engine.replay import Replay
    from pytest_artemis.models import ModelSet
    from pytest_artemis.store import Redactor, RunHeader, RunJournal

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def artifacts_dir_for(options: ArtemisOptions, nodeid: str) -> Path:
    """The per-test artifacts directory: ``<artifacts>/<sanitized node id>`` (absolute)."""
    name = _UNSAFE.sub("_", nodeid.replace("::", "__")).strip("._") or "test"
    if len(name) > 120:
        name = f"{name[:100]}-{uuid.uuid5(uuid.NAMESPACE_URL, nodeid).hex[:12]}"
    return (options.artifacts / name).resolve()


@dataclass(frozen=True)
class RunResult:
    """One finished run: the outcome, the steps and verdicts as they happened, where the journal is."""

    outcome: RunOutcome
    steps: tuple[StepRecord, ...]
    verdicts: tuple[CheckVerdict, ...]
    artifacts: Path
    ruling: Ruling

    @property
    def word(self) -> str:
        """PASSED / FAILED / BLOCKED / ERROR / UNCHECKED."""
        return self.ruling.word


@dataclass
class PluginObserver:
    """The engine's RunObserver: collects steps and verdicts, fires our hooks, prints -v progress."""

    item: pytest.Item
    progress: Progress
    spec: TaskSpec
    device: Device
    artifacts: Path
    steps: list[StepRecord] = field(default_factory=list)
    verdicts: list[CheckVerdict] = field(default_factory=list)
    outcome: RunOutcome | None = None

    def on_start(self, header: object) -> None:
        self.item.config.hook.pytest_artemis_run_start(item=self.item, spec=self.spec, device=self.device,
                                                       artifacts=self.artifacts)

    def on_step(self, step: StepRecord) -> None:
        self.steps.append(step)
        self.progress.step(step)
        self.item.config.hook.pytest_artemis_step(item=self.item, step=step)

    def on_verdict(self, verdict: CheckVerdict) -> None:
        self.verdicts.append(verdict)
        self.progress.verdict(verdict)
        self.item.config.hook.pytest_artemis_verdict(item=self.item, verdict=verdict)

    def on_checking(self, note: str) -> None:
        self.progress.note(f"checking: {note}")

    def on_finish(self, outcome: RunOutcome) -> None:
        """Kept for a run that an exception ends (run_task returns the outcome otherwise)."""
        self.outcome = outcome


def _header(spec: TaskSpec, device: Device, models: ModelSet, config: RunConfig) -> RunHeader:
    from pytest_artemis.store import RunHeader

    run_id = f"{time.strftime('%Y%m%d-%H%M%S')}-{uuid.uuid4().hex[:8]}"
    return RunHeader(
        run_id=run_id, goal=spec.goal, test_id=spec.test_id, app=spec.app, device=device.name,
        checks=spec.checks,
        models={"planner": models.planner.name, "operator": models.operator.name,
                "checker": models.checker.name},
        config=config.model_dump(mode="json", exclude={"deadline"}),
    )


def run_for_item(
    item: pytest.Item, spec: TaskSpec, device: Device, models: ModelSet, options: ArtemisOptions,
    settings: RunSettings, *, when: str, setup: DeviceSetup | None = None, secrets: Mapping[str, str] = {},
) -> RunResult:
    """Run ``spec`` for ``item`` with the test's ``settings``, then record properties, the report section
    and the hooks. The setup steps taken since the last run (``setup``) are journaled first, then what the
    test found changed by earlier tests; ``secrets`` are typed by name and redacted everywhere.

    Properties and the ``stdout [artemis]`` section are written before returning, so they are there
    whatever the caller raises next.
    """
    from pytest_artemis.engine import run_task
    from pytest_artemis.engine.observer import ObserverFailed
    from pytest_artemis.models import call_deadline
    from pytest_artemis.store import Redactor, RunJournal

    breaker = item.config.stash.setdefault(breaker_key, ProviderBreaker())
    refusal = breaker.refusal()
    if refusal is not None:
        set_properties(item, {"artemis.infra": "model/ProviderNotCalled"})
        raise ArtemisOutcome(refusal, pytrace=False)
    _load(models)
    config = settings.run_config(run_deadline(item, settings.time_budget))
    redactor = Redactor.from_environment()
    redactor.add(options.api_key)
    for value in secrets.values():
        redactor.add(value)
        session_redactor(item.config).add(value)  # pytest's own reports of this test, too
    header = _header(spec, device, models, config)
    journal = RunJournal.create(artifacts_dir_for(options, item.nodeid), header, redactor=redactor)
    set_properties(item, {"artemis.artifacts": str(journal.dir), "artemis.execution": "running"})
    found = journal_setup(item, journal, setup)
    progress = Progress(item.config, redactor.redact)
    progress.start(spec, device.name)
    observer = PluginObserver(item, progress, spec, device, journal.dir)
    replay = _replay(settings, options, item.nodeid, spec.goal, redactor)
    ocr = _ocr(options, item.config, redactor)
    try:
        # The lock marks the run as alive; a later session finds it interrupted if the process dies.
        with running(journal.dir), call_deadline(config.deadline):  # a call ends with the run's budget
            outcome = run_task(spec, device, models, config, journal, observer=observer, ocr=ocr,
                               replay=replay, secrets=secrets)
    except ObserverFailed as failed:  # one of our hooks raised: recorded, then it propagates as it is
        _record_crash(item, when, failed.outcome, observer, journal.dir, redactor)
        raise failed.error from None
    except BaseException as exc:  # pytest-timeout's hard timer (pytest's Failed) closed the run: recorded
        if not isinstance(exc, KeyboardInterrupt):  # Ctrl-C: the session reports it as INTERRUPTED
            _record_crash(item, when, observer.outcome, observer, journal.dir, redactor)
        raise
    breaker.note(item.nodeid, outcome)
    note_launched(item.config, {s.foreground for s in observer.steps})
    replayed = redactor.redact(replay.finish(outcome)) if replay is not None else ""
    if replay is not None:
        status = replay.status + (",stale" if replay.stale else "")
        set_properties(item, {"artemis.replay": replayed, "artemis.replay_status": status})
        progress.note(replayed)
    verdict = rule(outcome, next((s.decision for s in reversed(observer.steps) if s.decision.strip()), ""))
    ruling = Ruling(verdict.word, redactor.redact(verdict.message), redactor.redact(verdict.reason))
    result = RunResult(outcome, tuple(observer.steps), tuple(observer.verdicts), journal.dir, ruling)
    set_properties(item, outcome_properties(outcome))
    text = section_text(outcome, result.verdicts, journal.dir, ruling.word)
    text += f"{replayed}\n" if replayed else ""
    text += "".join(f"found changed by an earlier test: {change}\n" for change in found)
    add_section(item, when, redactor.redact(text))
    progress.finish(outcome, ruling.word)
    item.config.hook.pytest_artemis_run_finish(item=item, outcome=outcome, artifacts=journal.dir,
                                               word=ruling.word)
    return result


def journal_setup(item: pytest.Item, journal: RunJournal, setup: DeviceSetup | None) -> list[str]:
    """Journal the setup steps taken since the last run, and (at the test's first run) what it found
    changed by earlier tests that its own setup did not set; the latter are returned (and a property)."""
    if setup is None:
        return []
    steps = setup.take_new()
    for step in steps:
        journal.append_event("setup_step", step=step)
    if found_key not in item.stash:
        return []
    from .found_state import not_touched

    touched = {key for step in setup.steps for key in step.touches}
    found = not_touched(item.stash[found_key], touched)
    del item.stash[found_key]
    if found:
        journal.append_event("found_state", changes=found)
        set_properties(item, {"artemis.found_changed": "; ".join(found)})
    return found


def _load(models: ModelSet) -> None:
    """The provider library is imported before the run's clock starts (not by its first model call)."""
    from pytest_artemis.models import LiteLLMModel

    for model in (models.planner, models.operator, models.checker):
        if isinstance(model, LiteLLMModel):
            model.load()


def _record_crash(
    item: pytest.Item, when: str, outcome: RunOutcome | None, observer: PluginObserver, artifacts: Path,
    redactor: Redactor,
) -> None:
    """The properties, ``stdout [artemis]`` section and report of a run an exception ended (a hook's,
    a hard timeout)."""
    from .reports import render_report

    if outcome is not None:
        set_properties(item, outcome_properties(outcome))
        add_section(item, when, redactor.redact(section_text(outcome, observer.verdicts, artifacts, "ERROR")))
    render_report(item, artifacts, "ERROR")


def _replay(
    settings: RunSettings, options: ArtemisOptions, nodeid: str, goal: str, redactor: Redactor
) -> Replay | None:
    """The run's replay (the test's ``replay`` setting other than ``off``) over the recordings directory."""
    if settings.replay == "off":
        return None
    from pytest_artemis.engine.replay import Replay
    from pytest_artemis.store.recording import RecordingStore

    return Replay.open(settings.replay, RecordingStore(options.recordings), nodeid, goal, redactor)


def _ocr(options: ArtemisOptions, config: pytest.Config, redactor: Redactor) -> OcrEngine | None:
    """The session's OCR engine with its readings kept by screenshot hash, on disk in pytest's cache
    directory when the cache plugin is on (never a reading that holds a secret)."""
    if options.ocr == "none":
        return None
    from pytest_artemis.device.ocr import load_ocr
    from pytest_artemis.device.ocr_cache import CachedOcr

    engine = load_ocr(options.ocr)
    if engine is None:
        return None
    cache = getattr(config, "cache", None)
    directory = cache.mkdir("artemis-ocr") if cache is not None else None
    return CachedOcr(engine, directory, shareable=lambda text: redactor.redact(text) == text)
