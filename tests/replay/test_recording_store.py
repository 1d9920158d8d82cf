"""The recordings directory: one file per test and goal, atomic replacement under a lock, stale files
reported instead of used."""

from __future__ import annotations

import json
import multiprocessing
from pathlib import Path

from pytest_artemis.contracts import Tap
from pytest_artemis.store.recording import RecordedTurn, Recording, RecordingStore

NODE = "tests/test_clock.py::test_create_alarm[7:30]"


def recording(goal: str = "Create an alarm", turns: int = 2, node: str = NODE) -> Recording:
    return Recording(node_id=node, goal=goal, plan_key="k" * 32, plan="- [ ] Create an alarm\n",
                     turns=tuple(RecordedTurn(turn=n, signature=f"s1:{n:032d}", situation="x" * 32,
                                              decision=f"turn {n}", actions=(Tap(element=n),),
                                              targets=("f" * 16,)) for n in range(1, turns + 1)))


def test_a_saved_recording_loads_back_under_its_node_id_and_goal(tmp_path):
    store = RecordingStore(tmp_path / "rec")
    path = store.save(recording())
    assert path.name.startswith("tests_test_clock.py__test_create_alarm_7_30--") and path.suffix == ".json"
    loaded = store.load(NODE, "Create an alarm")
    assert loaded.problem == "" and loaded.recording is not None
    assert loaded.recording.same_path(recording())
    assert store.load(NODE, "Create another alarm").recording is None
    # Only the lock and temporary files are kept out of version control.
    assert (tmp_path / "rec" / ".gitignore").read_text().splitlines()[1:] == [".lock", ".*.tmp"]
    assert sorted(p.name for p in (tmp_path / "rec").iterdir()) == [".gitignore", ".lock", path.name]


def test_an_unreadable_or_foreign_file_is_reported_and_not_used(tmp_path):
    store = RecordingStore(tmp_path)
    path = store.path_for(NODE, "Create an alarm")
    path.write_text("{ torn", encoding="utf-8")
    loaded = store.load(NODE, "Create an alarm")
    assert loaded.recording is None and loaded.problem.startswith(f"unreadable recording {path.name}")
    data = recording().model_dump(mode="json") | {"format": 2}
    path.write_text(json.dumps(data), encoding="utf-8")
    assert "unreadable recording" in store.load(NODE, "Create an alarm").problem
    path.write_text(recording(node="other::test").model_dump_json(), encoding="utf-8")
    assert "records another test or goal" in store.load(NODE, "Create an alarm").problem


def test_recordings_of_the_same_test_under_another_goal_are_listed(tmp_path):
    store = RecordingStore(tmp_path)
    old = store.save(recording(goal="Create an alarm for 7:30"))
    store.save(recording(node=NODE + "x"))
    assert store.other_goals(NODE, "Create an alarm for 8:00") == ((old, "Create an alarm for 7:30"),)


def _writer(root: str, index: int) -> None:
    store = RecordingStore(Path(root))
    for round_ in range(15):
        store.save(recording(goal=f"goal {index % 2}", turns=1 + (index + round_) % 5))


def test_concurrent_writers_never_leave_a_torn_or_temporary_file(tmp_path):
    root = tmp_path / "shared"
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_writer, args=(str(root), i)) for i in range(4)]
    for worker in workers:
        worker.start()
    store = RecordingStore(root)
    while any(w.is_alive() for w in workers):  # readers see a whole file or none, never a torn one
        for goal in ("goal 0", "goal 1"):
            assert store.load(NODE, goal).problem == ""
    for worker in workers:
        worker.join()
        assert worker.exitcode == 0
    assert sorted(p.name for p in root.iterdir() if p.name.endswith(".tmp")) == []
    assert all(store.load(NODE, f"goal {i}").recording is not None for i in (0, 1))
