"""Running a pytester project of the fault matrix and reading what it left: words, JUnit, journals."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from plugin_helpers import Case, run_junit

from pytest_artemis.store.reader import RunRecord, read_run

ELEMENT = {"PASSED": None, "FAILED": "failure", "BLOCKED": "error", "ERROR": "error",
           "UNCHECKED": "skipped:pytest.xfail"}
"""The JUnit element each outcome word must produce (docs/outcomes-and-ci.md)."""

SCRIPTED_CONFTEST = '''
import pytest

from pytest_artemis.models import ModelSet
from pytest_artemis.testing import ScriptedModel


@pytest.fixture
def artemis_model(request, artemis_device):
    """Every role answered by the test module's ``respond(request, device)``."""
    respond = request.module.respond
    return ModelSet.uniform(ScriptedModel(lambda scripted: respond(scripted, artemis_device)))
'''


@dataclass
class Matrix:
    """One pytester run: its result and its JUnit testcases by name."""

    result: pytest.RunResult
    cases: dict[str, Case]

    def expect(self, name: str, word: str) -> Case:
        """The test shows ``word`` in -v output, in ``artemis.outcome`` and as its JUnit element."""
        self.result.stdout.fnmatch_lines([f"*::{name} {word}*" if word != "PASSED" else f"*::{name} PASSED*"])
        case = self.cases[name]
        assert case.props["artemis.outcome"] == word, (name, case.props, case.message)
        assert case.result == ELEMENT[word], (name, case.result, case.message)
        return case

    def journal(self, name: str) -> RunRecord:
        """The run journal the test's ``artemis.artifacts`` property points at."""
        return read_run(Path(self.cases[name].props["artemis.artifacts"]))


def run_matrix(pytester: pytest.Pytester, *args: str, subprocess: bool = False) -> Matrix:
    """``pytest -v --artemis-device=sim ARGS --junitxml=…`` in the project."""
    result, cases = run_junit(pytester, "-v", "--artemis-device=sim", *args, subprocess=subprocess)
    return Matrix(result, cases)


def statuses(record: RunRecord, text: str) -> list[str]:
    """The ledger's statuses of one item, in order."""
    return [v.status for v in record.verdicts if v.item_text == text]
