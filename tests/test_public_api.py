"""The public surface: ``pytest_artemis`` and ``pytest_artemis.testing`` export the documented names, the
package imports nothing until a name is used, and docs and examples import only public modules."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import pytest_artemis
import pytest_artemis.testing

REPO = Path(__file__).resolve().parents[1]

#: The user's vocabulary (docs/getting-started.md, "The public API").
PUBLIC = [
    "AdbDevice", "AlarmsOutput", "Artemis", "ArtemisOptions", "BatteryOutput", "Bounds", "CheckItem",
    "CheckVerdict", "ContentOutput", "Device", "DeviceLease", "DeviceSetup", "ForegroundOutput",
    "ItemSummary", "LeaseBackend", "LeaseError", "LiteLLMModel", "ModelSet", "NotificationsOutput",
    "PackagesOutput", "ProbeCheck", "ProbeKind", "ProbeOutput", "ProbeSpec", "PropOutput", "RunOutcome",
    "RunResult", "RunSettings", "ScreenView", "SettingOutput", "SetupFailed", "SetupStep", "StepRecord",
    "Survey", "TaskResult", "TestTally", "TextOutput", "UIElement", "Unreadable", "UsageError",
    "WindowFocusOutput", "assert_", "configured_models", "probes", "verify"
]
#: Everything for offline tests (docs/testing-with-scripted-model.md).
TESTING = [
    "Action", "CheckReport", "CitationClaim", "EvidenceScreen", "Finish", "GiveUp", "HonestChecker", "Key",
    "Launch", "LongPress", "ModelRequestsBlocked", "ModelUnavailable", "ModelVerdict", "OnScreen",
    "OperatorDecision", "PlanReply", "ScriptExhausted", "ScriptedModel", "ScriptedOperator",
    "ScriptedReply", "ScriptedRequest", "Scroll", "Step", "Swipe", "Tap", "ToolRequest", "TypeSecret",
    "TypeText", "Wait", "back", "block_model_requests", "citations_for", "finish", "give_up", "home",
    "launch", "long_press", "model_requests_allowed", "on_screen", "press", "quotes", "scripted_agent",
    "tap", "type_secret", "type_text", "wait"
]
#: The modules a user imports from; everything else is internal.
PUBLIC_MODULES = {"pytest_artemis", "pytest_artemis.junit", "pytest_artemis.probes", "pytest_artemis.testing"}


def test_the_public_names_are_the_documented_ones():
    assert pytest_artemis.__all__ == PUBLIC
    assert pytest_artemis.testing.__all__ == TESTING


@pytest.mark.parametrize(("module", "names"), [(pytest_artemis, PUBLIC), (pytest_artemis.testing, TESTING)])
def test_every_public_name_resolves_and_is_documented(module, names):
    for name in names:
        value = getattr(module, name)
        assert value is not None and (getattr(value, "__doc__", None) or name == "Action"), name


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="has no attribute 'Artmis'"):
        pytest_artemis.Artmis  # noqa: B018


def test_importing_the_package_imports_nothing_else():
    """The plugin imports ``pytest_artemis`` first: it must not pull pydantic, the engine or the models."""
    code = ("import sys, pytest_artemis; "
            "print(sorted(m for m in sys.modules if m.startswith('pytest_artemis') or m == 'pydantic'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['pytest_artemis']"


def _imports(text: str) -> set[str]:
    found = re.findall(r"^\s*from (pytest_artemis[\w.]*) import |^\s*import (pytest_artemis[\w.]*)\s*$", text,
                       re.MULTILINE)
    return {a or b for a, b in found}


def test_docs_and_examples_import_only_public_modules():
    files = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md")), *(REPO / "examples").iterdir()]
    private = {f"{f.relative_to(REPO)}: {m}" for f in files if f.is_file()
               for m in _imports(f.read_text(encoding="utf-8")) - PUBLIC_MODULES}
    assert not private
