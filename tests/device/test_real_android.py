"""Real captures from phones, tablets and emulators (Android 4-15) parse as their manifest says.

Each capture in ``real_android/`` was published by someone else (its source is in ``MANIFEST.md``);
``expectations.json`` holds every manifest assertion, machine-readable, and each one is checked here.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from pytest_artemis import probes
from pytest_artemis.contracts import ProbeResult, ProbeSpec
from pytest_artemis.device import builtin_probes
from pytest_artemis.device.hierarchy import parse_hierarchy

HERE = Path(__file__).parent / "real_android"
EXPECTATIONS = json.loads((HERE / "expectations.json").read_text(encoding="utf-8"))
CAPTURES: list[dict[str, Any]] = EXPECTATIONS["captures"]
TABLE = builtin_probes()
_SEGMENT = re.compile(r"\[[^\]]*\]|[^.\[]+")


def raw_text(entry: dict[str, Any]) -> str:
    return (HERE / entry["file"]).read_bytes().decode("utf-8", errors="replace")


def parsed_json(entry: dict[str, Any]) -> Any:
    """The parse as JSON: the probe kind's typed output, or the hierarchy's elements."""
    raw = raw_text(entry)
    if entry["kind"] == "hierarchy":
        return {"elements": [dict(e.model_dump(mode="json"), bounds=[e.bounds.left, e.bounds.top,
                                                                     e.bounds.right, e.bounds.bottom])
                             for e in parse_hierarchy(raw)]}
    return TABLE.parse(ProbeSpec(kind=entry["kind"]), raw).model_dump(mode="json")


def walk(value: Any, path: str) -> Any:
    """``alarms.0.tag`` / ``elements.[text=Gmail].bounds``: index, key, or first item whose field matches."""
    for segment in _SEGMENT.findall(path):
        if segment.startswith("["):
            field, _, wanted = segment[1:-1].partition("=")
            value = next(item for item in value if str(item.get(field)) == wanted)
        elif isinstance(value, list):
            value = value[int(segment)]
        else:
            value = value[segment]
    return value


def holds(got: Any, op: str, expected: Any) -> bool:
    if op == "len==":
        return len(got) == expected
    if op == "len>=":
        return len(got) >= expected
    if op == "startswith":
        return isinstance(got, str) and got.startswith(expected)
    return bool(got == expected)


def test_every_capture_and_manifest_entry_is_covered() -> None:
    manifest = (HERE / "MANIFEST.md").read_text(encoding="utf-8")
    assert len(CAPTURES) == len(re.findall(r"^### ", manifest, flags=re.M)) == 27
    on_disk = {p.relative_to(HERE).as_posix() for p in HERE.glob("*/*") if p.is_file()}
    assert on_disk == {c["file"] for c in CAPTURES}
    assert all(c["source"] and c["expect"] for c in CAPTURES)


@pytest.mark.parametrize("entry", CAPTURES, ids=[c["file"] for c in CAPTURES])
def test_capture_parses_as_the_manifest_says(entry: dict[str, Any]) -> None:
    parsed = parsed_json(entry)
    wrong = []
    for fact in entry["expect"]:
        try:
            got = walk(parsed, fact["path"])
        except (KeyError, IndexError, StopIteration, TypeError) as exc:
            got = f"<missing: {exc!r}>"
        if not holds(got, fact["op"], fact["value"]):
            wrong.append(f"{fact['path']} {fact['op']} {fact['value']!r}, got {got!r}")
    assert not wrong, f"{entry['file']} ({entry['source']}):\n" + "\n".join(wrong)


CHECKS = [(c, check) for c in CAPTURES for check in c["checks"]]


@pytest.mark.parametrize(("entry", "check"), CHECKS, ids=[f"{c['file']}:{k['call']}" for c, k in CHECKS])
def test_check_on_capture_judges_as_the_manifest_says(entry: dict[str, Any], check: dict[str, Any]) -> None:
    probe_check = getattr(probes, check["call"])(**check["args"])
    probes.validate_check(probe_check)
    raw = raw_text(entry)
    result = ProbeResult(spec=probe_check.probe, argv=tuple(TABLE.argv(probe_check.probe)), raw=raw,
                         parsed=TABLE.parse(probe_check.probe, raw))
    verdict = probes.judge(probe_check, result)
    assert verdict.conclusive and verdict.passed is check["passed"], (check["why"], verdict.evidence)
