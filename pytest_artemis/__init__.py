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
    from pytest_artemis.contracts.probe_outputs import (
        AlarmsOutput,
        BatteryOutput,
        ContentOutput,
        ForegroundOutput,
        NotificationsOutput,
        PackagesOutput,
        ProbeOutput,
        PropOutput,
        SettingOutput,
        TextOutput,
        Unreadable,
        WindowFocusOutput,
    )
    from pytest_artemis.device import AdbDevice, Device, ProbeKind
    from pytest_artemis.device.setup import DeviceSetup, SetupFailed, SetupStep
    from pytest_artemis.farm.backend import DeviceLease, LeaseBackend, LeaseError, Survey
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
    "LeaseBackend": "pytest_artemis.farm.backend",
    "LeaseError": "pytest_artemis.farm.backend",
    "Survey": "pytest_artemis.farm.backend",
    "AdbDevice": "pytest_artemis.device",
    "AlarmsOutput": "pytest_artemis.contracts.probe_outputs",
    "Artemis": "pytest_artemis.plugin.result",
    "ArtemisOptions": "pytest_artemis.plugin.options",
    "BatteryOutput": "pytest_artemis.contracts.probe_outputs",
    "Bounds": "pytest_artemis.contracts",
    "CheckItem": "pytest_artemis.contracts",
    "CheckVerdict": "pytest_artemis.contracts",
    "ContentOutput": "pytest_artemis.contracts.probe_outputs",
    "Device": "pytest_artemis.device",
    "DeviceSetup": "pytest_artemis.device.setup",
    "SetupFailed": "pytest_artemis.device.setup",
    "SetupStep": "pytest_artemis.device.setup",
    "DeviceLease": "pytest_artemis.farm.backend",
    "ForegroundOutput": "pytest_artemis.contracts.probe_outputs",
    "ItemSummary": "pytest_artemis.contracts",
    "LiteLLMModel": "pytest_artemis.models",
    "ModelSet": "pytest_artemis.models",
    "NotificationsOutput": "pytest_artemis.contracts.probe_outputs",
    "PackagesOutput": "pytest_artemis.contracts.probe_outputs",
    "ProbeCheck": "pytest_artemis.contracts",
    "ProbeKind": "pytest_artemis.device",
    "ProbeOutput": "pytest_artemis.contracts.probe_outputs",
    "ProbeSpec": "pytest_artemis.contracts",
    "PropOutput": "pytest_artemis.contracts.probe_outputs",
    "RunOutcome": "pytest_artemis.contracts",
    "RunResult": "pytest_artemis.plugin.runner",
    "RunSettings": "pytest_artemis.plugin.settings",
    "ScreenView": "pytest_artemis.contracts",
    "SettingOutput": "pytest_artemis.contracts.probe_outputs",
    "StepRecord": "pytest_artemis.contracts",
    "TaskResult": "pytest_artemis.contracts",
    "TestTally": "pytest_artemis.contracts",
    "TextOutput": "pytest_artemis.contracts.probe_outputs",
    "UIElement": "pytest_artemis.contracts",
    "Unreadable": "pytest_artemis.contracts.probe_outputs",
    "UsageError": "pytest_artemis.contracts",
    "WindowFocusOutput": "pytest_artemis.contracts.probe_outputs",
    "assert_": "pytest_artemis.spec.markers",
    "configured_models": "pytest_artemis.plugin.fixtures",
    "verify": "pytest_artemis.spec.markers",
}

__all__ = [
    "AdbDevice",
    "AlarmsOutput",
    "Artemis",
    "ArtemisOptions",
    "BatteryOutput",
    "Bounds",
    "CheckItem",
    "CheckVerdict",
    "ContentOutput",
    "Device",
    "DeviceLease",
    "DeviceSetup",
    "ForegroundOutput",
    "ItemSummary",
    "LeaseBackend",
    "LeaseError",
    "LiteLLMModel",
    "ModelSet",
    "NotificationsOutput",
    "PackagesOutput",
    "ProbeCheck",
    "ProbeKind",
    "ProbeOutput",
    "ProbeSpec",
    "PropOutput",
    "RunOutcome",
    "RunResult",
    "RunSettings",
    "ScreenView",
    "SettingOutput",
    "SetupFailed",
    "SetupStep",
    "StepRecord",
    "Survey",
    "TaskResult",
    "TestTally",
    "TextOutput",
    "UIElement",
    "Unreadable",
    "UsageError",
    "WindowFocusOutput",
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
