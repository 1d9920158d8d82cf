"""Refused actions are recorded, fed back and bounded; the user's checks sit where the rule says."""

from __future__ import annotations

from engine_fakes import FakePhone, run, script, setting_item

from pytest_artemis.agents.schemas import OperatorDecision
from pytest_artemis.contracts import Launch, TaskSpec, TypeText
from pytest_artemis.store.reader import read_run

WIFI = "Turn on Wi-Fi"


class StrictPhone(FakePhone):
    """Validates like the adb device layer: package names and typeable text."""

    def launch(self, package: str, activity: str | None = None) -> None:
        if " " in package:
            raise ValueError(f"not an Android package name: {package!r}")

    def type_text(self, text: str) -> None:
        if any(not (" " <= c <= "~") for c in text):
            raise ValueError("`input text` only supports printable ASCII")


def test_refused_actions_are_recorded_fed_back_and_bounded_by_a_breaker(tmp_path):
    bad = [OperatorDecision(decision="launch", actions=[Launch(package="not a package")]),
           OperatorDecision(decision="type", actions=[TypeText(text="caf\u00e9")])]
    model = script(f"- [ ] {WIFI}\n", [], after=lambda request: bad[request.turn % 2])
    outcome, run_dir = run(tmp_path, TaskSpec(goal=WIFI), StrictPhone(), model, no_effect_limit=3,
                           max_steps=20)
    steps = read_run(run_dir).steps
    assert outcome.execution == "finished" and outcome.infra is None  # never a harness crash
    assert len(steps) == 3 and all("actions_refused" in s.flags for s in steps)
    assert all(s.results[0].refused and "device refused" in s.results[0].detail for s in steps)
    assert outcome.task.status == "blocked" and "refused 3 turns in a row" in outcome.stop_reason
    later = [r for r in model.requests if r.role == "operator"][1].messages[1].text
    assert "Refused last turn" in later and "printable ASCII" in later  # turn 1 typed the untypeable


def test_the_operator_is_told_where_the_users_checks_sit(tmp_path):
    item = setting_item(text="Wi-Fi reads ON")
    plan = f"- [ ] Open Settings\n  - verify: Wi-Fi reads ON\n- [ ] {WIFI}\n"
    model = script(plan, [])
    _, run_dir = run(tmp_path, TaskSpec(goal=WIFI, checks=(item,)), FakePhone(), model, max_steps=1)
    assert read_run(run_dir).plans[0] == f"- [ ] Open Settings\n- [ ] {WIFI}\n  - verify: Wi-Fi reads ON\n"
    text = [r for r in model.requests if r.role == "operator"][0].messages[1].text
    assert "placed by rule, not by the plan's author" in text
    assert f"- verify: Wi-Fi reads ON — under '{WIFI}', judged when that subgoal is marked done" in text
