"""Replay inside the engine: element targets found again by fingerprint, secrets never recorded, a
recording made for other checks reported stale and not used."""

from __future__ import annotations

import sys
from html import escape
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))

from engine_fakes import FakePhone, make_journal, script, setting_item  # noqa: E402

from pytest_artemis.agents.schemas import OperatorDecision  # noqa: E402
from pytest_artemis.contracts import Bounds, Finish, Tap, TaskSpec, TypeText, UIElement  # noqa: E402
from pytest_artemis.device import Hierarchy  # noqa: E402
from pytest_artemis.engine import RunConfig, run_task  # noqa: E402
from pytest_artemis.engine.replay import Replay  # noqa: E402
from pytest_artemis.models import ModelSet  # noqa: E402
from pytest_artemis.store.reader import read_run  # noqa: E402
from pytest_artemis.store.recording import RecordingStore  # noqa: E402
from pytest_artemis.store.redact import Redactor  # noqa: E402

SECRET = "pin-8841-secret"
NODE = "test_x.py::test_wifi"


class NotifyingPhone(FakePhone):
    """The fake settings screen, with a real hierarchy XML; ``notifications`` puts status-bar icons in
    front of the app's elements (shifting their indexes, not the signature)."""

    def __init__(self, notifications: int = 0) -> None:
        super().__init__()
        self.notifications = notifications

    def _elements(self) -> tuple[UIElement, ...]:
        icons = tuple(UIElement(index=i, content_desc=f"Notification {i}", package="com.android.systemui",
                                bounds=Bounds(left=10 * i, top=0, right=10 * i + 8, bottom=8))
                      for i in range(self.notifications))
        own = tuple(e.model_copy(update={"index": e.index + len(icons)}) for e in super()._elements())
        return icons + own

    def tap(self, x: int, y: int) -> None:
        self.taps.append((x, y))
        for element in self._elements():
            if element.resource_id.startswith("switch_") and element.bounds.contains(x, y):
                key = element.resource_id.removeprefix("switch_")
                self.settings[key] = "0" if self.settings[key] == "1" else "1"

    def hierarchy(self) -> Hierarchy:
        elements = self._elements()
        bar = "".join(f'<node package="com.android.systemui" content-desc="{escape(e.content_desc)}" '
                      f'bounds="[{e.bounds.left},0][{e.bounds.right},8]" />'
                      for e in elements if e.package == "com.android.systemui")
        app = "".join(f'<node package="com.android.settings" text="{escape(e.text)}" '
                      f'checked="{str(e.checked).lower()}" bounds="[{e.bounds.left},{e.bounds.top}]'
                      f'[{e.bounds.right},{e.bounds.bottom}]" />'
                      for e in elements if e.package != "com.android.systemui")
        xml = (f'<hierarchy rotation="0"><node package="com.android.systemui" '
               f'resource-id="com.android.systemui:id/status_bar" bounds="[0,0][360,10]">{bar}</node>'
               f'{app}</hierarchy>')
        return Hierarchy(xml=xml, elements=elements)


def wifi_element(request) -> int:
    return request.screen.find(resource_id="switch_wifi_on").index


def replay_run(tmp_path: Path, phone: FakePhone, turns: list, mode: str = "auto", *,
               checks: tuple = (setting_item(),), run_id: str = "run-1"):
    spec = TaskSpec(goal="Turn on Wi-Fi", checks=checks, test_id=NODE)
    replay = Replay.open(mode, RecordingStore(tmp_path / "recordings"), NODE, spec.goal, Redactor([SECRET]))
    model = script("- [ ] Turn on Wi-Fi\n", turns)
    journal = make_journal(tmp_path / "runs", spec, run_id)
    outcome = run_task(spec, phone, ModelSet.uniform(model), RunConfig(), journal, replay=replay)  # type: ignore[arg-type]
    summary = replay.finish(outcome)
    return outcome, read_run(journal.dir), summary, model


def flip_wifi(request) -> OperatorDecision:
    return OperatorDecision(decision="flip Wi-Fi", actions=[Tap(element=wifi_element(request))],
                            plan="- [x] Turn on Wi-Fi\n")


def test_a_recorded_tap_finds_its_element_again_when_indexes_shift(tmp_path):
    outcome, first, _, _ = replay_run(tmp_path, NotifyingPhone(), [flip_wifi])
    assert outcome.task.status == "completed" and first.steps[0].actions[0].element == 0
    phone = NotifyingPhone(notifications=2)
    outcome, second, summary, model = replay_run(tmp_path, phone, [flip_wifi], run_id="run-2")
    assert outcome.task.status == "completed" and phone.settings["wifi_on"] == "1"
    assert second.steps[0].replayed and second.steps[0].actions[0].element == 2, summary
    assert not [r for r in model.requests if r.role == "operator"]


def test_a_decision_carrying_a_secret_is_never_recorded(tmp_path):
    tap = lambda request: OperatorDecision(decision="flip", actions=[Tap(element=wifi_element(request))])  # noqa: E731
    typed = OperatorDecision(decision="enter the PIN", actions=[TypeText(text=SECRET)])
    done = OperatorDecision(decision="done", actions=[Finish()], plan="- [x] Turn on Wi-Fi\n")
    outcome, _, summary, _ = replay_run(tmp_path, NotifyingPhone(), [tap, typed, done])
    assert outcome.execution == "finished" and outcome.steps == 3, summary
    files = list((tmp_path / "recordings").glob("*.json"))
    assert len(files) == 1 and SECRET not in files[0].read_text()
    assert "turn 2's decision carries a secret and was not recorded" in summary
    # The next run replays turn 1 and asks the model from turn 2 on, where the recording stops.
    _, second, summary, model = replay_run(tmp_path, NotifyingPhone(), [tap, typed, done], run_id="run-2")
    assert [s.replayed for s in second.steps] == [True, False, False]
    assert "live model from turn 2: the recording has no decision for turn 2" in summary


def test_a_recording_made_for_other_checks_is_stale_and_not_used(tmp_path):
    replay_run(tmp_path, NotifyingPhone(), [flip_wifi])
    other = (setting_item(text="Wi-Fi is on, said differently"),)
    _, record, summary, model = replay_run(tmp_path, NotifyingPhone(), [flip_wifi], checks=other,
                                           run_id="run-2")
    assert "live model from the plan: stale: the declared checks" in summary
    assert [r.role for r in model.requests].count("planner") == 1
    assert not any(s.replayed for s in record.steps)
    assert [e.fields["turn"] for e in record.events if e.kind == "replay_mismatch"] == [0]


@pytest.mark.parametrize("mode", ["record"])
def test_record_mode_never_replays_and_rewrites_the_recording(tmp_path, mode):
    replay_run(tmp_path, NotifyingPhone(), [flip_wifi])
    _, record, summary, model = replay_run(tmp_path, NotifyingPhone(), [flip_wifi], mode=mode, run_id="run-2")
    assert not any(s.replayed for s in record.steps)
    assert [r.role for r in model.requests].count("operator") == len(record.steps)
    assert "recording unchanged" in summary


def test_a_recording_that_cannot_be_written_is_reported_and_the_run_stands(tmp_path):
    (tmp_path / "recordings").write_text("a file where the directory should be", encoding="utf-8")
    outcome, _, summary, _ = replay_run(tmp_path, NotifyingPhone(), [flip_wifi])
    assert outcome.task.status == "completed"
    assert "not recorded: cannot write" in summary
