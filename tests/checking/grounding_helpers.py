"""Ground one citation (or several) as the judging code does, and read back (citation, why)."""

from __future__ import annotations

from collections.abc import Sequence

from pytest_artemis.agents.schemas import CitationClaim
from pytest_artemis.checking.grounding import Evidence, Window, ground
from pytest_artemis.checking.history import ProbeOutput
from pytest_artemis.checking.screens import RecordedScreens
from pytest_artemis.contracts import CheckItem, Citation


def ground_one(
    claim: CitationClaim | Sequence[CitationClaim] | None, item: CheckItem, window: Window,
    screens: RecordedScreens, probes: Sequence[ProbeOutput] = (), *, passed: bool = True,
    baseline: Sequence[ProbeOutput] = (),
) -> tuple[Citation | None, str]:
    """The first citation as resolved and why the verdict does not stand ('' when it does)."""
    claims = [] if claim is None else [claim] if isinstance(claim, CitationClaim) else list(claim)
    grounded = ground(claims, item, window, Evidence(screens, probes, baseline), passed=passed)
    return (grounded.citations[0] if grounded.citations else None), grounded.why
