"""A realistic run journal for report tests: drawn phone screens, steps, plans, verdicts, model calls."""

from __future__ import annotations

import io
from functools import cache
from html.parser import HTMLParser
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from pytest_artemis.contracts import (
    ActionResult,
    CheckItem,
    CheckVerdict,
    Finish,
    ItemSummary,
    Launch,
    ModelCallRecord,
    ProbeCheck,
    ProbeSpec,
    RunOutcome,
    StepRecord,
    Swipe,
    Tap,
    TaskResult,
    TestTally,
    TypeText,
    Usage,
)
from pytest_artemis.store import Redactor, RunHeader, RunJournal

W, H = 1080, 2400
T0 = 1_767_000_000.0
CLOCK = "com.google.android.deskclock"
SCRIPT = "<script>document.title='pwned'</script>"
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.truetype(FONT, size) if Path(FONT).exists() else ImageFont.load_default(size=size)


def draw_screen(
    title: str,
    rows: list[str],
    *,
    fab: bool = False,
    toast: str = "",
    field: str | None = None,
    button: str = "",
) -> bytes:
    """A plain phone screen PNG (status bar, app bar, list rows, optional FAB/field/button/toast)."""
    img = Image.new("RGB", (W, H), "#FFFFFF")
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, W, 90), fill="#F1F3F4")
    d.text((40, 20), "9:41", fill="#1F1F1F", font=_font(44))
    d.rectangle((0, 90, W, 290), fill="#E8F0FE")
    d.text((60, 150), title, fill="#041E49", font=_font(68))
    for n, row in enumerate(rows):
        y = 340 + n * 200
        d.text((60, y + 40), row, fill="#1F1F1F", font=_font(64 if ":" in row else 48))
        d.line((40, y + 180, W - 40, y + 180), fill="#DADCE0", width=3)
    if field is not None:
        d.rounded_rectangle((100, 700, 980, 860), radius=20, outline="#0B57D0", width=6)
        d.text((140, 735), field or "hh:mm", fill="#1F1F1F" if field else "#9AA0A6", font=_font(72))
    if button:
        d.rounded_rectangle((660, 1440, 980, 1560), radius=60, fill="#0B57D0")
        d.text((740, 1465), button, fill="#FFFFFF", font=_font(54))
    if fab:
        d.ellipse((820, 2020, 1000, 2200), fill="#D3E3FD")
        d.text((878, 2030), "+", fill="#041E49", font=_font(130))
    if toast:
        d.rounded_rectangle((160, 2220, 920, 2330), radius=55, fill="#303030")
        d.text((210, 2245), toast, fill="#FFFFFF", font=_font(48))
    out = io.BytesIO()
    img.save(out, format="PNG")
    return out.getvalue()


@cache  # drawing six full-size screens once per session keeps the tests fast
def _screens() -> dict[str, bytes]:
    return {
        "home": draw_screen("Home", ["Clock", "Settings", "Contacts"]),
        "empty": draw_screen("Alarms", ["No alarms yet"], fab=True),
        "picker": draw_screen("New alarm", [], field="", button="Save"),
        "filled": draw_screen("New alarm", [], field="7:30 AM", button="Save"),
        "saved": draw_screen("Alarms", ["7:30 AM  ●"], fab=True, toast="Alarm set for 7:30 AM"),
        "list": draw_screen("Alarms", ["7:30 AM  ●"], fab=True),
    }


CHECKS = (
    CheckItem(
        kind="verify",
        text="The alarm list shows 7:30 AM and its switch is on",
        probe=ProbeCheck(probe=ProbeSpec(kind="alarms"), name="alarm_set", args={"time": "07:30"}),
    ),
    CheckItem(kind="assert", text="A confirmation toast appears right after saving"),
    CheckItem(kind="assert", text="No 'app has stopped' dialog appears at any time", when="end"),
    CheckItem(kind="verify", text="The alarm is labelled 'Wake up'", when="end"),
)

PLANS = (
    "- [ ] Open the Clock app and create a 7:30 AM alarm\n"
    "  - verify: The alarm list shows 7:30 AM and its switch is on\n"
    "  - assert: A confirmation toast appears right after saving\n"
    "- assert@end: No 'app has stopped' dialog appears at any time\n",
    "- [x] Open the Clock app and create a 7:30 AM alarm\n"
    "  - verify: The alarm list shows 7:30 AM and its switch is on\n"
    "  - assert: A confirmation toast appears right after saving\n"
    "- assert@end: No 'app has stopped' dialog appears at any time\n",
)


def _steps(shots: dict[str, str]) -> list[StepRecord]:
    launch, fab = Launch(package=CLOCK), Tap(x=910, y=2110)
    typed, save = TypeText(text="7:30 AM", element=4), Tap(element=7)
    swipe, finish = Swipe(x1=540, y1=1800, x2=540, y2=900), Finish(summary="Alarm created for 7:30 AM")
    spec = [  # (pre, post, decision, actions, results, plan, extra)
        ("home", "empty", "Open the Clock app", (launch,), (ActionResult(action=launch, ok=True),), 1, {}),
        (
            "empty",
            "picker",
            "Tap the add-alarm button",
            (fab,),
            (ActionResult(action=fab, ok=True, detail="tap 910,2110 on 'Add alarm'"),),
            1,
            {},
        ),
        (
            "picker",
            "filled",
            f"Type the time {SCRIPT}",
            (typed,),
            (ActionResult(action=typed, ok=True, detail="tap 540,780 on 'Time'; typed 7 chars"),),
            1,
            {},
        ),
        (
            "filled",
            "saved",
            "Save the alarm",
            (save,),
            (ActionResult(action=save, ok=True, detail="tap 820,1500 on 'Save'"),),
            2,
            {"completed": ("3f2a9c1d0b7e",)},
        ),
        (
            "saved",
            "list",
            "Check the list, then finish",
            (swipe, finish),
            (ActionResult(action=swipe, ok=True), ActionResult(action=finish, ok=True)),
            2,
            {"flags": ("finish_claimed",)},
        ),
    ]
    return [
        StepRecord(
            step=n,
            pre_screen=shots[pre],
            post_screen=shots[post],
            foreground=CLOCK,
            decision=dec,
            actions=acts,
            results=res,
            plan_version=plan,
            started_at=T0 + 10 * n,
            finished_at=T0 + 10 * n + 4.2,
            **extra,
        )
        for n, (pre, post, dec, acts, res, plan, extra) in enumerate(spec, start=1)
    ]


def _verdict(item: CheckItem, status: str, evidence: str, attempt: str, **kw: object) -> CheckVerdict:
    checkpoint = attempt.split("#")[0]
    return CheckVerdict(
        item_key=item.key,
        item_text=item.text,
        kind=item.kind,
        when=item.when,
        status=status,
        evidence=evidence,
        attempt_id=attempt,
        checkpoint_id=checkpoint,
        started_at=T0 + 45,
        finished_at=T0 + 48,
        **kw,
    )


VERDICTS = (
    _verdict(
        CHECKS[1],
        "superseded",
        "(cancelled)",
        "cp-1#1",
        source="model",
        anchor_step=4,
        reason="subgoal re-completed",
    ),
    _verdict(
        CHECKS[0],
        "passed",
        'probe alarms → [{"hour": 7, "minute": 30, "enabled": true}]',
        "cp-2#1",
        source="probe",
        anchor_step=4,
    ),
    _verdict(
        CHECKS[1],
        "passed",
        "Step 4 post screenshot shows toast 'Alarm set for 7:30 AM'",
        "cp-2#1",
        source="model",
        anchor_step=4,
    ),
    _verdict(
        CHECKS[2],
        "passed",
        f"final screen text: Alarms, 7:30 AM {SCRIPT}",
        "final#1",
        source="model",
        anchor_step=5,
    ),
    _verdict(
        CHECKS[3],
        "inconclusive",
        "no label is visible on the final screen",
        "final#1",
        source="model",
        anchor_step=5,
        reason="evidence missing",
    ),
)


def _calls(run_id: str) -> list[ModelCallRecord]:
    roles = [("planner", "openai/gpt-4o", 0.0031)] * 2 + [("operator", "openai/gpt-4o-mini", 0.0004)] * 5
    roles += [("checker", "local/llava", None)] * 3  # a local model with no known price
    return [
        ModelCallRecord(
            run_id=run_id,
            seq=n,
            role=role,
            model=model,
            status="ok",
            latency_ms=900.0,
            prompt_tokens=1800,
            completion_tokens=120,
            cost_usd=cost,
        )
        for n, (role, model, cost) in enumerate(roles, start=1)
    ]


def _outcome(run_id: str, calls: list[ModelCallRecord]) -> RunOutcome:
    usage = Usage()
    for call in calls:
        usage = usage.add(call)
    items = tuple(
        ItemSummary(text=v.item_text, kind=v.kind, when=v.when, status=v.status, evidence=v.evidence)
        for v in VERDICTS[1:]
    )
    return RunOutcome(
        run_id=run_id,
        execution="finished",
        task=TaskResult(status="completed"),
        tests=TestTally(passed=3, inconclusive=1, items=items),
        usage=usage,
        steps=5,
        stop_reason="the operator claimed the goal and the final check ran",
        device="emulator-5554",
        started_at=T0,
        finished_at=T0 + 60,
    )


def build_run(root: Path, run_id: str = "test_create_alarm", *, close: bool = True) -> Path:
    """Write a five-step alarm run (UNCHECKED: one item inconclusive) under ``root``; returns its dir."""
    header = RunHeader(
        run_id=run_id,
        goal="Create an alarm for 7:30 AM in the Clock app",
        test_id="examples/test_clock.py::test_create_alarm",
        app=CLOCK,
        device="emulator-5554",
        checks=CHECKS,
        models={"planner": "openai/gpt-4o", "operator": "openai/gpt-4o-mini", "checker": "local/llava"},
        started_at=T0,
    )
    journal = RunJournal.create(root, header, redactor=Redactor())
    shots = {name: journal.put_screen(png) for name, png in _screens().items()}
    for plan in PLANS:
        journal.write_plan(plan)
    calls = _calls(run_id)
    for step in _steps(shots):
        journal.append_step(step)
    for verdict in VERDICTS:
        journal.append_verdict(verdict)
    for call in calls:
        journal.append_model_call(call)
    journal.append_event("checkpoint_spawned", checkpoint="cp-2", anchor_step=4)
    if close:
        journal.close(_outcome(run_id, calls))
    return journal.dir


class Page(HTMLParser):
    """The parts of a rendered page the tests look at: elements by id/class, images, links, text."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str]]] = []
        self.texts: list[str] = []
        self.by_id: dict[str, dict[str, str]] = {}
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {k: v or "" for k, v in attrs}
        self.elements.append((tag, attributes))
        if "id" in attributes:
            self.by_id[attributes["id"]] = attributes

    def handle_data(self, data: str) -> None:
        self.texts.append(data)

    def all(self, tag: str, cls: str | None = None) -> list[dict[str, str]]:
        return [
            a for t, a in self.elements if t == tag and (cls is None or cls in a.get("class", "").split())
        ]

    @property
    def text(self) -> str:
        return "".join(self.texts)


def parse(path: Path) -> Page:
    return Page(path.read_text(encoding="utf-8"))
