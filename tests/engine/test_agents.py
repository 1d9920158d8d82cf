"""Agents: checker code rules, tool tables per entry, prompt assembly without dead instructions."""

from __future__ import annotations

import asyncio

import pytest

from pytest_artemis.agents.checker import (
    Checker,
    CheckRequest,
    apply_rules,
    checker_tools,
    match_verdicts,
    may_proceed,
)
from pytest_artemis.agents.prompts import Scenario, checker_system, operator_system, planner_system
from pytest_artemis.agents.prose import hedge
from pytest_artemis.agents.schemas import CheckReport, CitationClaim, ModelVerdict, ToolRequest
from pytest_artemis.checking.verdicts import make_verdict
from pytest_artemis.contracts import CheckItem
from pytest_artemis.device.probe_table import ProbeKind, builtin_probes
from pytest_artemis.testing import ScriptedModel

VERIFY = CheckItem(kind="verify", text="The alarm list shows 7:30 AM")
ASSERT = CheckItem(kind="assert", text="A toast appears after saving")
CHECK_SYNTAX = ("verify:", "assert:", "@end", "verify", "assert")


def test_rules_keep_the_status_and_the_claim_for_grounding_prose_never_makes_a_verdict():
    claim = CitationClaim(step=4, screen="post", quote="7:30 AM")
    judged = apply_rules(VERIFY, ModelVerdict(item=VERIFY.text, status="passed", evidence="", citation=claim))
    assert (judged.status, judged.claim) == ("passed", claim)
    assert apply_rules(ASSERT, None).status == "inconclusive"


@pytest.mark.parametrize(("status", "evidence", "said"), [
    ("passed", "The alarm probably shows 7:30 AM", "probably"),
    ("passed", "7:30 AM seems to be listed", "seems"),
    ("failed", "I cannot confirm the toast appeared", "cannot confirm"),
    ("passed", "The switch is on, but this can't be verified from the dump", "can't be verified"),
    ("passed", "I think the alarm was saved", "I think"),
    ("passed", "The alarm list appears to show 7:30 AM", "appears to"),
    ("passed", "It looks like the alarm was saved", "looks like"),
    ("passed", "7:30 AM is possibly listed", "possibly"),
    ("passed", "The alarm should be set now", "should be"),
    ("passed", "I am not entirely sure, but 7:30 AM is listed", "not entirely sure"),
    ("passed", "I am fairly confident the list shows 7:30 AM", "fairly confident"),
    ("passed", "As far as I can tell the list shows 7:30 AM", "As far as I can tell"),
    ("passed", "The toast suggests the alarm was saved", "suggests"),
    ("passed", "The toast must have appeared, since 7:30 AM is listed", "must have"),
    ("failed", "Hard to tell from the screenshot; 7:30 AM is missing", "Hard to tell"),
    ("passed", "I cannot be certain, the list shows 7:30 AM", "cannot be certain"),
    ("passed", "The toast appears after saving at step 4 (element 7)", ""),  # "appears", not "appears to"
    ("passed", "I can\u2019t confirm the list shows 7:30 AM", "can't confirm"),  # a typographic apostrophe
    ("passed", "I\u2019d say the list shows 7:30 AM", "I'd say"),
    ("passed", "The dialog reads \u2018It might take a while\u2019 (element 3)", ""),  # quoted, typographic
    ("passed", "The list shows 7:30 AM with its switch ON", ""),
    ("passed", "The dialog reads 'This might take a while' (element 3)", ""),  # quoted screen text
    ("passed", "step 4 post-screen shows '7:30 AM' (element 5)", ""),
    ("passed", "No 'keeps stopping' dialog is visible on the final screen", ""),
    ("inconclusive", "probably, but the screen was never recorded", ""),
])
def test_a_verdict_whose_own_evidence_hedges_is_inconclusive(status, evidence, said):
    claim = CitationClaim(step=4, screen="post", quote="7:30 AM")
    said_by_model = ModelVerdict(item=VERIFY.text, status=status, evidence=evidence, citation=claim)
    judged = apply_rules(VERIFY, said_by_model)
    assert hedge(evidence if status != "inconclusive" else "") == said
    if said:
        assert judged.status == "inconclusive" and judged.claim == claim  # kept for the ledger
        assert judged.reason == f"{status}, but the checker is not sure: its evidence says {said!r}"
    else:
        assert (judged.status, judged.reason) == (status, "")


def test_conflicting_verdicts_for_one_item_are_all_kept_inconclusive():
    said = [ModelVerdict(item=VERIFY.text, status="passed", evidence="a"),
            ModelVerdict(item=" the alarm LIST shows 7:30 am", status="failed", evidence="b"),
            ModelVerdict(item=ASSERT.text, status="passed", evidence="c"),
            ModelVerdict(item=ASSERT.text, status="passed", evidence="d")]
    judged = match_verdicts([VERIFY, ASSERT], said)
    assert [(j.item.kind, j.status, j.evidence) for j in judged] == [
        ("verify", "inconclusive", "a"), ("verify", "inconclusive", "b"), ("assert", "passed", "c")]
    assert all("conflicting verdicts in one reply (passed vs failed)" in j.reason for j in judged[:2])


def test_a_repeated_verdict_its_own_words_take_back_conflicts_with_the_one_that_stands():
    said = [ModelVerdict(item=VERIFY.text, status="passed", evidence="The list shows 7:30 AM"),
            ModelVerdict(item=VERIFY.text, status="passed", evidence="7:30 AM is not shown")]
    judged = match_verdicts([VERIFY], said)
    assert [(j.status, j.evidence) for j in judged] == [("inconclusive", e.evidence) for e in said]
    said_twice = "conflicting verdicts in one reply (passed vs passed (taken back by its own words))"
    assert all(said_twice in j.reason for j in judged)


@pytest.mark.parametrize(("item", "evidence", "said"), [
    (VERIFY.text, "7:30 AM is not shown in the alarm list", "is not shown"),
    (VERIFY.text, "The alarm was never saved", "never saved"),
    (VERIFY.text, "The list doesn't contain 7:30 AM", "doesn't contain"),
    (VERIFY.text, "I could not find 7:30 AM in the list", "could not find"),
    (VERIFY.text, "The list doesn\u2019t contain 7:30 AM", "doesn't contain"),  # a typographic apostrophe
    (VERIFY.text, "The 7:30 AM alarm was not created", "was not created"),
    (VERIFY.text, "Unable to locate 7:30 AM; the list is shown", "Unable to"),
    (VERIFY.text, "There is no sign of a 7:30 AM alarm", "no sign of"),
    (VERIFY.text, "The alarm never appeared in the list", "never appeared"),
    (VERIFY.text, "No evidence of a 7:30 AM alarm, but the list is shown", "No evidence"),
    (VERIFY.text, "There is no clear evidence the alarm was saved", "no clear evidence"),
    (VERIFY.text, "7:30 AM was not seen in the list", "was not seen"),
    (VERIFY.text, "No trace of a 7:30 AM alarm in the list", "No trace of"),
    ("No 'keeps stopping' dialog appears", "There is no evidence of a crash dialog at the end", ""),
    (VERIFY.text, "The list shows 7:30 AM (element 5)", ""),
    (VERIFY.text, "The list reads 'Not scheduled' under 7:30 AM", ""),  # quoted screen text
    ("No 'keeps stopping' dialog appears", "No dialog is shown: it is not visible", ""),  # an absence
])
def test_a_pass_whose_own_evidence_says_the_opposite_is_inconclusive(item, evidence, said):
    check = CheckItem(kind="verify", text=item)
    judged = apply_rules(check, ModelVerdict(item=item, status="passed", evidence=evidence,
                                             citation=CitationClaim(step=4, quote="7:30 AM")))
    if said:
        assert judged.status == "inconclusive"
        assert judged.reason == f"passed, but its own evidence says otherwise: {said!r}"
    else:
        assert (judged.status, judged.reason) == ("passed", "")
    failed = apply_rules(check, ModelVerdict(item=item, status="failed", evidence=evidence))
    assert failed.status == "failed"  # a failure in negative words is just a failure


def test_proceed_is_computed_from_verdicts_never_from_the_model():
    def verdict(item, status):
        return make_verdict(item, status=status, evidence="step 3 post screenshot", source="model",
                            attempt_id="a#1", checkpoint_id="a", anchor_step=3, started_at=0.0)

    assert may_proceed([verdict(ASSERT, "failed"), verdict(VERIFY, "inconclusive")]) is True
    assert may_proceed([verdict(ASSERT, "passed"), verdict(VERIFY, "failed")]) is False


def test_checkpoint_entry_has_no_live_screen_tool_final_entry_has_one():
    assert "live_screen" not in {t.name for t in checker_tools("checkpoint", probes=True)}
    assert "live_screen" in {t.name for t in checker_tools("final", probes=True)}
    assert "probe_device" not in {t.name for t in checker_tools("final", probes=False)}


def test_checker_prompt_sections_follow_items_entry_and_tools():
    only_verify = checker_system([VERIFY], entry="checkpoint", tool_docs=["x"], probes=None)
    assert "`verify` items" in only_verify and "`assert` items" not in only_verify
    assert "Probes read" not in only_verify and "end of the run" not in only_verify
    only_assert = checker_system([ASSERT], entry="final", tool_docs=["x"], probes=builtin_probes())
    assert "`assert` items" in only_assert and "`verify` items" not in only_assert
    assert "Probes read" in only_assert and "checkpoint" not in only_assert
    # the grounding rules the code applies are the ones the checker is told, where they apply
    assert "cited text still shows at the end" in only_assert
    goal = checker_system([CheckItem(kind="goal", text="g", when="end")], entry="final", tool_docs=["x"],
                          probes=None)
    assert "already showed before the agent first acted" in goal
    assert "already showed before" not in only_assert
    assert "cited text still shows at the end" not in only_verify
    assert all("typed into an input field is its own input" in p for p in (only_verify, only_assert))
    assert all('"Alarm set" from "No alarm set"' in p for p in (only_verify, only_assert))
    assert all("passes only on a screen without it" in p for p in (only_verify, only_assert))
    assert "still shows at the anchor step" in only_verify and "anchor" not in only_assert
    assert "an error message" in only_assert and "an error message" not in only_verify
    probing = checker_system([VERIFY], entry="checkpoint", tool_docs=["x"], probes=builtin_probes())
    assert "no step\nafter the anchor had begun to act" in probing
    assert "begun to act" not in only_verify and "begun to act" not in only_assert


def test_checker_is_told_the_sessions_probe_kinds():
    table = builtin_probes()
    table.register(ProbeKind("uptime", ("cat", "/proc/uptime"), description="seconds since boot"))
    prompt = checker_system([ASSERT], entry="final", tool_docs=["x"], probes=table)
    assert "uptime(): seconds since boot" in prompt and "alarms(): " in prompt
    assert "uptime" not in checker_system([ASSERT], entry="final", tool_docs=["x"], probes=builtin_probes())


def test_checker_refuses_an_unregistered_tool_and_serves_registered_ones():
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
        CheckReport(verdicts=[ModelVerdict(item=VERIFY.text, status="passed",
                                           evidence="step 2 shows 7:30 AM in the list")]),
    ])
    model = ScriptedModel(lambda request: next(replies))
    checker = Checker(model, None, probes=builtin_probes(), max_iterations=3)
    request = CheckRequest(entry="checkpoint", goal="g", plan="- [x] a", items=(VERIFY,), history=())
    result = asyncio.run(checker.assess(request, Evidence()))
    assert result.assessments[0].status == "passed"
    served = model.requests[1].messages[-1].text
    assert "live_screen: not available at this entry" in served and "detail of step 2" in served


def test_prompts_without_checks_mention_no_check_syntax():
    off = Scenario(checks_enabled=False)
    for prompt in (planner_system(off), operator_system(off)):
        assert not any(word in prompt for word in CHECK_SYNTAX), prompt
    on = Scenario(checks_enabled=True, plan_has_checks=True)
    assert "verify:" in planner_system(on) and "independent checker" in operator_system(on)
    # the explainer follows the plan's content, not the switches
    assert "independent checker" not in operator_system(Scenario(checks_enabled=True))
