"""Fuzz: parsers never raise on arbitrary text, and random text never makes a check pass."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_artemis import probes
from pytest_artemis.contracts import ProbeCheck, ProbeResult, ProbeSpec
from pytest_artemis.contracts.output_refs import output_model
from pytest_artemis.contracts.probe_outputs import ProbeOutput, Unreadable
from pytest_artemis.device import builtin_probes

TABLE = builtin_probes()
SPECS = [ProbeSpec(kind=k.name, params={p: "x.y" for p in k.required()}) for k in TABLE]
CHECKS = [
    probes.alarm_set("07:30"), probes.alarm_set("07:30", enabled=False), probes.alarm_set("23:14"),
    probes.contact_exists(name="Ada Lovelace"), probes.contact_exists(phone="+1 555 0100"),
    probes.foreground("com.android.settings"), probes.no_error_dialog(),
    probes.package_installed("com.google.android.deskclock"),
]
SETTINGS = [probes.setting("global", "wifi_on", equals=True), probes.setting("global", "wifi_on")]
REAL_LINES = [line for path in sorted((Path(__file__).parent / "real_android").glob("*/*.txt"))
              for line in path.read_text(encoding="utf-8", errors="replace").splitlines()]
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Arbitrary text, and text stitched from real dump lines with arbitrary lines in between (so the
# parsers' deeper paths see half-formed records, not only noise).
any_text = st.text()
stitched = st.lists(st.one_of(st.sampled_from(REAL_LINES), st.text(max_size=80)), max_size=40).map("\n".join)


def judged(check: ProbeCheck, raw: str) -> probes.ProbeJudgement:
    result = ProbeResult(spec=check.probe, argv=tuple(TABLE.argv(check.probe)), raw=raw,
                         parsed=TABLE.parse(check.probe, raw))
    return probes.judge(check, result)


@FUZZ
@given(raw=st.one_of(any_text, stitched))
def test_parsers_never_raise_and_give_their_kind_or_unreadable(raw: str) -> None:
    for spec in SPECS:
        parsed = TABLE.parse(spec, raw)
        assert isinstance(parsed, Unreadable | output_model(TABLE.kind(spec.kind).output)), spec.kind
        assert isinstance(parsed, Unreadable | ProbeOutput)


@FUZZ
@given(raw=st.one_of(any_text, stitched))
def test_judging_never_raises(raw: str) -> None:
    for check in CHECKS + SETTINGS:
        verdict = judged(check, raw)
        assert verdict.conclusive or not verdict.passed


@FUZZ
@given(raw=any_text)
def test_random_text_never_passes_a_check(raw: str) -> None:
    for check in CHECKS:
        assert not judged(check, raw).passed, (check.name, raw)


@FUZZ
@given(raw=any_text)
def test_random_text_passes_a_setting_check_only_as_that_exact_value(raw: str) -> None:
    # `settings get` prints one value: text that is exactly one line is a real answer, anything else
    # (several lines, nothing, an error message) is unreadable and never passes.
    lines = [ln.strip() for ln in raw.splitlines() if ln.strip()]
    equals_one, is_set = (judged(check, raw) for check in SETTINGS)
    assert not equals_one.passed or lines == ["1"]
    assert not is_set.passed or (len(lines) == 1 and lines[0] != "null")
