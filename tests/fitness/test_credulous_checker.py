"""A credulous checker (it passes everything, citing what the harness's own reading finds about each item) is
what the kit is for: the rules of evidence block most of its false passes, and the kit counts every one, the
blocked ones with their rule and any the harness let stand as recorded passes that make it unfit."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_artemis.agents.schemas import CheckReport, CitationClaim, ModelVerdict
from pytest_artemis.checking.facts import facts
from pytest_artemis.checking.readings import about, element_shown
from pytest_artemis.contracts import CheckItem, EvidenceScreen
from pytest_artemis.fitness.checker_part import score_checker
from pytest_artemis.fitness.context import KitContext, KitSettings
from pytest_artemis.fitness.phone import simulated_phone
from pytest_artemis.models.scripted import ScriptedModel, ScriptedRequest
from pytest_artemis.store import Redactor
from pytest_artemis.testing import citations_for


def _about(item: CheckItem, screens: tuple[EvidenceScreen, ...]) -> list[CitationClaim]:
    """Per fact, the newest element the harness reads as about it, by its state or its text."""
    found = []
    for fact in facts(item.text):
        for screen in reversed(screens):
            element = next((e for e in screen.view.elements
                            if about(fact, element_shown(screen.view, e, "", 0))), None)
            if element is not None:
                state = f"checked={'true' if element.checked else 'false'}" if element.checkable else ""
                found.append(CitationClaim(step=screen.step, screen=screen.screen, element=element.index,
                                           attribute=state, quote="" if state else element.label))
                break
    return found


def credulous(request: ScriptedRequest) -> CheckReport:
    return CheckReport(verdicts=[
        ModelVerdict(item=request.ids[i.key], status="passed", evidence="it is so",
                     citations=citations_for(i, request.screens) or _about(i, request.screens))
        for i in request.checks])


def test_every_false_pass_is_counted_and_one_that_stood_makes_it_unfit(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("ADBUTILS_ADB_PATH", "/bin/true")
    (tmp_path / "runs").mkdir()
    with simulated_phone() as phone:
        ctx = KitContext(phone, tmp_path, Redactor(), KitSettings())
        score = score_checker(ctx, "credulous", ScriptedModel(credulous, name="credulous"))
    items = [i for case in score.cases for i in case.items]
    false_passes = [i for i in items if i.outcome == "false_pass"]
    assert len(false_passes) == sum(1 for i in items if i.truth != "true")  # it passes everything
    stood = [i for i in false_passes if i.stood]
    assert all(i.recorded == "passed" and i.rule == "" for i in stood)
    assert all(i.recorded == "inconclusive" and i.reason.startswith(f"passed, but [{i.rule}]")
               for i in false_passes if not i.stood)
    assert (score.counts.false_passes_stood, score.counts.false_passes_blocked) == \
        (len(stood), len(false_passes) - len(stood))
    assert score.fitness == "unfit"
    assert bool(stood) == any("the harness let stand" in reason for reason in score.reasons)
