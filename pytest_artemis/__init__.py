"""pytest-artemis: agentic device tests for pytest (the public vocabulary, loaded on first use)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pytest_artemis import probes
    from pytest_artemis.contracts import (
        Bounds,
        CheckItem,
        CheckVerdict,
        ItemSummary,
        ProbeCheck,
        ProbeSpec,
        RunOutcome,
        ScreenView,
        StepRecord,
        TaskResult,
        TestTally,
        UIElement,
        UsageError,
    )
    from pytest_artemis.device import AdbDevice, Device, ProbeKind
    from pytest_artemis.models import LiteLLMModel, ModelSet
    from pytest_artemis.plugin.fixtures import configured_models
    from pytest_artemis.plugin.options import ArtemisOptions
    from pytest_artemis.plugin.result import Artemis
    from pytest_artemis.plugin.runner import RunResult
    from pytest_artemis.plugin.settings import RunSettings
    from pytest_artemis.spec.markers import assert_, verify

# Where each public name lives. Nothing is imported until a name is used, so ``import pytest_artemis``
# (which every plugin load does) stays cheap.
_LAZY: dict[str, str] = {
    "AdbDevice": "pytest_artemis.device",
    "Artemis": "pytest_artemis.plugin.result",
    "ArtemisOptions": "pytest_artemis.plugin.options",
    "Bounds": "pytest_artemis.contracts",
    "CheckItem": "pytest_artemis.contracts",
    "CheckVerdict": "pytest_artemis.contracts",
    "Device": "pytest_artemis.device",
    "ItemSummary": "pytest_artemis.contracts",
    "LiteLLMModel": "pytest_artemis.models",
    "ModelSet": "pytest_artemis.models",
    "ProbeCheck": "pytest_artemis.contracts",
    "ProbeKind": "pytest_artemis.device",
    "ProbeSpec": "pytest_artemis.contracts",
    "RunOutcome": "pytest_artemis.contracts",
    "RunResult": "pytest_artemis.plugin.runner",
    "RunSettings": "pytest_artemis.plugin.settings",
    "ScreenView": "pytest_artemis.contracts",
    "StepRecord": "pytest_artemis.contracts",
    "TaskResult": "pytest_artemis.contracts",
    "TestTally": "pytest_artemis.contracts",
    "UIElement": "pytest_artemis.contracts",
    "UsageError": "pytest_artemis.contracts",
    "assert_": "pytest_artemis.spec.markers",
    "configured_models": "pytest_artemis.plugin.fixtures",
    "verify": "pytest_artemis.spec.markers",
}

__all__ = [
    "AdbDevice",
    "Artemis",
    "ArtemisOptions",
    "Bounds",
    "CheckItem",
    "CheckVerdict",
    "Device",
    "ItemSummary",
    "LiteLLMModel",
    "ModelSet",
    "ProbeCheck",
    "ProbeKind",
    "ProbeSpec",
    "RunOutcome",
    "RunResult",
    "RunSettings",
    "ScreenView",
    "StepRecord",
    "TaskResult",
    "TestTally",
    "UIElement",
    "UsageError",
    "assert_",
    "configured_models",
    "probes",
    "verify",
]


def __getattr__(name: str) -> object:
    if name == "probes":
        return importlib.import_module("pytest_artemis.probes")
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'pytest_artemis' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
