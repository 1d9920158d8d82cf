"""Property of the rules of evidence: whatever the checker replies, a test reads PASSED only when the goal
really holds and the verdict rests on a citation that shows it — found in the record, about the item,
brought about by the run and still true when judged.

The oracle knows the world without asking the harness: the phone's Wi-Fi and Bluetooth values before the
run and the taps the operator makes, so the Wi-Fi state at every recorded screen. A citation is decisive
when it is the Wi-Fi switch read ``checked=true`` on a screen the harness recorded a hierarchy for (every
pre-screen, the completing step's post-screen, the final screen), at a moment from which Wi-Fi stays on to
the end, or the ``wifi_on`` probe run in this judgement quoted as 1."""

from __future__ import annotations

import tempfile
from pathlib import Path

from engine_fakes import FakePhone, run, script
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from pytest_artemis.agents.schemas import (
    CheckReport,
    CitationClaim,
    ModelVerdict,
    OperatorDecision,
    ToolRequest,
)
from pytest_artemis.contracts import Finish, ProbeSpec, Tap, TaskSpec, outcome_word
from pytest_artemis.store.reader import read_run
from pytest_artemis.testing import ScriptedRequest

GOAL = "Turn on Wi-Fi"
WIFI, BLUETOOTH, LABEL = 0, 1, 2  # the fake phone's elements: two switches and a "Settings" label
PROBES = {"wifi_on": ProbeSpec(kind="setting", params={"ns": "global", "key": "wifi_on"}),
          "bluetooth_on": ProbeSpec(kind="setting", params={"ns": "global", "key": "bluetooth_on"})}

screens = st.one_of(st.tuples(st.integers(1, 4), st.sampled_from(["pre", "post"])), st.just((None, "final")))
on_screen = st.builds(
    lambda where, element, attribute, quote: CitationClaim(step=where[0], screen=where[1], element=element,
                                                           attribute=attribute, quote=quote),
    screens, st.one_of(st.none(), st.integers(0, 3)),
    st.sampled_from(["checked=true", "checked=false", "checked", "text=Wifi", "text=Bluetooth", ""]),
    st.sampled_from(["", "Wifi", "Bluetooth", "Settings", "wifi on"]))
by_probe = st.builds(lambda key, quote: CitationClaim(probe="setting", params={"key": key} if key else {},
                                                      quote=quote),
                     st.sampled_from(["", "wifi_on", "bluetooth_on"]), st.sampled_from(["1", "0", "wifi"]))
honest = st.sampled_from([CitationClaim(screen="final", element=WIFI, attribute="checked=true"),
                          CitationClaim(probe="setting", params={"key": "wifi_on"}, quote="1")])
citations = st.builds(lambda core, more: [*core, *more], st.lists(honest, max_size=1),
                      st.lists(st.one_of(on_screen, by_probe), max_size=2))


def _wifi_timeline(wifi0: bool, taps: list[int]) -> dict[tuple[int | None, str], bool]:
    """The Wi-Fi state at each screen the run records: step k pre/post (k = 1..taps+1, the last one the
    finishing turn) and the final screen."""
    state, timeline = wifi0, {}
    for k, element in enumerate(taps, start=1):
        timeline[(k, "pre")] = state
        state = (not state) if element == WIFI else state
        timeline[(k, "post")] = state
    finish = len(taps) + 1
    timeline[(finish, "pre")] = timeline[(finish, "post")] = timeline[(None, "final")] = state
    return timeline


def _decisive(claim: CitationClaim, timeline: dict[tuple[int | None, str], bool], finish: int,
              probed: set[str]) -> bool:
    """Whether the oracle calls ``claim`` decisive for "Wi-Fi is on" (see the module's docstring)."""
    final = timeline[(None, "final")]
    if claim.probe:
        return claim.params.get("key", "wifi_on") == "wifi_on" and "wifi_on" in probed \
            and claim.quote == "1" and final
    where = (claim.step, claim.screen)
    recorded = claim.screen in ("pre", "final") or claim.step == finish
    if where not in timeline or not recorded:
        return False
    # The cited thing must be the Wi-Fi switch (by index, or by a quote of its label "Wifi"), and what the
    # citation says of it must be true: then the switch's own recorded state is what it shows.
    switch = claim.element == WIFI or (claim.element is None and claim.quote.casefold() == "wifi")
    said = claim.quote.casefold() in ("", "wifi") \
        and claim.attribute in ("", "checked=true", "checked", "text=Wifi")
    return switch and said and all(state for key, state in timeline.items() if _moment(key) >= _moment(where))


def _moment(where: tuple[int | None, str]) -> float:
    step, screen = where
    return float("inf") if step is None else 2 * step - (screen == "pre")


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(wifi0=st.sampled_from([False, False, True]), bluetooth0=st.booleans(),
       taps=st.lists(st.sampled_from([WIFI, WIFI, BLUETOOTH]), max_size=3),
       probes=st.sets(st.sampled_from(sorted(PROBES))), claims=citations)
def test_a_test_passes_only_on_a_decisive_citation_of_a_goal_that_holds(wifi0, bluetooth0, taps, probes,
                                                                        claims):
    phone = FakePhone(wifi_on=str(int(wifi0)), bluetooth_on=str(int(bluetooth0)))
    turns = [OperatorDecision(decision=f"tap [{e}]", actions=[Tap(element=e)]) for e in taps]
    finish = OperatorDecision(decision="claim the goal", actions=[Finish()], plan=f"- [x] {GOAL}\n")

    def checker(request: ScriptedRequest) -> CheckReport:
        served = any(m.role == "assistant" and "probe_device" in m.text for m in request.messages)
        if probes and not served:
            return CheckReport(requests=[ToolRequest(tool="probe_device", probe=PROBES[k])
                                         for k in sorted(probes)])
        return CheckReport(verdicts=[ModelVerdict(item="goal", status="passed", evidence="done",
                                                  citations=claims)])

    model = script(f"- [ ] {GOAL}\n", turns, checker, after=finish)  # type: ignore[arg-type]
    with tempfile.TemporaryDirectory() as tmp:
        outcome, run_dir = run(Path(tmp), TaskSpec(goal=GOAL), phone, model)
        record = read_run(run_dir)
    event(outcome_word(outcome))
    if outcome_word(outcome) != "PASSED":
        return
    timeline = _wifi_timeline(wifi0, taps)
    assert not wifi0 and timeline[(None, "final")], "the goal holds at the end and the run brought it about"
    assert any(_decisive(c, timeline, len(taps) + 1, probes) for c in claims), claims
    (goal,) = [v for v in record.verdicts if v.kind == "goal" and v.status == "passed"]
    assert all(c.found for c in goal.citations)
