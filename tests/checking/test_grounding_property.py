"""Property: whatever the checker replies, a run is PASSED only on passed verdicts grounded in records."""

from __future__ import annotations

import tempfile
from pathlib import Path

from engine_fakes import FakePhone, run, script, setting_item, step_marking
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_artemis.agents.schemas import CheckReport, CitationClaim, ModelVerdict
from pytest_artemis.checking.terms import contains
from pytest_artemis.contracts import CheckItem, Tap, TaskSpec, outcome_word
from pytest_artemis.store.reader import read_run
from pytest_artemis.testing import ScriptedRequest

WIFI = "Turn on Wi-Fi"
MODEL_ITEM = CheckItem(kind="assert", text="The Wi-Fi row reads ON", subgoal_hint=WIFI)
END_ITEM = CheckItem(kind="assert", when="end", text="No error is shown")

claims = st.one_of(
    st.none(),
    st.builds(CitationClaim, step=st.one_of(st.none(), st.integers(1, 4)),
              screen=st.sampled_from(["pre", "post", "final"]),
              quote=st.sampled_from(["", "Wifi", "Bluetooth", "Settings", "ON", "Alarm set", "x", "wifi on"]),
              element=st.one_of(st.none(), st.integers(0, 4)),
              attribute=st.sampled_from(["", "checked=true", "text=Settings", "selected=true", "bogus"]),
              probe=st.sampled_from(["", "", "setting"]), visual=st.booleans()),
)
verdict_lists = st.lists(st.tuples(st.sampled_from(["passed", "failed", "inconclusive"]),
                                   st.sampled_from(["the check passed successfully", "", "confirmed"]),
                                   claims), max_size=3)


def _checker(data: st.DataObject, items: tuple[CheckItem, ...]):
    """Replies drawn before the run, per entry and item: checkpoint and final checks may run side by side,
    so drawing inside a call would make the draws' order depend on scheduling."""
    drawn = {(entry, item.text): data.draw(verdict_lists, label=f"{entry}:{item.kind}")
             for entry in ("checkpoint", "final") for item in (*items, CheckItem(kind="goal", text=WIFI))}

    def respond(request: ScriptedRequest) -> CheckReport:
        verdicts = []
        for item in request.checks:
            for status, evidence, claim in drawn.get((request.entry, item.text), []):
                verdicts.append(ModelVerdict(item=item.text, status=status, evidence=evidence,
                                             citation=claim))
        return CheckReport(verdicts=verdicts)

    return respond


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.booleans())
def test_a_run_passes_only_on_grounded_passed_verdicts(data, final_check):
    phone = FakePhone()
    spec = TaskSpec(goal=WIFI, checks=(setting_item(hint=WIFI), MODEL_ITEM, END_ITEM))
    model = script(f"- [ ] {WIFI}\n", [step_marking(WIFI, actions=(Tap(element=0),))],
                   _checker(data, spec.checks))
    with tempfile.TemporaryDirectory() as tmp:
        outcome, run_dir = run(Path(tmp), spec, phone, model, final_check=final_check)
        record = read_run(run_dir)
    if outcome_word(outcome) != "PASSED":
        return
    current = {v.item_key: v for v in record.verdicts if v.status != "superseded"}
    deciding = [v for v in current.values() if v.source == "model"]
    assert deciding or not final_check  # with the final check on, the goal's own verdict decided
    for verdict in deciding:
        assert verdict.status == "passed" and verdict.citation is not None and verdict.citation.found
        citation = verdict.citation
        if citation.found_in == "probe":
            continue
        assert citation.screenshot is not None and citation.screen in ("pre", "post", "final")
        assert citation.step is None or citation.step <= len(record.steps)
        if citation.quote:  # the fake phone only ever shows these labels
            assert any(contains(label, citation.quote) for label in ("Wifi", "Bluetooth", "Settings"))
        else:
            assert citation.element is not None and citation.attribute
