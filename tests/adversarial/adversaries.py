"""Scripted adversaries: operators that lie and checkers that stay silent, raise, hedge, contradict
themselves, misquote or cite the wrong moment. Each is a function of the request, like a model."""

from __future__ import annotations

import re

from fault_scripts import cite, mark_done

from pytest_artemis.agents.schemas import (
    CheckReport,
    CitationClaim,
    ModelVerdict,
    OperatorDecision,
    PlanReply,
)
from pytest_artemis.contracts import Finish, Launch, Tap, TypeText
from pytest_artemis.testing import ModelUnavailable, ScriptedRequest

SETTINGS = "com.android.settings"
PLAN = "- [ ] Open Wi-Fi settings\n- [ ] Turn Wi-Fi on\n"


def all_pass(request: ScriptedRequest, citation: CitationClaim | None,
             evidence: str = "looked") -> CheckReport:
    return CheckReport(verdicts=[ModelVerdict(item=i.text, status="passed", evidence=evidence,
                                              citation=citation)
                                 for i in request.checks])


def liar(request: ScriptedRequest) -> OperatorDecision:
    """Ticks every subgoal and claims the goal at once, without acting."""
    return OperatorDecision(decision="everything is done", actions=[Finish(summary="done")],
                            plan=mark_done(request.plan))


def busy_liar(request: ScriptedRequest) -> OperatorDecision:
    """Taps something (so it did act), ticks every subgoal and claims the goal in the same turn."""
    screen = request.screen
    assert screen is not None
    target = next(e for e in screen.elements if e.clickable)
    return OperatorDecision(decision="everything is done", plan=mark_done(request.plan),
                            actions=[Tap(element=target.index), Finish(summary="done")])


def refuser(request: ScriptedRequest) -> OperatorDecision:
    """Asks for what the device layer refuses: a malformed package, then text `input` cannot type."""
    if request.turn == 1:
        return OperatorDecision(decision="launch", actions=[Launch(package="not a package!")])
    if request.turn == 2:
        return OperatorDecision(decision="type", actions=[TypeText(text="caf\u00e9 \u2603")])
    return OperatorDecision(decision="give up", actions=[Finish(summary="done")],
                            plan=mark_done(request.plan))


def undoer(request: ScriptedRequest) -> OperatorDecision:
    """Turns Wi-Fi on (ticking the subgoal), then turns it off again and claims the goal."""
    screen = request.screen
    assert screen is not None
    switch = screen.find(resource_id="switch_widget")
    row = screen.find("Wi")
    if switch is None:
        assert row is not None, "the adversary expects the Settings list"
        return OperatorDecision(decision="open Wi-Fi", actions=[Tap(element=row.index)],
                                plan=mark_done(request.plan, "Open Wi-Fi settings"))
    if "Turn Wi-Fi on" in request.plan and "[x] Turn Wi-Fi on" not in request.plan:
        return OperatorDecision(decision="switch on", actions=[Tap(element=switch.index)],
                                plan=mark_done(request.plan, "Turn Wi-Fi on"))
    if switch.text == "ON":
        return OperatorDecision(decision="switch off again", actions=[Tap(element=switch.index)])
    return OperatorDecision(decision="done", actions=[Finish(summary="Wi-Fi is on")])


def doer(request: ScriptedRequest) -> OperatorDecision:
    """Really turns Wi-Fi on in this run (off first, if an earlier test left it on), then claims the goal
    with every subgoal ticked."""
    screen = request.screen
    assert screen is not None
    switch = screen.find(resource_id="switch_widget")
    if switch is None:
        return undoer(request)
    turned_on = any("'OFF'" in line for line in request.history)  # a tap on the switch reading OFF
    if switch.text == "ON" and turned_on:
        return OperatorDecision(decision="done", actions=[Finish(summary="Wi-Fi is on")],
                                plan=mark_done(request.plan))
    return OperatorDecision(decision="toggle", actions=[Tap(element=switch.index)])


def tidy_undoer(request: ScriptedRequest) -> OperatorDecision:
    """The undoer, ticking every subgoal when it claims the goal (so only the checks can stop a pass)."""
    decision = undoer(request)
    if any(a.kind == "finish" for a in decision.actions):
        return decision.model_copy(update={"plan": mark_done(request.plan)})
    return decision


def typist(request: ScriptedRequest) -> OperatorDecision:
    """Opens the alarm editor, types the success message into its label field, and claims the goal
    without saving anything."""
    screen = request.screen
    assert screen is not None
    label = screen.find(resource_id="label")
    if label is None:
        add = screen.find(content_desc="Add alarm")
        assert add is not None, "the adversary expects the Clock app's alarm list"
        return OperatorDecision(decision="open the editor", actions=[Tap(element=add.index)])
    if TYPED not in label.text:
        return OperatorDecision(decision="type", actions=[TypeText(text=TYPED, element=label.index)])
    return OperatorDecision(decision="the screen says the alarm is set", actions=[Finish(summary=TYPED)],
                            plan=mark_done(request.plan))


TYPED = "Alarm set for 7:30 AM"


def checker(kind: str, request: ScriptedRequest) -> CheckReport:
    """The checker adversaries, by name."""
    if kind == "silent":
        return CheckReport()
    if kind == "raising":
        raise ModelUnavailable("checker provider crashed", http_status=500)
    if kind == "hedging":
        return all_pass(request, None, "The check passed successfully. Confirmed, as required.")
    if kind == "wrong_quote":
        return all_pass(request, CitationClaim(step=1, screen="post", quote="Alarm set for 7:30 AM"))
    if kind == "late":
        late = CitationClaim(step=request.turn + 5, screen="post", quote="Wi-Fi")
        return all_pass(request, late if request.entry == "checkpoint" else cite(request))
    if kind == "reads_typed":
        final = CitationClaim(screen="final", quote=TYPED)
        return all_pass(request, final if request.entry == "final" else cite(request))
    if kind in WORDINGS:  # the Wi-Fi switch on the final screen, whatever the words
        return all_pass(request, _final_switch(request), WORDINGS[kind])
    if kind == "stale":
        return all_pass(request, _switch_on(request) if request.entry == "final" else cite(request))
    if kind == "contradicting":
        return CheckReport(verdicts=[ModelVerdict(item=i.text, status=s, evidence=s, citation=cite(request))
                                     for i in request.checks for s in ("passed", "failed")])
    return all_pass(request, cite(request))  # credulous, but cites something real


WORDINGS = {
    "sure": "The Wi-Fi switch reads ON.",
    "unsure": "The switch probably reads ON, though I cannot confirm it",
    "should_be": "Wi-Fi should be on now; the switch shows checked=true",
    "dont_see": "I don't see any error, and the Wi-Fi switch is on",
    "no_longer_off": "Wi-Fi is no longer off: it was never turned on before, now it is",
    "opposite": "The Wi-Fi switch is not on: the screen was never changed",  # wrong words, right citation
}
"""What a checker says with the same true citation: its words never decide."""


def _final_switch(request: ScriptedRequest) -> CitationClaim | None:
    """The Wi-Fi switch on the final screen, by its checked state."""
    final = next((s for s in request.screens if s.screen == "final"), None)
    switch = final.view.find(resource_id="switch_widget") if final is not None else None
    if switch is None:
        return None
    return CitationClaim(screen="final", element=switch.index,
                         attribute=f"checked={'true' if switch.checked else 'false'}")


def _switch_on(request: ScriptedRequest) -> CitationClaim | None:
    """The pre-screen of the step whose history line tapped a switch reading ON: true when recorded, stale
    by the end (the adversary cites it whatever came after)."""
    for line in reversed(request.history):
        tapped = re.search(r"step (\d+)\b.*\[(\d+)\] 'ON'", line)
        if tapped:
            return CitationClaim(step=int(tapped[1]), screen="pre", element=int(tapped[2]), quote="ON")
    return None


def respond_with(operator, checker_kind: str):
    def respond(request: ScriptedRequest, device: object) -> object:
        if request.role == "planner":
            return PlanReply(plan=PLAN)
        if request.role == "operator":
            return operator(request)
        return checker(checker_kind, request)

    return respond
