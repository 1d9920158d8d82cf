"""Typed contracts at the bottom of the dependency graph: every layer may import them, they import
nothing else of ours.

The names below load on first use (PEP 562): ``from pytest_artemis.contracts import ProbeCheck`` imports
the module that defines it and what that module needs, not every contract (the action union alone is
most of the package's import time, and test modules import probe checks at collection)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .actions import (
        Action,
        ActionResult,
        Finish,
        GiveUp,
        Key,
        Launch,
        LongPress,
        PlainAction,
        Point,
        ResolvedElement,
        Scroll,
        Swipe,
        Tap,
        TypeSecret,
        TypeText,
        Wait,
    )
    from .checks import (
        CheckItem,
        CheckKind,
        CheckOrigin,
        CheckVerdict,
        CheckWhen,
        Citation,
        EvidenceScreen,
        EvidenceSource,
        ProbeResult,
        ScreenWhich,
        VerdictSource,
        VerdictStatus,
    )
    from .errors import ArtemisError, InfrastructureError, UsageError
    from .models import ROLES, CallStatus, ModelCallRecord, ModelTimeouts, Role, RoleUsage, Usage
    from .outcome import (
        OUTCOME_WORDS,
        Execution,
        InfraFailure,
        ItemSummary,
        OutcomeWord,
        RunOutcome,
        TaskResult,
        TaskStatus,
        TestTally,
        blocked_cause,
        outcome_word,
    )
    from .probe_check import ProbeCheck, ProbeParam, ProbeSpec
    from .screen import Bounds, ScreenView, UIElement
    from .steps import StepFlag, StepRecord, TurnKind
    from .task import TaskSpec

# Where each public name is defined.
_LAZY: dict[str, str] = {
    "Action": "actions",
    "ActionResult": "actions",
    "Finish": "actions",
    "GiveUp": "actions",
    "Key": "actions",
    "Launch": "actions",
    "LongPress": "actions",
    "Point": "actions",
    "ResolvedElement": "actions",
    "Scroll": "actions",
    "Swipe": "actions",
    "Tap": "actions",
    "TypeText": "actions",
    "TypeSecret": "actions",
    "PlainAction": "actions",
    "Wait": "actions",
    "CheckItem": "checks",
    "CheckKind": "checks",
    "CheckOrigin": "checks",
    "CheckVerdict": "checks",
    "CheckWhen": "checks",
    "Citation": "checks",
    "EvidenceScreen": "checks",
    "EvidenceSource": "checks",
    "ProbeResult": "checks",
    "ScreenWhich": "checks",
    "VerdictSource": "checks",
    "VerdictStatus": "checks",
    "ArtemisError": "errors",
    "InfrastructureError": "errors",
    "UsageError": "errors",
    "CallStatus": "models",
    "ModelCallRecord": "models",
    "ModelTimeouts": "models",
    "ROLES": "models",
    "Role": "models",
    "RoleUsage": "models",
    "Usage": "models",
    "Execution": "outcome",
    "InfraFailure": "outcome",
    "ItemSummary": "outcome",
    "OUTCOME_WORDS": "outcome",
    "OutcomeWord": "outcome",
    "RunOutcome": "outcome",
    "TaskResult": "outcome",
    "TaskStatus": "outcome",
    "TestTally": "outcome",
    "blocked_cause": "outcome",
    "outcome_word": "outcome",
    "ProbeCheck": "probe_check",
    "ProbeParam": "probe_check",
    "ProbeSpec": "probe_check",
    "Bounds": "screen",
    "ScreenView": "screen",
    "UIElement": "screen",
    "StepFlag": "steps",
    "StepRecord": "steps",
    "TurnKind": "steps",
    "TaskSpec": "task",
}

__all__ = [
    "Action",
    "ActionResult",
    "ArtemisError",
    "Bounds",
    "CallStatus",
    "CheckItem",
    "CheckKind",
    "CheckOrigin",
    "CheckVerdict",
    "CheckWhen",
    "Citation",
    "EvidenceScreen",
    "EvidenceSource",
    "Execution",
    "Finish",
    "GiveUp",
    "InfraFailure",
    "InfrastructureError",
    "ItemSummary",
    "Key",
    "Launch",
    "LongPress",
    "ModelCallRecord",
    "ModelTimeouts",
    "OutcomeWord",
    "PlainAction",
    "Point",
    "ProbeCheck",
    "ProbeParam",
    "ProbeResult",
    "ProbeSpec",
    "OUTCOME_WORDS",
    "ROLES",
    "ResolvedElement",
    "Role",
    "RoleUsage",
    "RunOutcome",
    "ScreenView",
    "ScreenWhich",
    "Scroll",
    "StepFlag",
    "StepRecord",
    "Swipe",
    "Tap",
    "TaskResult",
    "TaskSpec",
    "TaskStatus",
    "TestTally",
    "TurnKind",
    "TypeSecret",
    "TypeText",
    "UIElement",
    "Usage",
    "UsageError",
    "VerdictSource",
    "VerdictStatus",
    "Wait",
    "blocked_cause",
    "outcome_word",
]


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
