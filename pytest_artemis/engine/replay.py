"""Replay: the first plan and each operator decision come from a recording while the screen matches it.

Only decisions are replayed. Every replayed action runs on the device; probes run again; checkpoints,
the final check and the goal verdict are judged afresh from this run's own evidence. At the first turn
that does not match (another screen, another plan or findings, a recording that ends), the live model
decides from then on and the new path is recorded — or, in ``only`` mode, the run ends with
``ReplayMismatch`` before any operator model call.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from pytest_artemis.agents.schemas import OperatorDecision
from pytest_artemis.contracts import (
    Action,
    LongPress,
    RunOutcome,
    ScreenView,
    Tap,
    TaskSpec,
    TypeText,
    UsageError,
)
from pytest_artemis.device.perception import Screen
from pytest_artemis.device.signature import element_fingerprint, screen_signature
from pytest_artemis.plan import PlanSyntaxError, parse_plan
from pytest_artemis.store.recording import Loaded, RecordedTurn, Recording, RecordingStore
from pytest_artemis.store.redact import Redactor

if TYPE_CHECKING:
    from .state import RunProgress, RunServices

ReplayMode = Literal["auto", "only", "record"]
ReplayStatus = Literal["replayed", "fell-back", "stopped", "live"]


class ReplayMismatch(UsageError):
    """``only`` mode needed the model (no usable recording, or a turn that does not match it)."""


def plan_key(spec: TaskSpec, checks_enabled: bool) -> str:
    """A hash of what the planner is given: goal, app, the declared checks, whether checks are on."""
    data = [spec.goal, spec.app, checks_enabled, [i.model_dump(mode="json") for i in spec.checks]]
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode("utf-8")).hexdigest()[:32]


def situation(turn_kind: str, plan_text: str, finding_keys: Iterable[str]) -> str:
    """A hash of the operator's inputs besides the screen and the step history: the turn kind, the plan
    and which items have an open finding (their keys: a checker's wording may vary between runs)."""
    data = [turn_kind, plan_text, sorted(finding_keys)]
    return hashlib.sha256(json.dumps(data).encode("utf-8")).hexdigest()[:32]


def _target(action: Action) -> int | None:
    """The element index an action aims at, if any."""
    if isinstance(action, Tap | LongPress | TypeText):
        return action.element
    return None


def _remap(turn: RecordedTurn, view: ScreenView) -> tuple[tuple[Action, ...] | None, str]:
    """The recorded actions aimed at the same elements on this screen (found by fingerprint)."""
    actions: list[Action] = []
    for number, (action, target) in enumerate(zip(turn.actions, turn.targets, strict=True), start=1):
        if target is None:
            actions.append(action)
            continue
        found = [e for e in view.elements if element_fingerprint(e) == target]
        if len(found) != 1:
            return None, f"the element recorded action {number} aimed at is not on the screen once"
        actions.append(action.model_copy(update={"element": found[0].index}))
    return tuple(actions), ""


@dataclass
class Replay:
    """The replay of one run: what it follows, what it records, and what happened (for the report)."""

    mode: ReplayMode
    store: RecordingStore
    node_id: str
    goal: str
    redactor: Redactor
    loaded: Loaded
    notes: list[str] = field(default_factory=list)
    replayed: int = 0
    live: int = 0
    plan_replayed: bool = False
    diverged: str = ""
    written: str = ""
    _following: Recording | None = None
    _plan_key: str = ""
    _plan_text: str | None = None
    _turns: list[RecordedTurn] = field(default_factory=list)
    _truncated: str = ""
    _journaled: bool = False

    @classmethod
    def open(cls, mode: ReplayMode, store: RecordingStore, node_id: str, goal: str,
             redactor: Redactor) -> Replay:
        """Load the recording of ``node_id`` for ``goal`` (not followed in ``record`` mode)."""
        loaded = store.load(node_id, goal)
        replay = cls(mode, store, node_id, goal, redactor, loaded)
        if loaded.problem:
            replay.notes.append(f"stale: {loaded.problem}")
        elif loaded.recording is None:
            others = store.other_goals(node_id, goal)
            replay.notes.extend(f"stale: {path.name} records this test under another goal ({other!r}); "
                                "it is not used" for path, other in others)
        if mode != "record":
            replay._following = loaded.recording
        return replay

    # -- the planner ---------------------------------------------------------------------------------

    async def plan(self, svc: RunServices, ask: Callable[[], Awaitable[str]]) -> str:
        """The recorded plan when it was made for this goal and these checks; else the planner's."""
        self._journal_loaded(svc)
        self._plan_key = plan_key(svc.spec, svc.config.checks_enabled)
        following = self._following
        if following is not None and following.plan_key != self._plan_key:
            self._diverge(svc, 0, "stale: the declared checks, app or check settings changed since "
                                  "the recording")
        elif following is not None:
            self.plan_replayed = True
            self._plan_text = following.plan
            svc.journal.append_event("replay_plan", replayed=True)
            return following.plan
        self._need_model("the plan")
        text = await ask()
        try:
            parse_plan(text)
        except PlanSyntaxError:
            return text
        self._plan_text = text
        return text

    # -- the operator --------------------------------------------------------------------------------

    async def decide(
        self, svc: RunServices, run: RunProgress, number: int, screen: Screen,
        live: Callable[[], Awaitable[OperatorDecision | None]],
    ) -> tuple[OperatorDecision | None, bool]:
        """This turn's decision and whether it was replayed. ``live`` asks the operator model."""
        signature = screen_signature(screen.hierarchy_xml)
        where = situation(run.turn_kind, run.plan_text, (k.token for k in run.findings))
        if self._following is not None:
            recorded, problem = self._match(self._following, number, signature, where, screen.view)
            if recorded is not None:
                self.replayed += 1
                self._note(number, signature, where, recorded, screen.view)
                return recorded, True
            self._diverge(svc, number, problem)
        self._need_model(f"turn {number}")
        decision = await live()
        self.live += 1
        if decision is not None:
            self._note(number, signature, where, decision, screen.view)
        return decision, False

    def _match(
        self, recording: Recording, number: int, signature: str, where: str, view: ScreenView
    ) -> tuple[OperatorDecision | None, str]:
        turn = next((t for t in recording.turns if t.turn == number), None)
        if turn is None:
            ended = f" ({recording.truncated})" if recording.truncated else ""
            return None, f"the recording has no decision for turn {number}{ended}"
        if turn.signature != signature:
            return None, f"the screen differs from the recorded one ({signature} vs {turn.signature})"
        if turn.situation != where:
            return None, "the plan, the open findings or the turn kind differ from the recording"
        actions, problem = _remap(turn, view)
        if actions is None:
            return None, problem
        return OperatorDecision(decision=turn.decision, actions=list(actions), plan=turn.plan), ""

    def _note(self, number: int, signature: str, where: str, decision: OperatorDecision,
              view: ScreenView) -> None:
        """Record this turn's decision (recording stops for good at a decision carrying a secret)."""
        if self._truncated:
            return
        by_index = {e.index: e for e in view.elements}
        targets = []
        for action in decision.actions:
            index = _target(action)
            element = by_index.get(index) if index is not None else None
            targets.append(element_fingerprint(element) if element is not None else None)
        turn = RecordedTurn(turn=number, signature=signature, situation=where, decision=decision.decision,
                            actions=tuple(decision.actions), targets=tuple(targets), plan=decision.plan)
        if self._carries_secret(turn.model_dump_json()):
            self._truncated = f"turn {number}'s decision carries a secret and was not recorded"
            return
        self._turns.append(turn)

    # -- mismatch and outcome ------------------------------------------------------------------------

    def _diverge(self, svc: RunServices, number: int, reason: str) -> None:
        """Stop following the recording; the live model decides from here on."""
        self._following = None
        where = "the plan" if number == 0 else f"turn {number}"
        self.diverged = f"{where}: {reason}"
        svc.journal.append_event("replay_mismatch", turn=number, reason=reason, mode=self.mode)

    def _need_model(self, what: str) -> None:
        """In ``only`` mode, refuse to call the model: the run ends as a usage error."""
        if self.mode != "only":
            return
        why = self.diverged or f"{what}: no usable recording of this test for this goal in {self.store.root}"
        if not self.diverged and self.loaded.problem:
            why += f" ({self.loaded.problem})"
        raise ReplayMismatch(
            f"replay mismatch (--artemis-replay=only) at {why}. The operator model was not called. "
            "Refresh the recording with --artemis-replay=auto (or =record) and commit it.")

    def _journal_loaded(self, svc: RunServices) -> None:
        if self._journaled:
            return
        self._journaled = True
        recording = self.loaded.recording
        svc.journal.append_event("replay_loaded", mode=self.mode, file=self.loaded.path.name,
                                 turns=len(recording.turns) if recording else 0, notes=list(self.notes))

    def _carries_secret(self, text: str) -> bool:
        return self.redactor.redact(text) != text

    def finish(self, outcome: RunOutcome) -> str:
        """Write the run's path (``auto``/``record``, a run that finished, whatever its verdicts: they are
        judged again on every replay) and return the one-line summary of the replay."""
        if self.mode != "only" and self._plan_text is not None:
            self.written = self._write(outcome, self._plan_text)
        return self.summary()

    def _write(self, outcome: RunOutcome, plan: str) -> str:
        if outcome.execution != "finished":  # a crash or an interrupt keeps the previous path
            return f"not recorded: the run {outcome.execution}"
        if any(self._carries_secret(text) for text in (self.node_id, self.goal, plan)):
            return "not recorded: the goal, node id or plan carries a secret"
        recording = Recording(node_id=self.node_id, goal=self.goal, plan_key=self._plan_key, plan=plan,
                              turns=tuple(self._turns), truncated=self._truncated)
        previous = self.loaded.recording
        if previous is not None and previous.same_path(recording):
            return "recording unchanged"
        try:
            path = self.store.save(recording)
        except OSError as exc:  # the run's verdicts stand; only the recording is missing
            return f"not recorded: cannot write {self.loaded.path}: {exc}"
        return f"recorded {len(recording.turns)} turns to {path}"

    @property
    def status(self) -> ReplayStatus:
        """``replayed`` (plan and every turn), ``fell-back`` (live from a mismatch on), ``stopped``
        (``only`` met a mismatch), ``live`` (nothing to follow: no usable recording, or ``record``)."""
        if self.diverged:
            return "stopped" if self.mode == "only" else "fell-back"
        if self.plan_replayed and self.live == 0:
            return "replayed"
        return "live"

    @property
    def stale(self) -> bool:
        """Whether a stale recording was met (reported in the summary, never used)."""
        return bool(self.notes) or "stale:" in self.diverged

    def summary(self) -> str:
        """What replay did in this run, in one line (the report, JUnit and ``-v`` show it)."""
        plan = "plan replayed" if self.plan_replayed else "plan from the planner"
        parts = [f"replay {self.mode}: {self.replayed} turns replayed, {self.live} live, {plan}"]
        if self.diverged:
            parts.append(("stopped at " if self.mode == "only" else "live model from ") + self.diverged)
        parts.extend(self.notes)
        if self._truncated:
            parts.append(self._truncated)
        if self.written:
            parts.append(self.written)
        return "; ".join(parts)
