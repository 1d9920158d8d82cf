"""The report's "Before the run" section: the setup steps the harness performed (reset, isolation,
preconditions), each with its commands and the state it left, and what the test found an earlier test had
changed."""

from __future__ import annotations

from collections.abc import Sequence

from pytest_artemis.store.journal import Event

from .markup import esc, section, tag


def _step_row(step: dict[str, object]) -> str:
    args = step.get("args") or {}
    asked = ", ".join(f"{k}={v}" for k, v in args.items()) if isinstance(args, dict) else ""
    commands = step.get("commands") or []
    said = "".join(tag("code", esc(c)) + "<br>" for c in commands) if isinstance(commands, list) else ""
    before, after = str(step.get("before") or ""), str(step.get("after") or "")
    left = f"{esc(before)} → {esc(after)}" if before else esc(after)
    return tag("tr", tag("td", tag("b", esc(step.get("action", "")))) + tag("td", esc(asked))
               + tag("td", said) + tag("td", left))


def before_run_section(events: Sequence[Event]) -> str:
    """The section, or nothing when the run journaled no setup step and found nothing changed."""
    steps = [e.fields["step"] for e in events
             if e.kind == "setup_step" and isinstance(e.fields.get("step"), dict)]
    found = [str(c) for e in events if e.kind == "found_state"
             for c in (e.fields.get("changes") or [])]  # type: ignore[union-attr]
    if not steps and not found:
        return ""
    head = tag("tr", "".join(tag("th", h) for h in ("step", "asked", "commands", "state it left")))
    rows = "".join(_step_row(s) for s in steps)  # type: ignore[arg-type]
    body = tag("table", head + rows, class_="setup") if steps else ""
    if found:
        body += tag("p", "Found changed by an earlier test (not set by this test's setup):") + tag(
            "ul", "".join(tag("li", esc(c)) for c in found), class_="found")
    return section("Before the run", body, id_="before-run")
