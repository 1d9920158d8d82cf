"""The checker's contract as a model meets it: items by id (with the listing's own text as a fallback), a
reply schema built per request, nothing a model says dropped silently, its wording never deciding, and a
prompt whose rules section is the rules table's (only the rules active in that request)."""

from __future__ import annotations

import asyncio
import json

import pytest

from pytest_artemis.agents.checker import (
    Checker,
    CheckRequest,
    ItemIds,
    checker_tools,
    match_verdicts,
    may_proceed,
    rules_for,
)
from pytest_artemis.agents.checker_prompt import checker_system
from pytest_artemis.agents.schemas import CheckReport, CitationClaim, ModelVerdict, ToolRequest, report_schema
from pytest_artemis.checking.rules import RULE, RULES, active
from pytest_artemis.checking.verdicts import make_verdict
from pytest_artemis.contracts import CheckItem
from pytest_artemis.device.probe_table import ProbeKind, builtin_probes
from pytest_artemis.testing import ScriptedModel

VERIFY = CheckItem(kind="verify", text="The alarm list shows 7:30 AM")
ASSERT = CheckItem(kind="assert", text="A toast appears after saving")
END = CheckItem(kind="assert", text="No 'keeps stopping' dialog appears", when="end")
GOAL = CheckItem(kind="goal", text="Turn on Bluetooth", when="end")
ITEMS = (VERIFY, ASSERT, END, GOAL)
IDS = ItemIds().map(ITEMS)


def test_items_get_short_ids_stable_for_the_run():
    ids = ItemIds()
    assert ids.map(ITEMS) == {VERIFY.key: "v1", ASSERT.key: "a1", END.key: "a2", GOAL.key: "goal"}
    later = CheckItem(kind="verify", text="Wi-Fi is on")
    assert ids.map((later, VERIFY)) == {later.key: "v2", VERIFY.key: "v1"}


@pytest.mark.parametrize("name", [
    "v1", "[v1]", " V1 ", "verify: The alarm list shows 7:30 AM",
    "- [v1] verify: The alarm list shows 7:30 AM",
    "The alarm list shows 7:30 AM", "the alarm LIST shows  7:30 am.", "'The alarm list shows 7:30 AM'",
    "[v1] verify: The alarm list shows 7:30 AM",
])
def test_a_verdict_names_its_item_by_id_or_as_the_request_lists_it(name):
    judged, unmatched = match_verdicts(ITEMS, [ModelVerdict(item=name, status="failed", evidence="x")], IDS)
    assert unmatched == ()
    assert judged[0].item == VERIFY and judged[0].status == "failed"


@pytest.mark.parametrize("name", ["a2", "assert@end: No 'keeps stopping' dialog appears",
                                  "- [a2] assert@end: No 'keeps stopping' dialog appears"])
def test_an_end_item_is_named_with_its_listing_prefix(name):
    judged, _ = match_verdicts(ITEMS, [ModelVerdict(item=name, status="passed")], IDS)
    assert [j.status for j in judged if j.item == END] == ["passed"]


def test_a_verdict_naming_no_listed_item_is_recorded_and_its_missed_items_say_what_it_named():
    judged, unmatched = match_verdicts(ITEMS, [ModelVerdict(item="v9", status="passed")], IDS)
    assert unmatched == ("v9",)
    assert all(j.status == "inconclusive" for j in judged)
    assert all(j.reason.startswith("[E12] the checker gave no verdict for this item") for j in judged)
    assert all("its reply named 'v9', which is no listed item" in j.reason for j in judged)


def test_the_reply_schema_names_the_requests_items_by_id():
    schema = report_schema(("v1", "a1", "goal"))
    sent = schema.model_json_schema()
    verdict = sent["$defs"]["ModelVerdict"]["properties"]
    assert verdict["item"]["enum"] == ["v1", "a1", "goal"]
    assert "citations" in verdict and "citation" not in verdict
    # validation still reads a reply naming an item otherwise, so it can be matched or recorded
    read = schema.model_validate({"verdicts": [{"item": "goal: Turn on Bluetooth", "status": "passed"}]})
    assert isinstance(read, CheckReport) and read.verdicts[0].item == "goal: Turn on Bluetooth"


def test_one_citation_is_shorthand_for_a_list_and_both_at_once_is_refused():
    claim = CitationClaim(step=2, quote="x")
    assert ModelVerdict(item="v1", status="passed", citation=claim).citations == [claim]
    with pytest.raises(ValueError, match="not both"):
        ModelVerdict.model_validate({"item": "v1", "status": "passed", "citation": {"step": 1, "quote": "a"},
                                     "citations": [{"step": 1, "quote": "a"}]})


@pytest.mark.parametrize("evidence", [
    "The alarm probably shows 7:30 AM", "7:30 AM should be listed", "It could be 7:30 AM", "I think so",
    "The alarm is expected to be there", "I don't see any error", "I can't see any error",
    "It is no longer missing", "was not set before, now it is", "no sign of a problem",
    "As far as I can tell the list shows 7:30 AM", "I'm fairly confident", "never turned off",
])
def test_the_checkers_wording_never_decides(evidence):
    claim = CitationClaim(step=4, screen="post", quote="7:30 AM")
    for status in ("passed", "failed"):
        judged, _ = match_verdicts([VERIFY], [ModelVerdict(item="v1", status=status, evidence=evidence,
                                                           citations=[claim])], {VERIFY.key: "v1"})
        assert (judged[0].status, judged[0].reason, judged[0].claims) == (status, "", (claim,))


def test_verdicts_that_disagree_on_one_item_are_all_kept_inconclusive():
    said = [ModelVerdict(item="v1", status="passed", evidence="a"),
            ModelVerdict(item="the alarm list shows 7:30 am", status="failed", evidence="b"),
            ModelVerdict(item="a1", status="passed", evidence="c"),
            ModelVerdict(item="a1", status="passed", evidence="d")]
    judged, _ = match_verdicts([VERIFY, ASSERT], said, IDS)
    assert [(j.item.kind, j.status, j.evidence) for j in judged] == [
        ("verify", "inconclusive", "a"), ("verify", "inconclusive", "b"), ("assert", "passed", "c")]
    assert all(j.reason.startswith("[E12] conflicting verdicts in one reply (passed vs failed)")
               for j in judged[:2])


def test_proceed_is_computed_from_verdicts_never_from_the_model():
    def verdict(item, status):
        return make_verdict(item, status=status, evidence="", source="model", attempt_id="a#1",
                            checkpoint_id="a", anchor_step=3, started_at=0.0)

    assert may_proceed([verdict(ASSERT, "failed"), verdict(VERIFY, "inconclusive")]) is True
    assert may_proceed([verdict(ASSERT, "passed"), verdict(VERIFY, "failed")]) is False


def _prompt(items, entry="final", *, probes=None, typed=True, held=False):
    request = CheckRequest(entry=entry, goal="g", plan="", items=tuple(items), history=())
    rules = rules_for(request, typed=typed)
    return checker_system(rules, entry=entry, kinds={i.kind for i in items}, tool_docs=["x"], probes=probes,
                          held=held, absence=any("No " in i.text for i in items)), rules


def test_the_prompts_rules_are_the_rules_tables_words_and_only_the_active_ones():
    prompt, rules = _prompt([VERIFY, GOAL, END])
    for rule in RULES:
        line = f"- [{rule.id}] {rule.stated('final')}"
        assert (line in prompt) == (rule in rules), rule.id
    assert {r.id for r in rules} == {r.id for r in RULES}
    only_assert, rules = _prompt([ASSERT], entry="checkpoint", typed=False)
    off = {r.id for r in RULES} - {r.id for r in rules}
    assert off == {"E7", "E9", "E10"}  # no goal/verify item, nothing typed, no absence
    for rule_id in off:
        assert f"[{rule_id}]" not in only_assert and RULE[rule_id].stated("checkpoint") not in only_assert
    assert RULE["E3"].stated("checkpoint") in only_assert and RULE["E3"].stated("final") not in only_assert


def test_a_rule_switched_off_disappears_from_the_prompt():
    rules = [r for r in active("final", ["goal"], absence=True, typed=True) if r.id != "E6"]
    prompt = checker_system(rules, entry="final", kinds={"goal"}, tool_docs=[], probes=None)
    assert "[E6]" not in prompt and RULE["E6"].statement not in prompt and "[E5]" in prompt


def test_the_checker_is_told_each_probe_kinds_parameters_with_an_example():
    table = builtin_probes()
    table.register(ProbeKind("uptime", ("cat", "/proc/uptime"), description="seconds since boot"))
    prompt, _ = _prompt([ASSERT], probes=table)
    assert "- uptime(): seconds since boot" in prompt
    assert "- content(projection?, uri): rows of a content provider query" in prompt
    call = json.dumps({"tool": "probe_device", "probe": {"kind": "setting",
                                                          "params": {"ns": "global", "key": "wifi_on"}}})
    assert f"- setting(key, ns): one value from the settings provider; e.g. {call}" in prompt
    without, _ = _prompt([ASSERT], probes=None)
    assert "Probes read" not in without and '{"probe": "setting"' not in without


def test_examples_show_an_absence_a_probe_citation_and_a_goal_with_several_citations():
    prompt, _ = _prompt([END, GOAL], probes=builtin_probes())
    assert "An absence, cited by the final screen that lacks it:" in prompt
    assert "A probe citation (after requesting the probe):" in prompt
    compound = next(line for line in prompt.splitlines() if line.startswith('{"item": "goal"'))
    assert len(json.loads(compound)["citations"]) == 2


def test_checkpoint_entry_has_no_live_screen_tool_final_entry_has_one():
    assert "live_screen" not in {t.name for t in checker_tools("checkpoint", probes=True)}
    assert "live_screen" in {t.name for t in checker_tools("final", probes=True)}
    assert "probe_device" not in {t.name for t in checker_tools("final", probes=False)}


def test_the_request_lists_items_by_id_and_the_model_sees_the_schema_and_ids():
    class Evidence:
        async def step_detail(self, step):
            return f"detail of step {step}"

        async def step_screenshot(self, step, which):
            return None

        def plan(self):
            return "- [x] a"

        async def probe(self, spec):
            raise AssertionError("not requested")

        async def live_screen(self):
            raise AssertionError("the checkpoint entry must never look at the live screen")

    replies = iter([
        CheckReport(requests=[ToolRequest(tool="live_screen"), ToolRequest(tool="step_detail", step=2)]),
        {"verdicts": [{"item": "v1", "status": "passed", "evidence": "step 2 shows 7:30 AM"}]},
    ])
    model = ScriptedModel(lambda request: next(replies))
    checker = Checker(model, None, probes=builtin_probes(), max_iterations=3)
    request = CheckRequest(entry="checkpoint", goal="g", plan="- [x] a", items=(VERIFY, END), history=(),
                           ids={VERIFY.key: "v1", END.key: "a2"})
    result = asyncio.run(checker.assess(request, Evidence()))
    assert [a.status for a in result.assessments] == ["passed", "inconclusive"]
    first = model.requests[0]
    assert "- [v1] verify: The alarm list shows 7:30 AM" in first.messages[1].text
    assert "- [a2] assert@end: No 'keeps stopping' dialog appears" in first.messages[1].text
    assert first.ids == {VERIFY.key: "v1", END.key: "a2"}
    assert (first.schema.model_json_schema()["$defs"]["ModelVerdict"]["properties"]["item"]["enum"]
            == ["v1", "a2"])
    served = model.requests[1].messages[-1].text
    assert "live_screen: not available at this entry" in served and "detail of step 2" in served


def test_the_checker_is_told_how_many_times_it_may_ask_for_evidence_and_when_it_must_answer():
    class Evidence:
        def plan(self):
            return "- [x] a"

    replies = iter([CheckReport(requests=[ToolRequest(tool="read_plan")]),
                    CheckReport(requests=[ToolRequest(tool="read_plan")]),
                    {"verdicts": [{"item": "v1", "status": "inconclusive", "evidence": "nothing shows it"}]}])
    model = ScriptedModel(lambda request: next(replies))
    checker = Checker(model, None, probes=None, max_iterations=3)
    request = CheckRequest(entry="final", goal="g", plan="- [x] a", items=(VERIFY,), history=(),
                           ids={VERIFY.key: "v1"})
    asyncio.run(checker.assess(request, Evidence()))
    first, second, last = model.requests
    assert "You may do so 2 times; the reply after that must give the verdicts." in first.messages[0].text
    assert "last request for evidence" not in second.messages[-1].text
    assert last.messages[-1].text.endswith(
        "That was your last request for evidence: reply now with the verdicts.")
