"""The probe table refuses everything outside it: unknown kinds, bad parameters, state changes."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from pytest_artemis.contracts import ProbeSpec, UsageError, probe_outputs
from pytest_artemis.contracts.output_refs import BUILTIN_OUTPUTS
from pytest_artemis.contracts.probe_outputs import TextOutput
from pytest_artemis.device import ProbeKind, ProbeRefused, ProbeTable, builtin_probes, parsers, probe_table
from pytest_artemis.device.parsers import parse_prop

TABLE = builtin_probes()


def spec(kind: str, **params: str) -> ProbeSpec:
    return ProbeSpec(kind=kind, params=params)


def test_built_in_argv() -> None:
    assert TABLE.argv(spec("setting", ns="global", key="wifi_on")) == [
        "settings", "get", "global", "wifi_on"]
    assert TABLE.argv(spec("alarms")) == ["dumpsys", "alarm"]
    assert TABLE.argv(spec("settings", ns="secure")) == ["settings", "list", "secure"]
    assert TABLE.argv(spec("content", uri="content://com.android.contacts/data/phones",
                                    projection="display_name:data1")) == [
        "content", "query", "--uri", "content://com.android.contacts/data/phones",
        "--projection", "display_name:data1"]
    assert TABLE.argv(spec("prop", key="ro.product.model")) == ["getprop", "ro.product.model"]
    assert {k.name for k in TABLE} == {
        "alarms", "battery", "foreground", "window_focus", "notifications", "setting", "content",
        "packages", "prop", "settings"}


def test_refusal_is_a_usage_error() -> None:
    assert issubclass(ProbeRefused, UsageError)


@pytest.mark.parametrize("kind", ["shell", "reboot", "Settings", "battery_set", ""])
def test_unknown_kinds_refused(kind: str) -> None:
    if not kind:
        pytest.raises(ValueError, ProbeSpec, kind=kind)  # the contract itself refuses an empty kind
        return
    with pytest.raises(ProbeRefused, match="unknown probe kind"):
        TABLE.validate(spec(kind))


@pytest.mark.parametrize("key", [
    "wifi_on;reboot", "wifi_on; reboot", "$(reboot)", "`reboot`", "wifi_on|sh", "a&&b", "a>/sdcard/x",
    "a<b", "wifi_on\nreboot", "wifi_on\n", "a b", "a\tb", "'x'", '"x"', "x\\y", "-rf", "--bind",
])
def test_metacharacters_whitespace_and_options_refused(key: str) -> None:
    with pytest.raises(ProbeRefused):
        TABLE.argv(spec("setting", ns="global", key=key))


@pytest.mark.parametrize("value", ["put", "PUT", "set", "delete", "insert", "update", "reset"])
def test_state_changing_words_refused(value: str) -> None:
    with pytest.raises(ProbeRefused, match="state-changing"):
        TABLE.validate(spec("setting", ns="global", key=value))


def test_namespace_pattern_and_parameter_set() -> None:
    with pytest.raises(ProbeRefused, match="does not match"):
        TABLE.validate(spec("setting", ns="private", key="x"))
    with pytest.raises(ProbeRefused, match="missing"):
        TABLE.validate(spec("setting", ns="global"))
    with pytest.raises(ProbeRefused, match="unknown parameter"):
        TABLE.validate(spec("battery", action="set"))  # `dumpsys battery set ...` is unreachable
    with pytest.raises(ProbeRefused, match="unknown parameter"):
        TABLE.validate(spec("setting", ns="global", key="wifi_on", value="0"))


@pytest.mark.parametrize("uri", [
    "http://evil", "file:///sdcard/x", "content://", "content://a b", "content://x/../y?z=1",
    "content://com.android.contacts/data?limit=1", "content://x#frag", "content://x/y;rm",
])
def test_content_uri_pattern(uri: str) -> None:
    with pytest.raises(ProbeRefused):
        TABLE.validate(spec("content", uri=uri))


def test_register_plugin_probe_under_same_rules() -> None:
    table = builtin_probes()
    table.register(ProbeKind("dumpsys_service", ("dumpsys", "{service}"),
                             params={"service": r"[a-z_]{1,40}"}))
    assert table.argv(spec("dumpsys_service", service="wifi")) == ["dumpsys", "wifi"]
    with pytest.raises(ProbeRefused):
        table.argv(spec("dumpsys_service", service="wifi;reboot"))
    # Each session builds its own table: registering in one never reaches another.
    assert "dumpsys_service" not in builtin_probes()
    with pytest.raises(ProbeRefused, match="already registered"):
        table.register(ProbeKind("dumpsys_service", ("dumpsys", "wifi")))
    assert table.parse(spec("dumpsys_service", service="wifi"), " on \n") == TextOutput(text="on")


def test_a_builtin_parser_bug_propagates(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(raw: str, params: object) -> TextOutput:
        raise ZeroDivisionError("a bug in our own parser")

    prop = next(kind for kind in probe_table._BUILTIN_KINDS if kind.name == "prop")
    monkeypatch.setattr(probe_table, "_BUILTIN_KINDS", (dataclasses.replace(prop, parser=broken),))
    with pytest.raises(ZeroDivisionError, match="a bug in our own parser"):
        probe_table.builtin_probes().parse(spec("prop", key="ro.build.version.sdk"), "34\n")


def test_every_built_in_kind_parses_with_its_parser_of_that_name() -> None:
    # The built-in kinds name their parsers (loaded at the first parse), so a typo would surface only then.
    for kind in TABLE:
        assert isinstance(kind.parser, probe_table.BuiltinParser)
        assert callable(getattr(parsers, kind.parser.name)), kind.name
    read = TABLE.parse(spec("prop", key="ro.product.model"), "Pixel 8\n")
    assert read == parse_prop("Pixel 8\n", {"key": "ro.product.model"})


def test_a_builtin_parser_is_an_immutable_value_as_a_frozen_dataclass_was() -> None:
    # Written out (cheaper to define at import than a dataclass): kinds holding one still compare by value.
    parser = probe_table.BuiltinParser("parse_prop")
    assert parser == probe_table.BuiltinParser("parse_prop") != probe_table.BuiltinParser("parse_text")
    assert hash(parser) == hash(probe_table.BuiltinParser("parse_prop"))
    assert repr(parser) == "BuiltinParser(name='parse_prop')"
    with pytest.raises(AttributeError):
        parser.name = "parse_text"  # type: ignore[misc]
    prop = next(kind for kind in probe_table._BUILTIN_KINDS if kind.name == "prop")
    assert dataclasses.replace(prop, parser=probe_table.BuiltinParser("parse_prop")) == prop


def test_every_built_in_kind_names_a_built_in_output_model_that_no_other_subclasses() -> None:
    # Collection compares the built-in names without loading the models: equal names must mean issubclass.
    models = {name: obj for name, obj in vars(probe_outputs).items()
              if inspect.isclass(obj) and issubclass(obj, probe_outputs.ProbeOutput)
              and obj is not probe_outputs.ProbeOutput}
    assert set(models) == BUILTIN_OUTPUTS
    assert all(model.__bases__ == (probe_outputs.ProbeOutput,) for model in models.values())
    assert {kind.output for kind in TABLE} <= BUILTIN_OUTPUTS
    read = TABLE.parse(spec("prop", key="ro.product.model"), "Pixel 8\n")
    assert isinstance(read, probe_outputs.PropOutput)


def test_plugin_parser_failures_are_unreadable() -> None:
    def broken(raw: str, params: object) -> TextOutput:
        raise ValueError("boom")

    table = ProbeTable((ProbeKind("broken", ("getprop",), parser=broken),
                        ProbeKind("liar", ("getprop",), parser=parse_prop, output=TextOutput),
                        ProbeKind("named_liar", ("getprop",), parser=parse_prop, output="SettingOutput")))
    assert table.parse(spec("broken"), "x").reason == "the 'broken' parser raised ValueError: boom"
    assert table.parse(spec("liar"), "x").reason == "the 'liar' parser returned PropOutput, not TextOutput"
    assert table.parse(spec("named_liar"), "x").reason == ("the 'named_liar' parser returned PropOutput, "
                                                             "not SettingOutput")


@pytest.mark.parametrize("kind", [
    ProbeKind("put_setting", ("settings", "put", "global", "{key}", "1"), params={"key": r"\w+"}),
    ProbeKind("battery_set", ("dumpsys", "battery", "set", "level", "5")),
    ProbeKind("bind", ("content", "query", "--bind", "x")),
    ProbeKind("shell_string", ("sh -c reboot",)),
    ProbeKind("substituted", ("settings", "get", "global", "x{key}"), params={"key": r"\w+"}),
    ProbeKind("no_pattern", ("getprop", "{key}")),
    ProbeKind("Bad Name", ("getprop",)),
    ProbeKind("empty", ()),
    ProbeKind("untyped", ("getprop",), output=dict),  # type: ignore[arg-type]
    ProbeKind("unknown_model", ("getprop",), output="UptimeOutput"),
])
def test_register_refuses_unsafe_templates(kind: ProbeKind) -> None:
    with pytest.raises(ProbeRefused):
        ProbeTable().register(kind)
