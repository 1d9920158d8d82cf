"""Scripted operators and checkers for the fault matrix, imported by the pytester projects' test modules.

Operators read the screen they are given (like a model would); checkers decide from the evidence they
were handed (images, step summaries, the live screen when there is one), never from the test's name.
"""

from __future__ import annotations

import io
import re
from functools import cache

from pytest_artemis.agents.schemas import (
    CheckReport,
    CitationClaim,
    ModelVerdict,
    OperatorDecision,
    PlanReply,
)
from pytest_artemis.contracts import Finish, Tap, TypeText, Wait
from pytest_artemis.sim import SimPhone, SimServer
from pytest_artemis.testing import ScriptedRequest, citations_for

CLOCK = "com.google.android.deskclock"
SETTINGS = "com.android.settings"
ALARM_SUBGOAL = "Create a 7:30 AM alarm"
ALARM_PLAN = f"- [ ] {ALARM_SUBGOAL}\n"

SERVERS: list[SimServer] = []
"""Simulated servers started in this process while ``RecordingSimServer`` is patched in (newest last)."""


class RecordingSimServer(SimServer):
    """The plugin's SimServer, remembered on start so a test can reach the phone handle (faults, state)."""

    def start(self) -> SimServer:
        started = super().start()
        SERVERS.append(self)
        return started


def sim_phone(serial: str) -> SimPhone:
    """The phone behind ``serial`` on the newest recorded simulated server."""
    return SERVERS[-1].phone(serial)


def mark_done(plan: str, subgoal: str | None = None) -> str:
    """The plan with ``subgoal`` (or every open/reopened subgoal) ticked."""
    pattern = r"- \[[ /]\] " + (re.escape(subgoal) if subgoal else "")
    return re.sub(pattern, lambda m: m.group(0)[:2] + "[x]" + m.group(0)[5:], plan)


def cite(request: ScriptedRequest) -> CitationClaim | None:
    """A citation of something really on the newest citable screen (its first labelled element)."""
    for screen in reversed(request.screens):
        element = next((e for e in screen.view.elements if e.label), None)
        if element is not None:
            return CitationClaim(step=screen.step, screen=screen.screen, element=element.index,
                                 quote=element.label)
    return None


def showing(request: ScriptedRequest, item) -> list[CitationClaim]:
    """What shows each of the item's facts (an honest checker's citations); something recorded otherwise."""
    return citations_for(item, request.screens) or [c for c in [cite(request)] if c is not None]


def verdicts(request: ScriptedRequest, status: str, evidence: str) -> CheckReport:
    """The same verdict for every item the checker was asked about (the goal included); a pass cites what
    shows each of the item's facts (``showing``), anything else something really recorded (``cite``)."""
    return CheckReport(verdicts=[ModelVerdict(item=i.text, status=status, evidence=evidence,
                                              citations=showing(request, i) if status == "passed" else
                                              [c for c in [cite(request)] if c is not None])
                                 for i in request.checks])


# -- operators ---------------------------------------------------------------------------------------

def alarm_decision(request: ScriptedRequest, *, save: str = "OK") -> OperatorDecision:
    """Create a 7:30 AM alarm by reading the screen; ``save`` is the editor button that ends the entry.

    Turn order: open the editor, fill it and press ``save`` (marking the alarm subgoal done), three
    harmless taps on the title (a toast expires; every subgoal marked done), then ``finish``.
    """
    screen = request.screen
    assert screen is not None
    hour = screen.find(resource_id="material_hour_text_input")
    if hour is not None:
        minute, am, button = (screen.find(resource_id="material_minute_text_input"), screen.find("AM"),
                              screen.find(save))
        assert minute and am and button, "the scripted operator expects the time picker"
        actions = [TypeText(text="7", element=hour.index), TypeText(text="30", element=minute.index),
                   Tap(element=am.index), Tap(element=button.index)]
        return OperatorDecision(decision=f"enter 7:30 AM and press {save}", actions=actions,
                                plan=mark_done(request.plan, ALARM_SUBGOAL))
    listed = screen.find("7:30 AM")
    if listed is not None and any("three taps" in line for line in request.history):
        return OperatorDecision(decision="the alarm is listed", actions=[Finish(summary="alarm created")])
    if listed is not None:
        title = screen.find("Alarm")
        assert title is not None
        return OperatorDecision(decision="three taps on the title", actions=[Tap(element=title.index)] * 3,
                                plan=mark_done(request.plan))
    fab = screen.find(content_desc="Add alarm")
    assert fab is not None, "the scripted operator expects the Clock app"
    return OperatorDecision(decision="open the time entry", actions=[Tap(element=fab.index)])


def bluetooth_decision(request: ScriptedRequest) -> OperatorDecision:
    """Turn Bluetooth on in Settings by reading the screen, then finish."""
    screen = request.screen
    assert screen is not None
    switch = screen.find(resource_id="switch_widget")
    if switch is not None and screen.find("Use Bluetooth") is not None:
        if switch.text == "ON":
            return OperatorDecision(decision="Bluetooth is on", actions=[Finish(summary="done")])
        return OperatorDecision(decision="flip the Bluetooth switch", actions=[Tap(element=switch.index)],
                                plan=mark_done(request.plan))
    row = screen.find("Bluetooth")
    assert row is not None, "the scripted operator expects the Settings main page"
    return OperatorDecision(decision="open Bluetooth settings", actions=[Tap(element=row.index)])


def bluetooth_respond(request: ScriptedRequest, device: object) -> object:
    """Every role of a test that turns Bluetooth on: a one-line plan, ``bluetooth_decision``, passes that
    cite the step 2 post-screen."""
    if request.role == "planner":
        return PlanReply(plan="- [ ] Turn on Bluetooth\n")
    if request.role == "operator":
        return bluetooth_decision(request)
    return verdicts(request, "passed", "the step 2 post screenshot shows the switch reading ON")


def idle_decision(request: ScriptedRequest, note: str = "waiting") -> OperatorDecision:
    return OperatorDecision(decision=note, actions=[Wait(ms=10)])


# -- checkers ----------------------------------------------------------------------------------------

@cache
def load_ocr() -> object:
    from rapidocr import RapidOCR  # heavy: loaded on the first OCR only

    return RapidOCR(params={"Global.log_level": "critical"})


def ocr_lines(jpeg: bytes, *, bottom: float = 1.0) -> list[str]:
    """Text lines rapidocr reads on one image (only its lowest ``bottom`` fraction, when given)."""
    import numpy as np
    from PIL import Image

    with Image.open(io.BytesIO(jpeg)) as img:
        rgb = img.convert("RGB")
    rgb = rgb.crop((0, int(rgb.height * (1 - bottom)), rgb.width, rgb.height))
    array = np.asarray(rgb)
    result = load_ocr()(array)  # type: ignore[operator]
    return [str(t) for t in (result.txts or ())]


def attached_captions(request: ScriptedRequest) -> list[str]:
    """Names of the screenshots attached to a checkpoint request, from the harness's caption."""
    text = request.messages[-1].text
    found = re.search(r"Attached screenshots, in order: ([^.]*)\.", text)
    return [c.strip() for c in found.group(1).split(",")] if found else []


def ocr_toast_checker(request: ScriptedRequest) -> CheckReport:
    """Judge "a confirmation toast appears" by OCR of exactly the screenshots the harness attached.

    Newest first, and only the lower third of each, where Android shows toasts (OCR is slow).
    """
    if not request.checks:
        return CheckReport()
    images = [image for message in request.messages for image in message.images]
    captions = attached_captions(request) or [f"image {n}" for n in range(1, len(images) + 1)]
    seen: list[str] = []
    for caption, image in reversed(list(zip(captions, images, strict=False))):
        lines = ocr_lines(image.data, bottom=0.35)
        toast = next((line for line in lines if "alarm set for" in line.casefold()), None)
        if toast is not None:
            return _toast_seen(request, f"OCR of the {caption} screenshot reads the toast {toast!r}")
        seen.append(f"{caption}: {' | '.join(lines[:6])}")
    if not images:
        return verdicts(request, "inconclusive", "no screenshot was attached to judge the toast from")
    return verdicts(request, "failed", "no 'Alarm set for' toast text in the OCR of the attached "
                                       f"screenshots ({'; '.join(seen)})")


def _toast_seen(request: ScriptedRequest, evidence: str) -> CheckReport:
    """A pass citing the toast where the harness recorded it: the OCR element of the newest screen that
    reads it (with OCR off, no recorded element shows a toast, and the citation falls back to ``cite``)."""
    claim = next((CitationClaim(step=screen.step, screen=screen.screen, element=e.index, quote=e.label)
                  for screen in reversed(request.screens) for e in screen.view.elements
                  if e.source == "ocr" and "alarm set for" in e.label.casefold()), cite(request))
    citations = [claim] if claim is not None else []
    return CheckReport(verdicts=[ModelVerdict(item=i.text, status="passed", evidence=evidence,
                                              citations=citations) for i in request.checks])


def crash_dialog_checker(request: ScriptedRequest) -> CheckReport:
    """Judge "no crash dialog" from the final screen it was given (its element listing)."""
    screen = request.screen
    if not request.checks:
        return CheckReport()
    if screen is None:
        return verdicts(request, "inconclusive", "no final screen was given to look for a dialog")
    dialog = screen.find("keeps stopping")
    if dialog is not None:
        return verdicts(request, "failed", f"the final screen shows element [{dialog.index}] {dialog.text!r}")
    return verdicts(request, "passed", f"none of the {len(screen.elements)} final-screen elements "
                                       "mentions 'keeps stopping'")


def live_screen_only_checker(request: ScriptedRequest) -> CheckReport:
    """A checker that would pass Bluetooth from a live screen, and honestly says what it lacks otherwise."""
    if not request.checks:
        return CheckReport()
    screen = request.screen
    if screen is not None:
        switch = screen.find(resource_id="switch_widget")
        if switch is not None and switch.text == "ON":
            return verdicts(request, "passed", f"live screen: switch [{switch.index}] reads ON")
    mentions = [line for line in request.history if "switch" in line.casefold()]
    if mentions:
        return verdicts(request, "passed", f"the recorded step says: {mentions[0]}")
    shown = ", ".join(attached_captions(request)) or "no screenshots"
    return verdicts(request, "inconclusive", f"the anchored evidence ({shown}; {len(request.history)} step "
                                             "summaries) never shows the Bluetooth page or its switch")
