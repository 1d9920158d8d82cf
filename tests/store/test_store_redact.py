"""Secrets never reach an artifact: the Redactor, and a sentinel pushed through every journal writer."""

import json

import pytest

from pytest_artemis.contracts import (
    ActionResult,
    CheckVerdict,
    ModelCallRecord,
    RunOutcome,
    StepRecord,
    TaskResult,
    TypeText,
)
from pytest_artemis.store import REDACTED, Redactor, RunHeader, RunJournal, looks_secret, read_run

ENV_SENTINEL = "sk-SENTINEL-env-7f3a9c"
# A marked secret with characters that JSON and XML escape: redaction must still find it.
MARKED_SENTINEL = 'p@ss"w\\rd<&>ü-MARKED-41'


@pytest.mark.parametrize(
    "name",
    [
        "OPENAI_API_KEY",
        "anthropic_api_key",
        "GITHUB_TOKEN",
        "TOKEN",
        "AWS_SECRET_ACCESS_KEY",
        "DB_PASSWORD",
        "MYAPIKEY",
    ],
)
def test_secret_looking_names(name):
    assert looks_secret(name)


@pytest.mark.parametrize("name", ["PATH", "HOME", "TOKENIZERS_PARALLELISM", "PYTEST_ADDOPTS", "KEYBOARD"])
def test_ordinary_names(name):
    assert not looks_secret(name)


def test_from_environment_collects_secret_values_of_six_characters_or_more():
    env = {"OPENAI_API_KEY": ENV_SENTINEL, "SHORT_TOKEN": "abc12", "HOME": "/home/someone-long"}
    redactor = Redactor.from_environment(env)
    assert redactor.redact(f"key={ENV_SENTINEL}; token=abc12; home=/home/someone-long") == (
        f"key={REDACTED}; token=abc12; home=/home/someone-long"
    )


def test_add_refuses_very_short_secrets_and_ignores_blank():
    redactor = Redactor()
    redactor.add(None)
    redactor.add("   ")
    assert len(redactor) == 0 and redactor.redact("anything") == "anything"
    with pytest.raises(ValueError, match="at least 4"):
        redactor.add("abc")


def test_longest_secret_wins_and_escaped_forms_are_redacted_too():
    redactor = Redactor(["secret-value", "secret-value-extended", MARKED_SENTINEL])
    assert redactor.redact("a secret-value-extended b") == f"a {REDACTED} b"
    assert REDACTED in redactor.redact(json.dumps({"v": MARKED_SENTINEL}))
    assert (
        redactor.redact('<node text="p@ss&quot;w\\rd&lt;&amp;&gt;ü-MARKED-41"/>')
        == f'<node text="{REDACTED}"/>'
    )


def test_redact_json_keeps_structure_valid():
    redactor = Redactor([MARKED_SENTINEL])
    value = {"a": [MARKED_SENTINEL, 1, None], MARKED_SENTINEL: {"n": f"x{MARKED_SENTINEL}y"}}
    assert redactor.redact_json(value) == {"a": [REDACTED, 1, None], REDACTED: {"n": f"x{REDACTED}y"}}


def _file_bytes(run_dir):
    return {p: p.read_bytes() for p in run_dir.rglob("*") if p.is_file()}


def test_sentinel_secrets_reach_no_file_of_the_run(tmp_path, monkeypatch):
    monkeypatch.setenv("ARTEMIS_TEST_API_KEY", ENV_SENTINEL)
    redactor = Redactor.from_environment()
    redactor.add(MARKED_SENTINEL)
    both = f"{ENV_SENTINEL} and {MARKED_SENTINEL}"
    journal = RunJournal.create(
        tmp_path, RunHeader(run_id="run-s", goal=f"log in with {both}"), redactor=redactor
    )
    journal.put_blob(f'<node text="{both}"/>', "xml")
    journal.put_blob(f"password {both}".encode(), "txt")
    action = TypeText(text=both)
    journal.append_step(
        StepRecord(
            step=1,
            decision=f"type {both}",
            actions=(action,),
            results=(ActionResult(action=action, ok=True, detail=f"typed {both}"),),
            started_at=1.0,
            finished_at=2.0,
        )
    )
    journal.append_verdict(
        CheckVerdict(
            item_key="k",
            item_text="logged in",
            kind="verify",
            when="complete",
            status="passed",
            evidence=f"field shows {both}",
            source="model",
            attempt_id="c#1",
            checkpoint_id="c",
            started_at=1.0,
            finished_at=2.0,
        )
    )
    journal.append_model_call(
        ModelCallRecord(run_id="run-s", seq=1, role="operator", model=both, status="ok")
    )
    journal.append_event("note", text=both, nested={"k": [both]})
    journal.write_plan(f"- [ ] Type {both}\n")
    journal.close(
        RunOutcome(
            run_id="run-s",
            execution="finished",
            task=TaskResult(status="completed", reason=both),
            stop_reason=both,
            started_at=1.0,
            finished_at=2.0,
        )
    )
    files = _file_bytes(journal.dir)
    assert len(files) == 9  # run, steps, ledger, model_calls, events, 2 blobs, plan, outcome
    forms = {
        ENV_SENTINEL.encode(),
        b"SENTINEL",
        b"MARKED",
        MARKED_SENTINEL.encode(),
        json.dumps(MARKED_SENTINEL)[1:-1].encode(),
    }
    leaks = [(path.name, form) for path, data in files.items() for form in forms if form in data]
    assert leaks == []
    run = read_run(journal.dir)  # every record is still valid JSON of its contract
    assert run.steps[0].decision == f"type {REDACTED} and {REDACTED}"
    assert run.outcome.task.reason == f"{REDACTED} and {REDACTED}"
    assert run.events[0].fields == {
        "text": f"{REDACTED} and {REDACTED}",
        "nested": {"k": [f"{REDACTED} and {REDACTED}"]},
    }
