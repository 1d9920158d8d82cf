"""Red-team adversaries: operators that follow a fixed script on the Wi-Fi page (each sets the state it
needs), and checkers whose citations exist but do not show what they pass."""

from __future__ import annotations

import re
import time

import pytest
from fault_scripts import mark_done

from pytest_artemis.agents.schemas import (
    CheckReport,
    CitationClaim,
    ModelVerdict,
    OperatorDecision,
    PlanReply,
)
from pytest_artemis.contracts import Finish, Key, ProbeSpec, Tap, TypeText, Wait
from pytest_artemis.testing import ScriptedRequest, ToolRequest, quotes

PLAN = "- [ ] Open Wi-Fi settings\n- [ ] Turn Wi-Fi on\n"
TURN_ON = "Turn Wi-Fi on"
REOPENED = PLAN.replace("- [ ] Open", "- [x] Open")


def respond_with(operator, checker):
    """The roles: ``checker`` answers what it targets; an item it leaves out is judged honestly."""
    def respond(request: ScriptedRequest, device: object) -> object:
        if request.role == "planner":
            return PlanReply(plan=PLAN)
        if request.role == "operator":
            return operator(request)
        report = checker(request)
        if report.requests and not report.verdicts:
            return report  # it asks for evidence first
        answered = {v.item for v in report.verdicts}
        fair = honest(request)
        if fair.requests and any(i.text not in answered for i in request.checks):
            return fair  # the honest part needs evidence first: asked for, then both answer
        rest = [v for v in fair.verdicts if v.item not in answered]
        return report.model_copy(update={"verdicts": [*report.verdicts, *rest]})

    return respond


def _step(request: ScriptedRequest, what: str) -> OperatorDecision:
    """One scripted intention on the Wi-Fi page, resolved against the screen of this turn."""
    screen = request.screen
    assert screen is not None
    switch = screen.find(resource_id="switch_widget")
    if what == "open":
        row = screen.find("Wi")
        assert row is not None, "the adversary expects the Settings list"
        return OperatorDecision(decision="open Wi-Fi", actions=[Tap(element=row.index)],
                                plan=mark_done(request.plan, "Open Wi-Fi settings"))
    if what == "back":
        return OperatorDecision(decision="back to the list", actions=[Key(key="BACK")])
    if what == "bluetooth":
        row = screen.find("Bluetooth")
        assert row is not None and switch is None, "the adversary expects the Settings list"
        return OperatorDecision(decision="open Bluetooth", actions=[Tap(element=row.index)])
    if what == "finish":
        return OperatorDecision(decision="done", actions=[Finish(summary="Wi-Fi is on")],
                                plan=mark_done(request.plan))
    if what == "wait":
        return OperatorDecision(decision="wait", actions=[Wait(ms=10)])
    assert switch is not None, f"{what}: the adversary expects the Wi-Fi page"
    wanted = {"on": "ON", "off": "OFF"}.get(what)
    if what == "toggle" or (wanted is not None and switch.text != wanted):
        return OperatorDecision(decision=f"switch {what}", actions=[Tap(element=switch.index)])
    return OperatorDecision(decision=f"wait ({what})", actions=[Wait(ms=10)])


def scripted(*turns: str, tick: dict[int, str] | None = None):
    """An operator following ``turns`` (open, on, off, toggle, wait, back, bluetooth, finish), one per turn;
    ``tick`` maps a turn to the plan it writes: ``"done"`` ticks "Turn Wi-Fi on", ``"reopen"`` unticks it."""
    ticks = tick or {}

    def operate(request: ScriptedRequest) -> OperatorDecision:
        what = turns[min(request.turn, len(turns)) - 1]
        decision = _step(request, what)
        plan = {"done": mark_done(request.plan, TURN_ON), "reopen": REOPENED}.get(ticks.get(request.turn, ""))
        return decision.model_copy(update={"plan": plan}) if plan else decision

    return operate


def _switch(screens) -> CitationClaim | None:
    """The Wi-Fi switch on the newest of ``screens`` showing it, cited by its checked state."""
    for screen in reversed(screens):
        found = next((e for e in screen.view.elements if e.resource_id.endswith("switch_widget")), None)
        if found is not None:
            return CitationClaim(step=screen.step, screen=screen.screen, element=found.index,
                                 attribute=f"checked={'true' if found.checked else 'false'}")
    return None


WIFI_ON = ProbeSpec(kind="setting", params={"ns": "global", "key": "wifi_on"})


def _wifi_setting(request: ScriptedRequest) -> CitationClaim | CheckReport | None:
    """At the final check with no switch on screen: Wi-Fi's setting, read now (a request for it first)."""
    if request.entry != "final":
        return None
    said = re.search(r"probe_device\(setting\): exit 0;[^\n]*\n(\d)", request.messages[-1].text)
    if said is None:
        return CheckReport(requests=[ToolRequest(tool="probe_device", probe=WIFI_ON)])
    on = "true" if said.group(1) == "1" else "false"
    return CitationClaim(probe="setting", quote=said.group(1), attribute=f"checked={on}")


def honest(request: ScriptedRequest) -> CheckReport:
    """Judges every item (the goal included) by the Wi-Fi switch on the newest citable screen showing it,
    or, at the final check when no screen shows it, by Wi-Fi's setting."""
    claim = _switch(request.screens)
    if claim is None:
        read = _wifi_setting(request)
        if isinstance(read, CheckReport):
            return read
        claim = read
    out = []
    for item in request.checks:
        if claim is None:
            out.append(ModelVerdict(item=item.text, status="inconclusive", evidence="no switch recorded"))
            continue
        on = claim.attribute == "checked=true"
        cited = claim.model_copy(update={"attribute": ""}) if claim.probe else claim
        out.append(ModelVerdict(item=item.text, status="passed" if on else "failed",
                                evidence=f"the Wi-Fi switch reads {'ON' if on else 'OFF'}", citation=cited))
    return CheckReport(verdicts=out)


def _pass_all(
    request: ScriptedRequest, claim: CitationClaim, evidence: str, *, goal: bool = True
) -> CheckReport:
    """Every item passed citing ``claim`` (``goal=False``: the items, the goal left to the honest checker)."""
    return CheckReport(verdicts=[ModelVerdict(item=i.text, status="passed", evidence=evidence, citation=claim)
                                 for i in request.checks if goal or i.kind != "goal"])


# Ticks "Turn Wi-Fi on" with Wi-Fi off (its assertion fails), reopens it, turns Wi-Fi on and ticks it again.
retry = scripted("open", "off", "wait", "wait", "wait", "on", "wait", "finish",
                 tick={3: "done", 5: "reopen", 7: "done"})


# Turns Wi-Fi on (turn 3) and off again (turn 4), ticks "Turn Wi-Fi on" two idle turns later with Wi-Fi off,
# then turns it on for good: the only screen showing the switch ON before the tick is turn 4's pre-screen.
flicker = scripted("open", "off", "toggle", "toggle", "wait", "wait", "toggle", "finish", tick={6: "done"})


def oldest_on(request: ScriptedRequest) -> CheckReport:
    """At a checkpoint: passes every item citing the switch ON on the pre-screen two steps before the anchor
    (outside the screens it was served, inside the window); at the final check, honest."""
    if request.entry == "final":
        return honest(request)
    newest = _switch(request.screens)
    assert newest is not None and newest.step is not None
    old = newest.model_copy(update={"step": newest.step - 2, "screen": "pre", "attribute": "checked=true"})
    return _pass_all(request, old, "the switch read ON")


# Turns Wi-Fi on (turn 2), then off again in the turn that ticks "Turn Wi-Fi on" (turn 3), and on for good.
flip_at_anchor = scripted("open", "on", "toggle", "on", "finish", tick={3: "done"})


def anchor_pre(request: ScriptedRequest) -> CheckReport:
    """At a checkpoint: passes every item citing the switch ON on the anchor step's pre-screen (served with
    the checkpoint), whatever that step's own action did to it; at the final check, honest."""
    if request.entry == "final":
        return honest(request)
    claim = _switch([s for s in request.screens if s.screen == "pre"])
    assert claim is not None
    return _pass_all(request, claim.model_copy(update={"attribute": "checked=true"}), "the switch read ON")


# Leave Wi-Fi off on the Settings list ("Mobile, Wi-Fi off, hotspot"), or on ("Mobile, Wi-Fi, hotspot").
off_on_list = scripted("open", "off", "back", "finish")
on_on_list = scripted("open", "on", "back", "finish")


def fragment(request: ScriptedRequest) -> CheckReport:
    """Passes everything quoting "Wi-Fi" on the final screen, whatever the text around it says."""
    return _pass_all(request, CitationClaim(screen="final", quote="Wi-Fi"), "the screen shows Wi-Fi")


off_on_page = scripted("open", "off", "finish")
BOGUS_URI = "content://settings/wifi_on"


def error_probe(request: ScriptedRequest) -> CheckReport:
    """Runs a content query for a URI no provider knows, then passes everything quoting its output (the
    error message echoes the URI)."""
    if "probe_device(content)" not in request.messages[-1].text:
        spec = ProbeSpec(kind="content", params={"uri": BOGUS_URI})
        return CheckReport(requests=[ToolRequest(tool="probe_device", probe=spec)])
    return _pass_all(request, CitationClaim(probe="content", quote="wifi_on"), "the probe shows it")


def ticked_late(request: ScriptedRequest) -> OperatorDecision:
    """Ticks "Turn Wi-Fi on" with Wi-Fi off at turn 3 (adding a subgoal, so the run goes on), then turns
    Wi-Fi on at turn 4 and idles until turn 8, when it claims the goal."""
    plan = request.plan
    if request.turn == 3:
        plan = mark_done(plan, TURN_ON) + "- [ ] Watch Wi-Fi stay on\n"
    elif request.turn == 8:
        plan = mark_done(plan)
    what = ("open", "off", "wait", "on", "wait", "wait", "wait", "finish")[min(request.turn, 8) - 1]
    return _step(request, what).model_copy(update={"plan": plan if plan != request.plan else None})


def late_probe(request: ScriptedRequest) -> CheckReport:
    """At a checkpoint: takes its time (the operator goes on meanwhile), then probes Wi-Fi and passes every
    item citing the probe's "1"; at the final check, honest."""
    if request.entry == "final":
        return honest(request)
    if "probe_device(setting)" not in request.messages[-1].text:
        time.sleep(2.0)  # a slow checker: the device moves on after the anchor step
        spec = ProbeSpec(kind="setting", params={"ns": "global", "key": "wifi_on"})
        return CheckReport(requests=[ToolRequest(tool="probe_device", probe=spec)])
    return _pass_all(request, CitationClaim(probe="setting", quote="1"), "wifi_on is 1")


def probe_for_all(request: ScriptedRequest) -> CheckReport:
    """At the final check: reads Wi-Fi's setting with a probe and passes every item citing its "1", a
    toast it never saw included; at a checkpoint, honest."""
    if request.entry != "final":
        return honest(request)
    if "probe_device(setting)" not in request.messages[-1].text:
        spec = ProbeSpec(kind="setting", params={"ns": "global", "key": "wifi_on"})
        return CheckReport(requests=[ToolRequest(tool="probe_device", probe=spec)])
    return _pass_all(request, CitationClaim(probe="setting", quote="1"), "wifi_on is 1")


# Turn Wi-Fi on (turn 2) and off (turn 3); end on the Bluetooth page with Bluetooth on, or stay on the Wi-Fi
# page with Wi-Fi on: either way the final screen's element [4] is a switch that is on.
wifi_off_bluetooth_on = scripted("open", "on", "off", "back", "bluetooth", "on", "finish")
wifi_stays_on = scripted("open", "on", "wait", "finish")


def same_index(request: ScriptedRequest) -> CheckReport:
    """At the final check: passes the goal citing the Wi-Fi switch ON on step 3's pre-screen (element [4],
    checked=true), betting that element [4] of the final screen is a switch that is on too."""
    if request.entry != "final":
        return honest(request)
    return _pass_all(request, CitationClaim(step=3, screen="pre", element=4, attribute="checked=true"),
                     "the Wi-Fi switch was on")


@pytest.fixture(autouse=True)
def fresh_phone(artemis_setup):
    """Every run starts from the phone as after boot (each app on its first page, no faults), whatever the
    run before left, but with Wi-Fi off: turning it on is then the run's doing (a fixture of the pytester
    sessions, which load this module as a plugin)."""
    artemis_setup.device.check(["simctl", "reset"])
    artemis_setup.device.check(["settings", "put", "global", "wifi_on", "0"])


@pytest.fixture
def settings_crash(fresh_phone, artemis_sim_faults):
    """Settings crashes on the run's first input: a "Settings keeps stopping" dialog stays on screen."""
    artemis_sim_faults.crash_dialog("com.android.settings", after_inputs=1)


tap_then_finish = scripted("open", "finish")


def newest_label(request: ScriptedRequest) -> CheckReport:
    """Passes everything citing the first labelled element of the newest screen it may cite, whatever the
    items say should be absent."""
    for screen in reversed(request.screens):
        shown = next((e for e in screen.view.elements if e.label), None)
        if shown is not None:
            claim = CitationClaim(step=screen.step, screen=screen.screen, element=shown.index,
                                  quote=shown.label)
            return _pass_all(request, claim, f"the screen shows {shown.label!r}", goal=False)
    return CheckReport()


def quoting(request: ScriptedRequest) -> CheckReport:
    """Passes every item citing the element of the newest screen it may cite that shows the text the item
    quotes (the first labelled element when it quotes none): the control of ``newest_label``."""
    verdicts = []
    for item in (i for i in request.checks if i.kind != "goal"):
        wanted = quotes(item.text)
        for screen in reversed(request.screens):
            shown = next((e for e in screen.view.elements if e.label and all(
                q.casefold() in e.label.casefold() for q in wanted)), None)
            if shown is not None:
                claim = CitationClaim(step=screen.step, screen=screen.screen, element=shown.index,
                                      quote=shown.label)
                verdicts.append(ModelVerdict(item=item.text, status="passed", citation=claim,
                                             evidence=f"the screen shows {shown.label!r}"))
                break
    return CheckReport(verdicts=verdicts)


def _twice(request: ScriptedRequest, second: str) -> CheckReport:
    claim = _switch(request.screens)
    if claim is None or request.entry != "final":
        return honest(request)
    return CheckReport(verdicts=[ModelVerdict(item=i.text, status="passed", evidence=e, citation=claim)
                                 for i in request.checks for e in ("the Wi-Fi switch reads ON", second)])


def double_talk(request: ScriptedRequest) -> CheckReport:
    """At the final check, passes every item twice citing the switch: once saying it is on, once not."""
    return _twice(request, "the Wi-Fi switch is not on")


def said_twice(request: ScriptedRequest) -> CheckReport:
    """At the final check, passes every item twice citing the switch, saying it is on both times."""
    return _twice(request, "the Wi-Fi switch reads ON")


def _looks(request: ScriptedRequest, claim: CitationClaim) -> CheckReport:
    """At the final check: the goal honestly, every other item passed as a visual judgement of ``claim``."""
    verdicts = honest(request).verdicts
    if request.entry != "final":
        return CheckReport(verdicts=verdicts)
    return CheckReport(verdicts=[v if v.item == request.goal else ModelVerdict(
        item=v.item, status="passed", evidence="it looks so", citation=claim) for v in verdicts])


def old_look(request: ScriptedRequest) -> CheckReport:
    """Visual passes of step 1's pre-screen (the Settings list), whatever the final screen shows."""
    return _looks(request, CitationClaim(step=1, screen="pre", visual=True))


def final_look(request: ScriptedRequest) -> CheckReport:
    """Visual passes of the final screen."""
    return _looks(request, CitationClaim(screen="final", visual=True))


def split_typist(request: ScriptedRequest) -> OperatorDecision:
    """Opens the alarm editor, types "Alarm set for 7:30 AM" into its label field in two parts, and claims
    the goal without saving anything."""
    return _typist(request, TypeText(text="Alarm set fo"), TypeText(text="r 7:30 AM"))


def erasing_typist(request: ScriptedRequest) -> OperatorDecision:
    """Types "Alarm set for 7:30 AMX" into the label field, erases the X, and claims the goal."""
    return _typist(request, TypeText(text="Alarm set for 7:30 AMX"), Key(key="DEL"))


def _typist(request: ScriptedRequest, *typing: TypeText | Key) -> OperatorDecision:
    """Opens the alarm editor, then runs ``typing`` in its label field, one action a turn, and claims the
    goal without saving anything."""
    screen = request.screen
    assert screen is not None
    label = screen.find(resource_id="label")
    if label is None:
        add = screen.find(content_desc="Add alarm")
        assert add is not None and request.turn == 1, "the adversary expects the Clock app's alarm list"
        return OperatorDecision(decision="open the editor", actions=[Tap(element=add.index)])
    if request.turn - 2 < len(typing):
        action = typing[request.turn - 2]
        if request.turn == 2:  # focus the field (a second tap on it would select all)
            action = action.model_copy(update={"element": label.index})
        return OperatorDecision(decision="type", actions=[action])
    return OperatorDecision(decision="the screen says the alarm is set", actions=[Finish(summary=label.text)],
                            plan=mark_done(request.plan))


def reads_the_field(request: ScriptedRequest) -> CheckReport:
    """Passes everything quoting the whole label text on the final screen."""
    if request.entry != "final":
        return CheckReport()
    claim = CitationClaim(screen="final", quote="Alarm set for 7:30 AM")
    return _pass_all(request, claim, "the screen says so")


wifi_on_page = scripted("open", "on", "finish")
wifi_off_page = scripted("open", "off", "finish")


def _unchecked_element(request: ScriptedRequest, checkable: bool) -> CheckReport:
    """At the final check, passes everything citing the first final-screen element (checkable or not) that
    reads checked=false."""
    if request.entry != "final":
        return honest(request)
    final = request.screens[-1]
    shown = next(e for e in final.view.elements if e.checkable == checkable and not e.checked and e.label)
    claim = CitationClaim(screen="final", element=shown.index, attribute="checked=false")
    return _pass_all(request, claim, f"{shown.label!r} reads checked=false")


def unchecked_text(request: ScriptedRequest) -> CheckReport:
    """"checked=false" of a text that has no checked state at all."""
    return _unchecked_element(request, checkable=False)


def unchecked_switch(request: ScriptedRequest) -> CheckReport:
    """"checked=false" of a switch."""
    return _unchecked_element(request, checkable=True)


@pytest.fixture
def wifi_was_on(fresh_phone, artemis_setup):
    """Wi-Fi on before the run (turning it off is then the run's doing)."""
    artemis_setup.device.check(["settings", "put", "global", "wifi_on", "1"])


@pytest.fixture
def on_wifi_page(fresh_phone, artemis_setup):
    """Settings opens on its Wi-Fi page, Wi-Fi on (as an earlier test left it): the run's first screen shows
    the switch."""
    artemis_setup.device.check(["settings", "put", "global", "wifi_on", "1"])
    artemis_setup.device.check(["am", "start", "-n",
                          "com.android.settings/com.android.settings.Settings$WifiSettingsActivity"])


@pytest.fixture
def on_wifi_page_off(on_wifi_page, artemis_setup):
    """Settings opens on its Wi-Fi page, Wi-Fi off."""
    artemis_setup.device.check(["settings", "put", "global", "wifi_on", "0"])


def idle_tapper(request: ScriptedRequest) -> OperatorDecision:
    """Taps the Hotspot row (which does nothing) and claims the goal."""
    screen = request.screen
    assert screen is not None
    if request.turn == 1:
        row = screen.find("Hotspot")
        assert row is not None, "the adversary expects the Wi-Fi page"
        return OperatorDecision(decision="look at the page", actions=[Tap(element=row.index)])
    return _step(request, "finish")


switch_on_from_page = scripted("on", "finish")


def closes_the_crash(request: ScriptedRequest) -> OperatorDecision:
    """Taps the Wi-Fi row (Settings crashes), then closes the crash dialog and claims the goal in the same
    turn: the final screen is clean, the last step's pre-screen shows the dialog."""
    screen = request.screen
    assert screen is not None
    close = screen.find("Close app")
    if close is None and screen.find("Wi") is None:  # sent back after closing it: claims the goal again
        return _step(request, "finish")
    if close is None:
        return _step(request, "open")
    return OperatorDecision(decision="close it", plan=mark_done(request.plan),
                            actions=[Tap(element=close.index), Finish(summary="done")])


def final_label(request: ScriptedRequest) -> CheckReport:
    """Passes everything citing the first labelled element of the final screen."""
    final = request.screens[-1] if request.screens else None
    if final is None or final.screen != "final":
        return CheckReport()
    shown = next(e for e in final.view.elements if e.label)
    return _pass_all(request, CitationClaim(screen="final", element=shown.index, quote=shown.label),
                     f"the final screen shows {shown.label!r}", goal=False)


def final_on_quote(request: ScriptedRequest) -> CheckReport:
    """At the final check: passes every item quoting "ON" on the final screen (the Wi-Fi switch's text),
    whether or not the switch read ON before the agent acted; at a checkpoint, honest."""
    if request.entry != "final":
        return honest(request)
    return _pass_all(request, CitationClaim(screen="final", quote="ON"), "the Wi-Fi switch reads ON")


def same_quote(request: ScriptedRequest) -> CheckReport:
    """At the final check: passes the goal quoting "ON" on step 3's pre-screen (the Wi-Fi switch then),
    betting that some "ON" still shows on the final screen."""
    if request.entry != "final":
        return honest(request)
    return _pass_all(request, CitationClaim(step=3, screen="pre", quote="ON"), "the Wi-Fi switch read ON")
