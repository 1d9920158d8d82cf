"""Probe checks are dataclasses (pydantic-free to import) that keep the contract rules at every seam: the
checker's replies and the journal validate them from JSON, refuse unknown keys and empty names, and the
JSON schema the checker model receives is closed."""

from __future__ import annotations

import dataclasses

import pytest
from pydantic import TypeAdapter, ValidationError

from pytest_artemis import ProbeCheck as PublicProbeCheck
from pytest_artemis.agents.schemas import CheckReport, ToolRequest
from pytest_artemis.contracts import CheckItem, ProbeCheck, ProbeResult, ProbeSpec
from pytest_artemis.contracts.checks import ProbeCheck as ChecksProbeCheck

CHECK = ProbeCheck(probe=ProbeSpec(kind="setting", params={"ns": "global", "key": "wifi_on"}),
                   name="setting_equals", args={"equals": "1", "strict": True, "n": 3, "none": None},
                   description="Wi-Fi on")
CHECK_JSON = ('{"probe":{"kind":"setting","params":{"ns":"global","key":"wifi_on"}},"name":"setting_equals",'
              '"args":{"equals":"1","strict":true,"n":3,"none":null},"description":"Wi-Fi on"}')


def test_the_public_names_are_one_class() -> None:
    assert PublicProbeCheck is ProbeCheck is ChecksProbeCheck


def test_a_check_item_dumps_its_probe_check_as_the_same_json_object_and_reads_it_back() -> None:
    item = CheckItem(kind="verify", text="Wi-Fi is on", probe=CHECK)
    dumped = item.model_dump_json()
    assert f'"probe":{CHECK_JSON}' in dumped
    back = CheckItem.model_validate_json(dumped)
    assert back == item and isinstance(back.probe, ProbeCheck) and back.probe.args["strict"] is True
    assert CheckItem.model_validate(item.model_dump()) == item
    assert item.model_copy(update={"text": "x"}).probe is CHECK


@pytest.mark.parametrize("reply", [
    '{"tool": "probe_device", "probe": {"kind": ""}}',
    '{"tool": "probe_device", "probe": {"kind": "setting", "command": "reboot"}}',
    '{"tool": "probe_device", "probe": {"kind": "setting", "params": {"ns": 1}}}',
    '{"tool": "probe_device", "probe": {"params": {}}}',
    '{"tool": "probe_device", "probe": "setting"}',
])
def test_the_checker_s_probe_request_is_refused_unless_it_is_a_closed_probe_spec(reply: str) -> None:
    with pytest.raises(ValidationError):
        ToolRequest.model_validate_json(reply)


def test_the_checker_s_probe_request_reads_as_a_probe_spec() -> None:
    request = ToolRequest.model_validate_json('{"tool": "probe_device", "probe": {"kind": "setting", '
                                              '"params": {"ns": "global", "key": "wifi_on"}}}')
    assert request.probe == ProbeSpec(kind="setting", params={"ns": "global", "key": "wifi_on"})


@pytest.mark.parametrize("change", [
    ('"name":"setting_equals"', '"name":""'),
    ('"description":"Wi-Fi on"', '"description":"Wi-Fi on","when":"end"'),
    ('"n":3', '"n":[3]'),
    ('"n":3', '"n":1.5'),
])
def test_a_journaled_probe_check_is_refused_when_it_breaks_the_rules(change: tuple[str, str]) -> None:
    adapter = TypeAdapter(ProbeCheck)
    assert adapter.validate_json(CHECK_JSON) == CHECK
    with pytest.raises(ValidationError):
        adapter.validate_json(CHECK_JSON.replace(*change))


def test_the_schema_the_checker_model_receives_is_closed_with_the_same_fields() -> None:
    spec = CheckReport.model_json_schema()["$defs"]["ProbeSpec"]
    assert spec["additionalProperties"] is False and spec["required"] == ["kind"]
    assert spec["properties"] == {"kind": {"minLength": 1, "title": "Kind", "type": "string"},
                                  "params": {"additionalProperties": {"type": "string"}, "title": "Params",
                                             "type": "object"}}
    check = CheckItem.model_json_schema()["$defs"]["ProbeCheck"]
    assert check["additionalProperties"] is False and check["required"] == ["probe", "name"]
    assert list(check["properties"]) == ["probe", "name", "args", "description"]
    assert check["properties"]["name"]["minLength"] == 1
    assert ProbeResult.model_json_schema()["$defs"]["ProbeSpec"] == spec


@pytest.mark.parametrize("build", [
    lambda: ProbeSpec(kind=""),
    lambda: ProbeSpec(kind=3),  # type: ignore[arg-type]
    lambda: ProbeSpec(kind="setting", params={"ns": 1}),  # type: ignore[dict-item]
    lambda: ProbeSpec(kind="setting", params=[("ns", "global")]),  # type: ignore[arg-type]
    lambda: ProbeCheck(probe={"kind": "setting"}, name="x"),  # type: ignore[arg-type]
    lambda: ProbeCheck(probe=ProbeSpec(kind="setting"), name=""),
    lambda: ProbeCheck(probe=ProbeSpec(kind="setting"), name="x", args={"n": 1.5}),
    lambda: ProbeCheck(probe=ProbeSpec(kind="setting"), name="x", description=None),  # type: ignore[arg-type]
])
def test_building_one_in_python_refuses_what_the_contract_refused(build) -> None:
    with pytest.raises(ValueError, match=r"Probe(Spec|Check)\.\w+ must"):
        build()


def test_a_probe_check_is_frozen_and_keeps_its_own_copy_of_its_arguments() -> None:
    args = {"equals": "1"}
    check = ProbeCheck(probe=ProbeSpec(kind="setting"), name="setting_equals", args=args)
    args["equals"] = "0"
    assert check.args == {"equals": "1"}
    with pytest.raises(dataclasses.FrozenInstanceError):
        check.name = "other"  # type: ignore[misc]
