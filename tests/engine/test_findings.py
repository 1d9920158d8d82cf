"""Finding keys: typed, and spelled in replay's situation hash as recordings made before spell them."""

from pytest_artemis.checking.findings import FindingKey
from pytest_artemis.engine.replay import situation


def test_goal_and_item_findings_are_distinct_keys_for_the_same_key() -> None:
    findings = {FindingKey.item("k1"): "verify failed", FindingKey.goal("k1"): "final check: not achieved"}
    assert len(findings) == 2
    assert [k.scope for k in findings] == ["item", "goal"]


def test_the_situation_hash_of_typed_keys_matches_the_recorded_spelling() -> None:
    keys = [FindingKey.item("a1b2"), FindingKey.goal("c3d4")]
    recorded = situation("final_repair", "- [ ] open the app", ["a1b2", "goal:c3d4"])
    assert situation("final_repair", "- [ ] open the app", (k.token for k in keys)) == recorded
    assert situation("final_repair", "- [ ] open the app", ["a1b2", "c3d4"]) != recorded
