"""Model-provider mistakes end to end against the local OpenAI-compatible server: one clear message in the
provider's own words, no retry of configuration errors, the session stops calling, a hang is bounded."""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from plugin_helpers import assert_words, run_junit

from pytest_artemis.store import read_run

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "models"))
from fake_openai_server import FakeOpenAI, Reply, error  # noqa: E402

TWO_GOALS = '''
import pytest


@pytest.mark.goal("Open the settings")
@pytest.mark.verify("The settings screen is shown")
def test_first(artemis):
    pass


@pytest.mark.goal("Open the clock")
@pytest.mark.verify("The clock screen is shown")
def test_second(artemis):
    pass
'''


@pytest.fixture(scope="module", autouse=True)
def _litellm_imported_once():
    """Imported by the test process, so in-process runs share it: it is neither re-imported per run (its
    import time would be spent from the 2 s budget) nor dropped from ``sys.modules`` between runs."""
    pytest.importorskip("litellm")


@pytest.fixture
def server():
    with FakeOpenAI() as running:
        yield running


@pytest.fixture
def project(pytester, monkeypatch):
    for name in ("OPENAI_API_KEY", "ARTEMIS_API_KEY", "ARTEMIS_MODEL", "CI"):
        monkeypatch.delenv(name, raising=False)
    pytester.makepyfile(test_goals=TWO_GOALS)
    return pytester


def _run(project, server, *args):
    return run_junit(project, "--artemis-device=sim", "--artemis-model=openai/test-model",
                     f"--artemis-api-base={server.api_base}", *args)


def test_a_missing_api_key_is_a_credentials_error_in_the_providers_words_and_stops_the_session(
        project, server):
    # The session-start check finds it first: one line, exit code 4 (tests/plugin/test_preflight.py).
    stopped = project.runpytest("-p", "no:cacheprovider", "--artemis-device=sim",
                                "--artemis-model=openai/test-model")
    assert stopped.ret == pytest.ExitCode.USAGE_ERROR and "OPENAI_API_KEY" in stopped.stderr.str()
    # Past the opt-out (credentials that come another way), the provider's own refusal says the same.
    result, cases = run_junit(project, "--artemis-device=sim", "--artemis-model=openai/test-model",
                              "--artemis-no-credentials-check")
    assert_words(result, errors=2)
    first, second = cases["test_first"], cases["test_second"]
    assert "ModelCredentialsError" in first.message and "credentials" in first.message
    assert "OPENAI_API_KEY" in first.message  # the provider's own words, not "HTTP 500"
    assert "set the provider's API key" in first.message and "HTTP 500" not in first.message
    assert second.props["artemis.execution"] == "not-started"
    assert "ProviderNotCalled" in second.message and "test_goals.py::test_first" in second.message
    assert server.requests == []  # nothing reached the server, nothing was retried
    types = {tc.get("name"): tc.find("error").get("type")
             for tc in ET.parse(project.path / "junit.xml").getroot().iter("testcase")}
    assert types == {"test_first": "artemis.infra.model.ModelCredentialsError",
                     "test_second": "artemis.infra.model.ProviderNotCalled"}


def test_a_mistyped_model_is_an_unknown_model_error_asked_once(project, server):
    server.script(error(404, "The model `test-model` does not exist or you do not have access to it.",
                        code="model_not_found"))
    result, cases = _run(project, server, "--artemis-api-key=sk-test-0123456789")
    assert_words(result, errors=2)
    first = cases["test_first"]
    assert "ModelNotFound" in first.message and "unknown model (HTTP 404)" in first.message
    assert "The model `test-model` does not exist" in first.message
    assert "check --artemis-model" in first.message
    assert "ProviderNotCalled" in cases["test_second"].message
    assert len(server.requests) == 1  # one request for the whole session: no retry, no second test
    assert "sk-test-0123456789" not in result.stdout.str() + (project.path / "junit.xml").read_text()


def test_a_provider_down_three_runs_in_a_row_stops_the_session(project, server):
    project.makepyfile(test_more='''
        import pytest

        @pytest.mark.parametrize("n", range(4))
        @pytest.mark.goal("Open the settings")
        def test_down(artemis, n):
            pass
    ''')
    server.script(error(503, "upstream overloaded"))
    result, cases = _run(project, server, "--artemis-api-key=sk-test-0123456789", "test_more.py")
    assert_words(result, errors=4)
    assert len(server.requests) == 3 * 3  # three runs, each tried three times; the fourth never called
    assert "3 runs in a row failed on the provider" in cases["test_down[3]"].message


def test_a_hanging_provider_is_given_up_on_within_the_run_budget(project, server):
    server.script(Reply(content="{}", delay_s=30))
    result, cases = _run(project, server, "--artemis-api-key=sk-test-0123456789",
                         "--artemis-time-budget=2", "-k", "first")
    assert_words(result, errors=1, deselected=1)
    case = cases["test_first"]
    assert "ModelTimeout" in case.message and "the run's time budget" in case.message
    duration = float(next(ET.parse(project.path / "junit.xml").getroot().iter("testcase")).get("time"))
    assert duration < 15  # bounded by the 2 s budget (plus the setup), not by the 30 s hang


def test_a_local_server_without_a_key_is_called_without_one(project, server):
    server.script(error(404, "The model `test-model` does not exist", code="model_not_found"))
    result, cases = _run(project, server, "-k", "first")
    assert "ModelNotFound" in cases["test_first"].message  # the server answered: no credentials error
    assert len(server.requests) == 1 and server.request_headers[0].get("authorization") == "Bearer no-key"


def test_a_slow_model_times_out_naming_the_option_that_gives_it_more_time(project, server):
    server.script(Reply(content="{}", delay_s=30))
    result, cases = _run(project, server, "--artemis-api-key=sk-test-0123456789",
                         "--artemis-model-timeout=1.5", "-k", "first")
    assert_words(result, errors=1, deselected=1)
    message = cases["test_first"].message
    assert "ModelTimeout" in message and "no answer within the planner call timeout of 1.5s" in message
    assert "raise --artemis-model-timeout" in message and "--artemis-time-budget" not in message
    duration = float(next(ET.parse(project.path / "junit.xml").getroot().iter("testcase")).get("time"))
    assert duration < 15  # bounded by the 1.5 s call timeout, not by the 30 s hang


def test_the_default_call_limits_give_up_within_a_minute():
    from pytest_artemis.contracts import ModelTimeouts
    from pytest_artemis.models import LiteLLMModel

    model = LiteLLMModel("openai/any")
    assert model.timeout_s is None and model.budget_s is None  # the run's settings, else these:
    assert ModelTimeouts().attempt("operator") <= ModelTimeouts().call("operator") <= 60


@pytest.mark.slow
def test_a_real_model_session_fetches_no_price_list_and_prints_no_third_party_warnings(project, server,
                                                                                        monkeypatch):
    monkeypatch.delenv("LITELLM_OFFLINE_MODE", raising=False)
    monkeypatch.delenv("LITELLM_LOCAL_MODEL_COST_MAP", raising=False)
    server.script(error(404, "The model `test-model` does not exist", code="model_not_found"))
    result = project.runpytest_subprocess(
        "-p", "no:cacheprovider", "--artemis-device=sim", "--artemis-model=openai/test-model",
        f"--artemis-api-base={server.api_base}", "--artemis-api-key=sk-test-0123456789")
    output = result.stdout.str() + result.stderr.str()
    assert "ModelNotFound" in output
    assert "cost map" not in output and "LiteLLM:WARNING" not in output and "warnings summary" not in output


@pytest.mark.slow
def test_a_hard_timeout_during_a_model_call_closes_the_journal_with_the_reason(project, server):
    # The conftest pushes the run's cooperative deadline past pytest-timeout's (as a call that outlives its
    # budget would), so the hard timer really fires while the planner's request hangs on the server.
    project.makeconftest('''
        import time

        import litellm  # imported beforehand: the timer fires during the request, not the import
        import pytest

        from pytest_artemis.plugin.timeout import deadline_key


        @pytest.hookimpl(wrapper=True)
        def pytest_timeout_set_timer(item, settings):
            armed = yield
            item.stash[deadline_key] = time.time() + 600
            return armed
    ''')
    server.script(Reply(content="{}", delay_s=60))
    result, cases = run_junit(
        project, "--artemis-device=sim", "--artemis-model=openai/test-model",
        f"--artemis-api-base={server.api_base}", "--artemis-api-key=sk-SENTINEL-0123456789",
        "--timeout=4", "-k", "first", subprocess=True)
    assert_words(result, errors=1, deselected=1)
    assert len(server.requests) == 1  # the call was in flight when the timer fired
    case = cases["test_first"]
    assert case.result == "error" and "Timeout (>4.0s) from pytest-timeout" in case.message
    assert case.props["artemis.execution"] == "interrupted" and case.props["artemis.outcome"] == "ERROR"
    record = read_run(case.props["artemis.artifacts"])
    assert record.execution == "interrupted"
    assert record.outcome.stop_reason == "interrupted (Failed: Timeout (>4.0s) from pytest-timeout.)"
    assert "stop reason: interrupted (Failed: Timeout (>4.0s)" in result.stdout.str()
    written = "".join(p.read_text(errors="replace") for p in Path(record.dir).rglob("*") if p.is_file())
    everything = result.stdout.str() + result.stderr.str() + (project.path / "junit.xml").read_text()
    assert "sk-SENTINEL-0123456789" not in everything + written


def test_the_provider_library_is_loaded_before_the_runs_clock_starts(project, server):
    """A cold import of litellm takes seconds: paid before the run, it cannot eat a tight time budget."""
    project.makeconftest('''
import sys


def pytest_artemis_run_start(item, spec, device, artifacts):
    (artifacts / "litellm-loaded").write_text(str("litellm" in sys.modules))
''')
    server.script(Reply(content="{}", delay_s=30))
    result = project.runpytest_subprocess(
        "--artemis-device=sim", "--artemis-model=openai/test-model", f"--artemis-api-base={server.api_base}",
        "--artemis-api-key=sk-test-0123456789", "--artemis-time-budget=2", "-k", "first",
        "-p", "no:cacheprovider")
    assert result.ret == 1
    (marker,) = (project.path / ".artemis").rglob("litellm-loaded")
    assert marker.read_text() == "True"  # in a fresh process, so the plugin itself imported it
