"""A scripted demo agent for the examples: it reads the screen each turn, like a (very small) real model.

Nothing here knows the answers. The planner turns a goal into a plan from a few recipes (alarms,
settings switches, brightness, contacts); the operator reads ``request.screen`` every turn — the
elements the harness perceived — and decides the next action: open the app from the launcher, tap
elements by index, type into fields, mark subgoals done in the plan, and ``Finish`` when it believes
it is done. The checker (``demo_checker``) judges model-judged items only from the screenshots it is
given. ``demo_models()`` bundles the three roles as a ``ModelSet``.

This is a stand-in for a real model so ``pytest examples/ --artemis-device=sim`` runs offline; it is
deliberately naive (see the over-confident ``Finish`` in ``_settings_turn``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from demo_checker import check

from pytest_artemis import ModelSet, ScreenView, UIElement
from pytest_artemis.testing import (
    Action,
    Finish,
    Key,
    OperatorDecision,
    PlanReply,
    ScriptedModel,
    ScriptedRequest,
    Tap,
    TypeText,
)

LAUNCHER = "com.google.android.apps.nexuslauncher"


@dataclass(frozen=True)
class Task:
    """What a goal asks for, as far as the demo's recipes understand it."""

    family: str  # "alarm" | "switch" | "brightness" | "contact"
    app: str  # the launcher label of the app
    package: str
    target: str  # alarm time "7:30 AM", a switch label, "minimum"/"maximum", a contact name
    want_on: bool = True
    phone: str = ""

    @property
    def open_subgoal(self) -> str:
        return f"Open the {self.app} app"

    @property
    def act_subgoal(self) -> str:
        return {
            "alarm": f"Create a {self.target} alarm",
            "switch": f"Turn {'on' if self.want_on else 'off'} {self.target}",
            "brightness": f"Set the brightness to the {self.target}",
            "contact": f"Save the contact {self.target} with phone {self.phone}",
        }[self.family]


def _dash(text: str) -> str:
    """Android labels use non-breaking hyphens (``Wi‑Fi``); compare them as plain ``-``."""
    return text.replace("\u2011", "-").replace("\u2010", "-")


def parse_goal(goal: str) -> Task | None:
    """The goal as a Task, or None when no recipe covers it."""
    text = _dash(goal)
    if m := re.search(r"alarm for (\d{1,2}):(\d{2})\s*([AP]M)", text, re.IGNORECASE):
        time = f"{int(m.group(1))}:{m.group(2)} {m.group(3).upper()}"
        return Task("alarm", "Clock", "com.google.android.deskclock", time)
    if m := re.search(r"brightness to the (minimum|maximum)", text, re.IGNORECASE):
        return Task("brightness", "Settings", "com.android.settings", m.group(1).lower())
    if m := re.search(r"turn (on|off) (.+?) in settings", text, re.IGNORECASE):
        return Task("switch", "Settings", "com.android.settings", m.group(2).strip(" '\""),
                    want_on=m.group(1).lower() == "on")
    if m := re.search(r"contact named (.+?) with phone ([\d+\-() ]+\d)", text, re.IGNORECASE):
        return Task("contact", "Contacts", "com.android.contacts", m.group(1).strip(), phone=m.group(2))
    return None


def plan_for(goal: str) -> str:
    """The planner's recipe: open the app, then do the one thing the goal asks."""
    task = parse_goal(goal)
    if task is None:
        return f"- [ ] {goal}\n"
    return f"- [ ] {task.open_subgoal}\n- [ ] {task.act_subgoal}\n"


def mark_done(plan: str, subgoal: str) -> str:
    """``plan`` with the subgoal line ticked (open ``[ ]`` or reopened ``[/]``)."""
    return re.sub(rf"^- \[[ /]\] {re.escape(subgoal)}$", f"- [x] {subgoal}", plan, flags=re.MULTILINE)


def is_done(plan: str, subgoal: str) -> bool:
    return f"- [x] {subgoal}" in plan.splitlines()


def _decide(decision: str, *actions: Action, plan: str | None = None) -> OperatorDecision:
    return OperatorDecision(decision=decision, actions=list(actions), plan=plan)


def operate(request: ScriptedRequest) -> OperatorDecision:
    """One operator turn: look at the screen, pick the next action."""
    screen = request.screen
    task = parse_goal(request.goal)
    if task is None or screen is None:
        return _decide("no recipe for this goal", Finish(summary="I do not know how to do this"))
    if screen.foreground != task.package:
        return _open_app(screen, task)
    plan = mark_done(request.plan, task.open_subgoal)
    turn = {"alarm": _alarm_turn, "switch": _settings_turn, "brightness": _settings_turn,
            "contact": _contact_turn}[task.family]
    return turn(screen, task, plan)


def _open_app(screen: ScreenView, task: Task) -> OperatorDecision:
    """From the home screen, tap the app's icon; from anywhere else, go home first."""
    icon = screen.find(content_desc=task.app) if screen.foreground == LAUNCHER else None
    if icon is not None and icon.label == task.app:
        return _decide(f"tap the {task.app} icon on the home screen", Tap(element=icon.index))
    return _decide("go to the home screen to find the app", Key(key="HOME"))


def _alarm_turn(screen: ScreenView, task: Task, plan: str) -> OperatorDecision:
    hour = screen.find(resource_id="material_hour_text_input")
    if hour is not None:
        minute = screen.find(resource_id="material_minute_text_input")
        half = screen.find(resource_id=f"material_clock_period_{task.target[-2:].lower()}_button")
        ok = screen.find(resource_id="button1")
        if minute is None or half is None or ok is None:
            return _decide("the time entry is incomplete; go back", Key(key="BACK"), plan=plan)
        hh, mm = task.target[:-3].split(":")
        return _decide(f"enter {task.target} and save",
                       TypeText(text=hh, element=hour.index), TypeText(text=mm, element=minute.index),
                       Tap(element=half.index), Tap(element=ok.index), plan=mark_done(plan, task.act_subgoal))
    listed = any(e.text == task.target for e in screen.elements)
    if listed and is_done(plan, task.act_subgoal):
        return _decide(f"the list shows {task.target}", Finish(summary=f"{task.target} alarm created"))
    fab = screen.find(content_desc="Add alarm")
    if fab is None:
        return _decide("no alarm list here; go back", Key(key="BACK"), plan=plan)
    return _decide("open the time entry", Tap(element=fab.index), plan=plan)


def _switch_of(screen: ScreenView, title: UIElement) -> UIElement | None:
    """The Switch on the same row as ``title``."""
    return next((e for e in screen.elements if e.checkable and e.class_name.endswith("Switch")
                 and e.bounds.top < title.bounds.bottom and e.bounds.bottom > title.bounds.top), None)


def _mentions(screen: ScreenView, words: str) -> UIElement | None:
    """A title or summary on screen that mentions ``words``."""
    needle = _dash(words).casefold()
    return next((e for e in screen.elements if e.resource_id in ("android:id/title", "android:id/summary")
                 and needle in _dash(e.text).casefold()), None)


def _settings_turn(screen: ScreenView, task: Task, plan: str) -> OperatorDecision:
    if task.family == "brightness":
        slider = next((e for e in screen.elements if e.class_name.endswith("SeekBar")), None)
        if slider is not None:
            return _slide(slider, task, plan)
    else:
        title = next((e for e in screen.elements if e.resource_id == "android:id/title"
                      and _dash(e.text).casefold() == _dash(task.target).casefold()), None)
        switch = _switch_of(screen, title) if title is not None else None
        if switch is not None:
            return _flip(switch, task, plan)
    where = _mentions(screen, "brightness" if task.family == "brightness" else task.target)
    if where is not None:
        return _decide(f"open the page that mentions {task.target!r}", Tap(element=where.index), plan=plan)
    up = screen.find(content_desc="Navigate up")
    if up is not None:
        return _decide(f"{task.target!r} is not on this page; go up", Tap(element=up.index), plan=plan)
    # DEMONSTRATION of an over-confident agent: nothing on screen mentions the target, and it claims
    # success anyway. The probe-backed verify item is what catches this (the agent's word is a claim).
    return _decide(f"no {task.target!r} anywhere; reporting it done anyway",
                   Finish(summary=f"{task.target} is turned {'on' if task.want_on else 'off'}"),
                   plan=mark_done(plan, task.act_subgoal))


def _flip(switch: UIElement, task: Task, plan: str) -> OperatorDecision:
    if switch.checked == task.want_on:
        state = "on" if switch.checked else "off"
        return _decide(f"the {task.target} switch shows {state}",
                       Finish(summary=f"{task.target} is {state}"), plan=mark_done(plan, task.act_subgoal))
    return _decide(f"flip the {task.target} switch", Tap(element=switch.index), plan=plan)


def _slide(slider: UIElement, task: Task, plan: str) -> OperatorDecision:
    wanted = "0" if task.target == "minimum" else "255"
    if slider.text == wanted:
        return _decide(f"the brightness slider reads {wanted}",
                       Finish(summary=f"brightness at {task.target}"), plan=mark_done(plan, task.act_subgoal))
    b = slider.bounds
    x = b.left + 1 if task.target == "minimum" else b.right - 2
    return _decide(f"drag the brightness to the {task.target} end", Tap(x=x, y=(b.top + b.bottom) // 2),
                   plan=plan)


def _contact_turn(screen: ScreenView, task: Task, plan: str) -> OperatorDecision:
    first = screen.find(resource_id="first_name")
    if first is not None:
        last, phone = screen.find(resource_id="last_name"), screen.find(resource_id="phone_number")
        save = screen.find(resource_id="editor_menu_save_button")
        if last is None or phone is None or save is None:
            return _decide("the editor is incomplete; go back", Key(key="BACK"), plan=plan)
        given, _, family = task.target.partition(" ")
        return _decide(f"fill in {task.target}, {task.phone} and save",
                       TypeText(text=given, element=first.index), TypeText(text=family, element=last.index),
                       TypeText(text=task.phone, element=phone.index), Tap(element=save.index),
                       plan=mark_done(plan, task.act_subgoal))
    title = screen.find(resource_id="large_title")
    if title is not None and title.text == task.target and is_done(plan, task.act_subgoal):
        return _decide(f"the contact page shows {task.target}", Finish(summary=f"{task.target} saved"))
    create = screen.find(content_desc="Create contact")
    if create is not None:
        return _decide("open the Create contact form", Tap(element=create.index), plan=plan)
    up = screen.find(content_desc="Navigate up")
    if up is not None:
        return _decide("back to the contact list", Tap(element=up.index), plan=plan)
    return _decide("no contact list here; go back", Key(key="BACK"), plan=plan)


def respond(request: ScriptedRequest) -> object:
    """The demo model's answer for any role."""
    if request.role == "planner":
        return PlanReply(plan=plan_for(request.goal))
    if request.role == "operator":
        return operate(request)
    return check(request)


def demo_models() -> ModelSet:
    """The scripted demo model for every role (zero tokens, zero cost, no network)."""
    return ModelSet.uniform(ScriptedModel(respond, name="demo-scripted"))
