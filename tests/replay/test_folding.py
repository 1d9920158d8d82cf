"""A replayed run's last checkpoint is judged in the final check's request, each item on its own evidence."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))

from engine_fakes import FakePhone, make_journal, passing_checker, script, setting_item, step_marking  # noqa: E402
from test_replay_engine import NotifyingPhone  # noqa: E402

from pytest_artemis.agents.schemas import CheckReport, CitationClaim, ModelVerdict  # noqa: E402
from pytest_artemis.contracts import CheckItem, Tap, TaskSpec, outcome_word  # noqa: E402
from pytest_artemis.engine import RunConfig, run_task  # noqa: E402
from pytest_artemis.engine.replay import Replay  # noqa: E402
from pytest_artemis.models import ModelSet  # noqa: E402
from pytest_artemis.plan import subgoal_key  # noqa: E402
from pytest_artemis.store.reader import read_run  # noqa: E402
from pytest_artemis.store.recording import RecordingStore  # noqa: E402
from pytest_artemis.store.redact import Redactor  # noqa: E402

WIFI = "Turn on Wi-Fi"
LATER = "Look at the result"
NODE = "test_x.py::test_wifi"
SHOWN = CheckItem(kind="assert", text="The 'Wifi' switch is listed", subgoal_hint=WIFI)
FLIP = step_marking(WIFI, actions=(Tap(element=0),))


class StuckPhone(NotifyingPhone):
    """Taps do nothing: after turn 1 the screen is not the recorded one."""

    def tap(self, x: int, y: int) -> None:
        self.taps.append((x, y))


def anchored_checker(request):
    """Passes every item citing the newest screen it may use: for an item judged at step N, the newest
    screen of step N or before (the rule the prompt states), else the newest of all."""
    verdicts = []
    for item in request.checks:
        at = request.judged_at.get(item.key)
        usable = [s for s in request.screens if at is None or (s.step is not None and s.step <= at)]
        screen = usable[-1]
        element = next(e for e in screen.view.elements if e.label)
        verdicts.append(ModelVerdict(item=item.text, status="passed", evidence=f"it shows {element.label!r}",
                                     citation=CitationClaim(step=screen.step, screen=screen.screen,
                                                            element=element.index, quote=element.label)))
    return CheckReport(verdicts=verdicts)


def replay_run(tmp_path: Path, checker, run_id: str, phone: FakePhone | None = None,
               checks: tuple[CheckItem, ...] = (SHOWN,), *, then: bool = False, **config: object):
    """Record (the first call) or replay a run flipping Wi-Fi at turn 1 (``then``: a second subgoal done
    at turn 2)."""
    spec = TaskSpec(goal=WIFI, checks=checks, test_id=NODE)
    replay = Replay.open("auto", RecordingStore(tmp_path / "recordings"), NODE, spec.goal, Redactor([]))
    plan, turns = (f"- [ ] {WIFI}\n- [ ] {LATER}\n", [FLIP, step_marking(LATER)]) if then else \
        (f"- [ ] {WIFI}\n", [FLIP])
    model = script(plan, turns, checker)
    journal = make_journal(tmp_path / "runs", spec, run_id)
    outcome = run_task(spec, phone or FakePhone(), ModelSet.uniform(model), RunConfig(**config), journal,  # type: ignore[arg-type]
                       replay=replay)
    replay.finish(outcome)
    return outcome, read_run(journal.dir), [r for r in model.requests if r.role == "checker"]


@pytest.mark.parametrize("then", [False, True], ids=["anchored-at-the-last-turn", "a-turn-after-it"])
def test_a_replayed_run_makes_one_checker_request_for_its_last_checkpoint_and_the_final_check(tmp_path, then):
    verify = setting_item(hint=WIFI)
    first, _, asked = replay_run(tmp_path, anchored_checker, "run-1", checks=(SHOWN, verify), then=then)
    assert outcome_word(first) == "PASSED" and sorted(r.entry for r in asked) == ["checkpoint", "final"]

    outcome, record, asked = replay_run(tmp_path, anchored_checker, "run-2", checks=(SHOWN, verify),
                                        then=then)
    assert outcome_word(outcome) == "PASSED", outcome
    assert [s.replayed for s in record.steps] == [True] * (1 + then)
    (request,) = asked
    assert request.entry == "final" and request.judged_at == {SHOWN.key: 1}
    assert f"{SHOWN.text} (judged at step 1)" in request.messages[1].text
    assert 'Items marked "judged at step N"' in request.messages[0].text
    by_item = {v.item_text: v for v in record.verdicts}
    key = subgoal_key(WIFI)
    # recorded as the checkpoint's own verdict, at its anchor; its probe read the device at the anchor
    assert (by_item[SHOWN.text].checkpoint_id, by_item[SHOWN.text].attempt_id) == (key, f"{key}#1")
    assert by_item[SHOWN.text].anchor_step == 1 and by_item[SHOWN.text].status == "passed"
    assert (by_item[verify.text].attempt_id, by_item[verify.text].source) == (f"{key}#1", "probe")
    assert by_item[WIFI].checkpoint_id == "final" and by_item[WIFI].status == "passed"
    assert [e.fields["attempt"] for e in record.events
            if e.kind == "checkpoint_judged_with_final_check"] == [f"{key}#1"]


def test_a_held_item_cannot_rest_on_the_final_screen(tmp_path):
    """The final screen is in the request for the goal; an item judged at its anchor citing it is not
    grounded (the state after the anchor is not what its checkpoint judges)."""
    replay_run(tmp_path, anchored_checker, "run-1")
    outcome, record, asked = replay_run(tmp_path, passing_checker, "run-2")  # cites the newest: final
    assert len(asked) == 1 and outcome_word(outcome) == "UNCHECKED", outcome
    (held,) = [v for v in record.verdicts if v.item_text == SHOWN.text]
    assert held.status == "inconclusive" and held.rule == "E3" and held.citation.screen == "final"


def latest_step_checker(request):
    """Passes every item citing the newest recorded step screen it was served, whatever step an item is
    judged at: for a held item, a moment after its anchor."""
    screen = [s for s in request.screens if s.step is not None][-1]
    element = next(e for e in screen.view.elements if e.label)
    claim = CitationClaim(step=screen.step, screen=screen.screen, element=element.index, quote=element.label)
    return CheckReport(verdicts=[ModelVerdict(item=i.text, status="passed", evidence="it shows",
                                              citation=claim) for i in request.checks])


def test_a_held_item_cannot_rest_on_a_step_after_its_anchor(tmp_path):
    replay_run(tmp_path, anchored_checker, "run-1", then=True)
    outcome, record, asked = replay_run(tmp_path, latest_step_checker, "run-2", then=True)
    assert len(asked) == 1 and asked[0].judged_at == {SHOWN.key: 1}
    (held,) = [v for v in record.verdicts if v.item_text == SHOWN.text]
    assert held.status == "inconclusive" and "step 2 is after the anchor step 1" in held.reason
    assert outcome_word(outcome) == "UNCHECKED", outcome


def test_a_held_checkpoint_is_judged_on_its_own_when_the_replay_falls_back_to_the_model(tmp_path):
    replay_run(tmp_path, anchored_checker, "run-1", NotifyingPhone(), then=True)
    # turn 2's screen is not the recorded one: the operator model decides it
    _, record, asked = replay_run(tmp_path, anchored_checker, "run-2", StuckPhone(), then=True)
    assert [s.replayed for s in record.steps] == [True, False]
    assert sorted(r.entry for r in asked) == ["checkpoint", "final"]
    assert not any(r.judged_at for r in asked)
    assert not [e for e in record.events if e.kind == "checkpoint_judged_with_final_check"]
    (held,) = [v for v in record.verdicts if v.item_text == SHOWN.text]
    assert held.status == "passed" and held.attempt_id == f"{subgoal_key(WIFI)}#1"


def test_a_final_check_that_only_sends_the_operator_back_lets_the_held_checkpoint_judge_itself(tmp_path):
    """Bluetooth's verify item fails at its checkpoint (no repair left there), so each final check but
    the last is cut short: the checkpoint held at turn 2 is not taken, and judges its item on its own."""
    later = CheckItem(kind="assert", text="The 'Wifi' switch is still listed", subgoal_hint=LATER)
    checks = (setting_item("bluetooth_on", hint=WIFI), later)
    config = {"checkpoint_max_repairs": 0, "check_timeout_s": 10.0}
    first, _, _ = replay_run(tmp_path, anchored_checker, "run-1", checks=checks, then=True, **config)
    outcome, record, asked = replay_run(tmp_path, anchored_checker, "run-2", checks=checks, then=True,
                                        **config)
    assert outcome_word(first) == outcome_word(outcome) == "BLOCKED", outcome
    assert record.steps[1].replayed
    assert not [e for e in record.events if e.kind == "checkpoint_judged_with_final_check"]
    assert [e.kind for e in record.events].count("final_check_cut_short") == 2
    (held,) = [v for v in record.verdicts if v.item_text == later.text]
    assert held.status == "passed" and held.attempt_id == f"{subgoal_key(LATER)}#1"
    assert [r.entry for r in asked if later.text in [c.text for c in r.checks]] == ["checkpoint"]
