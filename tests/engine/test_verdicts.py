"""An item's current verdict: the latest one not superseded, except an assertion's failure, which stands."""

from __future__ import annotations

import pytest

from pytest_artemis.checking.tally import tally
from pytest_artemis.checking.verdicts import current_verdicts, make_verdict
from pytest_artemis.contracts import CheckItem, CheckVerdict

ASSERT = CheckItem(kind="assert", text="The Wi-Fi switch reads ON")
VERIFY = CheckItem(kind="verify", text="Wi-Fi is on")


def verdict(item: CheckItem, status: str, attempt: int) -> CheckVerdict:
    return make_verdict(item, status=status, evidence=f"attempt {attempt}: {status}",  # type: ignore[arg-type]
                        source="model", attempt_id=f"c#{attempt}", checkpoint_id="c", anchor_step=attempt,
                        started_at=0.0)


@pytest.mark.parametrize("later", ["passed", "inconclusive", "unchecked", "failed"])
def test_a_failed_assertion_stands_whatever_a_later_attempt_says(later):
    first = verdict(ASSERT, "failed", 1)
    ledger = [verdict(ASSERT, "passed", 0), first, verdict(ASSERT, later, 2),
              verdict(ASSERT, "superseded", 3)]
    assert current_verdicts(ledger)[ASSERT.key] is first
    counted = tally([ASSERT], ledger, default_reason="")
    assert (counted.failed, counted.passed) == (1, 0)


def test_a_verify_item_is_repaired_and_a_passed_assertion_can_still_fail():
    repaired = verdict(VERIFY, "passed", 2)
    failed_later = verdict(ASSERT, "failed", 2)
    ledger = [verdict(VERIFY, "failed", 1), verdict(ASSERT, "passed", 1), repaired, failed_later,
              verdict(VERIFY, "superseded", 3)]
    current = current_verdicts(ledger)
    assert current[VERIFY.key] is repaired and current[ASSERT.key] is failed_later
