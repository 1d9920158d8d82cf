"""The key screenshots of a run (the final screen, and the screen each non-passed verdict rests on)."""

from __future__ import annotations

from pathlib import Path

MAX_SCREENSHOTS = 4


def key_screenshots(run_dir: Path) -> list[Path]:
    """Absolute paths of the run's key screenshots that still exist on disk, at most four.

    The final screen first, then the post-step screen each failed / inconclusive / unchecked verdict is
    anchored to. Empty when ``run_dir`` holds no readable run or its screenshots were not kept.
    """
    if not (run_dir / "run.jsonl").is_file():
        return []
    from pytest_artemis.store import JournalCorrupt, read_run

    try:
        record = read_run(run_dir)
    except JournalCorrupt:
        return []
    by_step = {s.step: s for s in record.steps}
    shas: list[str] = []
    if record.steps:
        last = record.steps[-1]
        final = last.post_screen or last.pre_screen
        if final:
            shas.append(final)
    for verdict in record.verdicts:
        if verdict.status in ("failed", "inconclusive", "unchecked") and verdict.anchor_step in by_step:
            step = by_step[verdict.anchor_step]
            sha = step.post_screen or step.pre_screen
            if sha and sha not in shas:
                shas.append(sha)
    paths = [record.screen_path(sha).resolve() for sha in shas]
    return [p for p in paths if p.is_file()][:MAX_SCREENSHOTS]
