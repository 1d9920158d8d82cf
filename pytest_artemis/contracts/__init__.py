"""Typed contracts at the bottom of the dependency graph: every layer may import them, they import
nothing else of ours."""

from .actions import (
    Action,
    ActionResult,
    Finish,
    Key,
    Launch,
    LongPress,
    Scroll,
    Swipe,
    Tap,
    TypeText,
    Wait,
)
from .checks import (
    CheckItem,
    CheckKind,
    CheckOrigin,
    CheckVerdict,
    CheckWhen,
    ProbeCheck,
    ProbeParam,
    ProbeResult,
    ProbeSpec,
    VerdictSource,
    VerdictStatus,
)
from .errors import ArtemisError, InfrastructureError, UsageError
from .models import ROLES, CallStatus, ModelCallRecord, Role, RoleUsage, Usage
from .outcome import Execution, InfraFailure, ItemSummary, RunOutcome, TaskResult, TaskStatus, TestTally
from .screen import Bounds, ScreenView, UIElement
from .steps import StepFlag, StepRecord, TurnKind
from .task import TaskSpec

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
    "Execution",
    "Finish",
    "InfraFailure",
    "InfrastructureError",
    "ItemSummary",
    "Key",
    "Launch",
    "LongPress",
    "ModelCallRecord",
    "ProbeCheck",
    "ProbeParam",
    "ProbeResult",
    "ProbeSpec",
    "ROLES",
    "Role",
    "RoleUsage",
    "RunOutcome",
    "ScreenView",
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
    "TypeText",
    "UIElement",
    "Usage",
    "UsageError",
    "VerdictSource",
    "VerdictStatus",
    "Wait",
]
