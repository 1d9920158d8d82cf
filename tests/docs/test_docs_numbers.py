"""Every number the docs state about timeouts and steps is the code's: read from the option defaults
(``plugin/options.py`` OPTIONS), ``engine/config.py`` RunConfig and the model's defaults, or seen in a run.

:data:`CLAIMS` pins each sentence that states such a number to where the number comes from; a scan of the
pages fails on a timeout-like number (``45 s``, ``up to 365 s``) that no claim covers, so a new one is
checked when it is written. :data:`STEP_CLAIMS` pins the step and round counts the pages
state (the step count of a documented run is seen in that run). ``configuration.md`` is generated from the
options (``test_options``); ``performance.md``/``replay.md`` report measurements, not settings.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from doc_blocks import DOCS, section_files

from pytest_artemis.engine.config import RunConfig
from pytest_artemis.plugin.options import OPTIONS


def option_default(name: str) -> float:
    return float(next(opt.default for opt in OPTIONS if opt.name == name))  # type: ignore[arg-type]


def model_default(name: str) -> float:
    """A model call's default timeout (``budget_s``: the call with its retries) or one attempt's
    (``timeout_s``), as the options and the model derive them."""
    from pytest_artemis.contracts.models import default_attempt_s

    call = option_default("model_timeout")
    return call if name == "budget_s" else default_attempt_s(call)


def attempt_backstop() -> float:
    """What the final check's progress line says it waits "up to": one check attempt's backstop."""
    from pytest_artemis.checking.judging import attempt_limit_s

    return attempt_limit_s(RunConfig())


def attempt_reserve() -> float:
    """What a model call's default attempt timeout leaves of the call for its retries."""
    from pytest_artemis.contracts.models import ATTEMPT_RESERVE_S

    return ATTEMPT_RESERVE_S


def health_check_timeout() -> float:
    from pytest_artemis.farm.health import CHECK_TIMEOUT_S

    return CHECK_TIMEOUT_S


#: (page, pattern with one group per number, where each number comes from).
CLAIMS: list[tuple[str, str, tuple[Callable[[], float], ...]]] = [
    ("outcomes-and-ci.md",
     r"give up on a hanging provider within\s+(\d+) s \(`--artemis-model-timeout`: (\d+) s per call with its "
     r"retries, (\d+) s per attempt\)",
     (lambda: model_default("budget_s"), lambda: model_default("budget_s"),
      lambda: model_default("timeout_s"))),
    ("models-and-costs.md", r"within the\s+call's timeout \((\d+) s by default",
     (lambda: model_default("budget_s"),)),
    ("models-and-costs.md",
     r"`--artemis-model-timeout` seconds \((\d+) by default\), its retries included; one HTTP\s+attempt of "
     r"it the call's timeout less (\d+) s \((\d+) s of (\d+) s, at least half the call\)",
     (lambda: model_default("budget_s"), attempt_reserve, lambda: model_default("timeout_s"),
      lambda: model_default("budget_s"))),
    ("models-and-costs.md", r"bounded by `--artemis-check-timeout` \((\d+) s\)",
     (lambda: option_default("check_timeout"),)),
    ("models-and-costs.md", r"the operator call timeout of (\d+)s, after",
     (lambda: model_default("budget_s"),)),
    ("device-farms.md", r"Timeout \(>(\d+)\.0s\) from pytest-timeout",  # the user's own --timeout=60
     (lambda: 60.0,)),
    ("device-farms.md", r"the\s+device's\s+call\s+timeout\s+\((\d+) s\s+per\s+call,\s+"
     r"`--artemis-device-timeout`\),\s+then\s+(\d+) s\s+to\s+be\s+found\s+dead",
     (lambda: option_default("device_timeout"), health_check_timeout)),
    ("outcomes-and-ci.md", r"up to (\d+) s by default, `--artemis-settle-timeout`",
     (lambda: option_default("settle_timeout"),)),
    ("outcomes-and-ci.md",
     r'"up to (\d+) s":\s+the backstop of one check attempt, twice `--artemis-check-timeout`\s+'
     r"\((\d+) s\) and a (\d+) s grace, whose\s+checker call itself gives up at (\d+) s",
     (attempt_backstop, lambda: option_default("check_timeout"),
      lambda: attempt_backstop() - 2 * option_default("check_timeout"),
      lambda: option_default("check_timeout"))),
]


def scripted_patience() -> float:
    """Turns the scripted operator waits for an element that is not on screen before it claims finish."""
    import inspect

    from pytest_artemis.testing.agent import ScriptedOperator

    return float(inspect.signature(ScriptedOperator).parameters["patience"].default)


NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}

#: Step and round counts the pages state: (page, pattern, where each number comes from); a number may be
#: written as a word ("three turns of patience").
STEP_CLAIMS: list[tuple[str, str, tuple[Callable[[], float], ...]]] = [
    ("writing-checks.md", r"overrides `--artemis-max-steps` \(default (\d+)\)",
     (lambda: option_default("max_steps"),)),
    ("writing-checks.md",
     r"defaults allow (\d+) repairs per checkpoint and (\d+) final-check attempts, and they stop a run that "
     r"gets\s+the same finding (\d+) times",
     (lambda: option_default("checkpoint_max_repairs"), lambda: option_default("final_check_max_attempts"),
      lambda: option_default("same_finding_limit"))),
    ("outcomes-and-ci.md", r"circuit breaker: the same finding (\d+) times",
     (lambda: option_default("same_finding_limit"),)),
    ("testing-with-scripted-model.md",
     r"steps\": (\w+) turns of patience and (\w+) more final-check rounds",  # the count: run below
     (scripted_patience, lambda: option_default("final_check_max_attempts") - 1)),
]


@pytest.mark.parametrize(("page", "pattern", "sources"), STEP_CLAIMS,
                         ids=[f"{c[0]}:{n}" for n, c in enumerate(STEP_CLAIMS)])
def test_a_documented_step_count_is_the_codes(page, pattern, sources):
    match = re.search(pattern, (DOCS / page).read_text(encoding="utf-8"))
    assert match, f"{page}: the sentence is gone or reworded: {pattern}"
    stated = [float(NUMBER_WORDS.get(g, g)) for g in match.groups()]
    assert stated == [source() for source in sources], f"{page}: {match.group(0)!r}"


TIMEOUT_WORDS = re.compile(r"timeout|time budget|per call|per attempt|give[s]? up|up to|waits?\b", re.I)
SECONDS = re.compile(r"\b(\d+(?:\.\d+)?) ?s\b")
SCANNED = [p.name for p in DOCS.glob("*.md")
           if p.name not in ("configuration.md", "performance.md", "replay.md")]


def test_settings_and_engine_agree():
    """The two places a default lives (session options, the engine's RunConfig) say the same."""
    config = RunConfig()
    assert option_default("check_timeout") == config.check_timeout_s
    assert option_default("settle_timeout") == config.settle_timeout_s
    assert option_default("final_check_max_attempts") == config.final_check_max_attempts


@pytest.mark.parametrize(("page", "pattern", "sources"), CLAIMS,
                         ids=[f"{c[0]}:{n}" for n, c in enumerate(CLAIMS)])
def test_a_documented_number_is_the_codes(page, pattern, sources):
    text = (DOCS / page).read_text(encoding="utf-8")
    match = re.search(pattern, text)
    assert match, f"{page}: the sentence is gone or reworded: {pattern}"
    stated = [float(g) for g in match.groups()]
    assert stated == [source() for source in sources], f"{page}: {match.group(0)!r}"


def test_every_timeout_number_is_claimed():
    for page in SCANNED:
        text = (DOCS / page).read_text(encoding="utf-8")
        claimed = [m.span() for p, pattern, _ in CLAIMS if p == page for m in re.finditer(pattern, text)]
        for sentence in re.finditer(r"(?:[^.]|\.(?!\s))+", text):  # "60.0s" does not end a sentence
            if not TIMEOUT_WORDS.search(sentence.group(0)):
                continue
            for number in SECONDS.finditer(sentence.group(0)):
                at = sentence.start() + number.start()
                assert any(a <= at < b for a, b in claimed), \
                    f"{page}: {number.group(0)!r} in {sentence.group(0).strip()[:120]!r} is not checked"


def test_the_documented_step_count_of_a_run_that_gives_up(pytester: pytest.Pytester):
    """testing-with-scripted-model.md says how many steps its Airplane example takes when the last tap
    finds nothing ("finish claimed, after N steps"); run it with that tap and count."""
    page = "testing-with-scripted-model.md"
    text = (DOCS / page).read_text(encoding="utf-8")
    stated = re.search(r'"finish claimed,\s+after (\d+) steps"', text)
    assert stated, "the sentence is gone"
    # outcomes-and-ci.md quotes the same run's message.
    quoted = re.search(r"\(finish claimed,\s+after (\d+) steps\)", (DOCS / "outcomes-and-ci.md").read_text())
    assert quoted and quoted.group(1) == stated.group(1)
    files = section_files(page, "A scripted agent, by what a user sees")
    test = files["test_airplane_mode.py"].replace('tap("Airplane mode")', 'tap("Flight mode")')
    assert test != files["test_airplane_mode.py"]
    pytester.makepyfile(test_airplane_mode=test)
    result = pytester.runpytest_subprocess("--artemis-device=sim", "-p", "no:cacheprovider")
    assert result.parseoutcomes() == {"blocked": 1}, result.stdout.str()
    result.stdout.fnmatch_lines([
        f"BLOCKED: the agent's last word: *(finish claimed, after {stated.group(1)} steps)",
        "task blocked: *the plan still has 1 open subgoal: 'Turn on Airplane mode'",
    ])
