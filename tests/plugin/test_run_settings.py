"""Per-test settings: session options, then the ``artemis_settings`` fixture, then the artemis marker."""

from __future__ import annotations

import pytest
from plugin_helpers import assert_words, run_junit

from pytest_artemis import RunSettings
from pytest_artemis.contracts import UsageError
from pytest_artemis.engine.config import RunConfig
from pytest_artemis.plugin.options import OPTIONS, TIMEOUTS
from pytest_artemis.plugin.settings import SETTING_NAMES, layer
from pytest_artemis.store import read_run


def test_every_engine_setting_is_reachable_from_pytest():
    """Each RunConfig knob (but the deadline, computed per run) has a setting, and each setting an option."""
    engine = {name.removesuffix("_s") for name in RunConfig.model_fields} - {"deadline", "model_timeouts"}
    assert engine <= set(SETTING_NAMES)
    assert set(TIMEOUTS) <= set(SETTING_NAMES)  # model_timeouts: the call timeouts, per role, and the attempt
    flags = {opt.name for opt in OPTIONS}
    for name in SETTING_NAMES:
        assert name in flags or f"no_{name}" in flags, name


def test_model_timeouts_reach_the_engine_per_role():
    config = RunSettings().replace(model_timeout=300, checker_model_timeout=900).run_config(deadline=None)
    timeouts = config.model_timeouts
    assert (timeouts.call("planner"), timeouts.call("operator"), timeouts.call("checker")) == (300, 300, 900)
    assert (timeouts.attempt("operator"), timeouts.attempt("checker")) == (295, 895)  # the call less 5 s
    default = RunSettings().run_config(deadline=None).model_timeouts
    assert (default.call("operator"), default.attempt("operator")) == (45, 40)
    capped = RunSettings().replace(model_attempt_timeout=60, model_timeout=30).model_timeouts()
    assert capped.attempt("operator") == 30  # never more than the call


def test_settings_reach_the_engine_unchanged():
    settings = RunSettings().replace(max_steps=7, final_check=False, checkpoint_max_repairs=0,
                                     image_max_side=640, checker_probes=False)
    config = settings.run_config(deadline=None)
    assert (config.max_steps, config.final_check, config.checkpoint_max_repairs) == (7, False, 0)
    assert (config.image_max_side, config.checker_probes) == (640, False)


@pytest.mark.parametrize(("changes", "message"), [
    ({"max_step": 3}, "unknown setting max_step"),
    ({"max_steps": 0}, "max_steps=0: Input should be greater than or equal to 1"),
    ({"unchecked": "ignore"}, "unchecked='ignore'"),
])
def test_bad_settings_are_usage_errors_naming_the_field(changes, message):
    with pytest.raises(UsageError) as info:
        layer(RunSettings(), changes, "artemis marker")
    assert message in str(info.value) and str(info.value).startswith("artemis marker: ")


def test_marker_over_fixture_over_session_options(suite):
    suite.makeconftest(suite.path.joinpath("conftest.py").read_text() + '''

@pytest.fixture
def artemis_settings(artemis_settings):
    return artemis_settings.replace(max_steps=9, history_window=2)
''')
    suite.makepyfile(test_layers='''
        import pytest

        pytestmark = pytest.mark.artemis(checkpoint_max_repairs=1)

        @pytest.mark.goal("Turn on Bluetooth")
        @pytest.mark.verify("PASS: Bluetooth is on")
        @pytest.mark.artemis(max_steps=4, final_check=False)
        def test_marked(artemis):
            s = artemis.settings
            assert (s.max_steps, s.final_check, s.history_window) == (4, False, 2)
            assert s.checkpoint_max_repairs == 1
            assert s.no_effect_limit == 6  # the session option

        @pytest.mark.goal("Turn on Bluetooth")
        @pytest.mark.verify("PASS: Bluetooth is on")
        def test_module_defaults(artemis):
            assert (artemis.settings.max_steps, artemis.settings.final_check) == (9, True)
    ''')
    result, cases = run_junit(suite, "--artemis-device=sim", "--artemis-no-effect-limit=6")
    result.assert_outcomes(passed=2)
    config = read_run(cases["test_marked"].props["artemis.artifacts"]).header.config
    assert (config["max_steps"], config["final_check"], config["history_window"]) == (4, False, 2)
    assert config["checkpoint_max_repairs"] == 1 and config["no_effect_limit"] == 6


def test_unchecked_policy_per_test(suite):
    suite.makepyfile(test_strict='''
        import pytest

        @pytest.mark.goal("Turn on Bluetooth")
        @pytest.mark.verify("PASS: Bluetooth is on")
        @pytest.mark.assert_("MAYBE: a toast appears")
        @pytest.mark.artemis(unchecked="fail")
        def test_strict(artemis):
            pass

        @pytest.mark.goal("Turn on Bluetooth")
        @pytest.mark.verify("PASS: Bluetooth is on")
        @pytest.mark.assert_("MAYBE: a toast appears")
        def test_lenient(artemis):
            pass
    ''')
    result, cases = run_junit(suite, "--artemis-device=sim")
    assert_words(result, failed=1, unchecked=1)
    assert cases["test_strict"].result == "failure" and "UNCHECKED (strict)" in cases["test_strict"].message
    assert cases["test_lenient"].result == "skipped:pytest.xfail"


def test_a_bad_marker_is_a_collection_error_under_the_test_id(suite):
    suite.makepyfile(test_bad='''
        import pytest

        @pytest.mark.goal("Turn on Bluetooth")
        @pytest.mark.artemis(max_step=3)
        def test_typo(artemis):
            pass

        @pytest.mark.goal("Turn on Bluetooth")
        @pytest.mark.artemis(final_check="sometimes")
        def test_bad_value(artemis):
            pass

        @pytest.mark.goal("Turn on Bluetooth")
        def test_fine(artemis):
            pass
    ''')
    result = suite.runpytest("--artemis-device=sim", "--collect-only", "-q")
    result.stdout.fnmatch_lines([
        "*test_bad.py::test_typo: @pytest.mark.artemis: unknown setting max_step (known: max_steps, *",
        "*test_bad.py::test_bad_value: @pytest.mark.artemis: final_check='sometimes': Input should be a*",
    ])
    result.stdout.fnmatch_lines(["*test_bad.py::test_fine*"])


def test_new_session_options_resolve_from_env_and_ini(suite, monkeypatch):
    monkeypatch.setenv("ARTEMIS_CHECKPOINT_MAX_REPAIRS", "0")
    suite.makeini("[pytest]\nartemis_no_checker_probes = true\nartemis_image_max_side = 800\n"
                  "artemis_reset = full\n")
    suite.makepyfile(test_opts='''
        def test_session(artemis_settings):
            assert artemis_settings.checkpoint_max_repairs == 0
            assert artemis_settings.checker_probes is False and artemis_settings.image_max_side == 800
    ''')
    suite.runpytest("--artemis-device=sim").assert_outcomes(passed=1)
