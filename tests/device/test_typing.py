"""What ``type`` does to a field, the same on every path: ``input text`` inserts at the cursor (it appends to
a field whose cursor is at its end), and ``clear`` empties the field with MOVE_END and one DEL per
character, in one ``input keyevent``."""

from __future__ import annotations

import pytest

from pytest_artemis.contracts import TypeText
from pytest_artemis.device import AdbDevice
from pytest_artemis.device.perception import perceive
from pytest_artemis.engine.actions import ActionRefused, perform

CLOCK = "com.google.android.deskclock"
CONTACTS = "com.android.contacts"
FIRST = "com.android.contacts:id/first_name"


def _text(device: AdbDevice, resource_id: str) -> str:
    return next(e.text for e in device.hierarchy().elements if e.resource_id == resource_id)


def _index(device: AdbDevice, resource_id: str) -> int:
    return next(e.index for e in perceive(device).view.elements if e.resource_id == resource_id)


def _editor(device: AdbDevice) -> None:
    device.launch(CONTACTS, ".activities.ContactEditorActivity")


def test_typing_appends_to_what_the_field_holds(device: AdbDevice) -> None:
    _editor(device)
    view = perceive(device).view
    perform(device, view, TypeText(text="Ada", element=_index(device, FIRST)))
    view = perceive(device).view
    perform(device, view, TypeText(text=" Lovelace", element=_index(device, FIRST)))
    assert _text(device, FIRST) == "Ada Lovelace"


def test_clear_empties_the_field_first_and_records_what_it_deleted(device: AdbDevice) -> None:
    _editor(device)
    perform(device, perceive(device).view, TypeText(text="Ada Lovelace", element=_index(device, FIRST)))
    result = perform(device, perceive(device).view,
                     TypeText(text="Grace", element=_index(device, FIRST), clear=True))
    assert _text(device, FIRST) == "Grace"
    assert result.cleared == len("Ada Lovelace") and result.typed == "Grace"
    assert result.detail.startswith("cleared 12 chars, typed 5 chars into ")


def test_clear_without_an_element_empties_the_focused_field(device: AdbDevice) -> None:
    _editor(device)
    perform(device, perceive(device).view, TypeText(text="Ada", element=_index(device, FIRST)))
    view = perceive(device).view
    assert next(e for e in view.elements if e.focused).resource_id == FIRST
    perform(device, view, TypeText(text="Alan", clear=True))
    assert _text(device, FIRST) == "Alan"


def test_clear_with_no_field_to_clear_is_refused_before_anything_runs(device: AdbDevice) -> None:
    view = perceive(device).view  # the launcher: nothing is focused
    assert not any(e.focused for e in view.elements)
    with pytest.raises(ActionRefused, match="type with clear needs its field"):
        perform(device, view, TypeText(text="x", clear=True))


def test_a_prefilled_picker_field_is_replaced_by_the_first_key_until_the_cursor_moves(device: AdbDevice):
    device.launch(CLOCK)
    add = perceive(device).view.find(content_desc="Add alarm")
    assert add is not None
    device.tap(*add.center)
    hour = "com.google.android.deskclock:id/material_hour_text_input"
    minute = "com.google.android.deskclock:id/material_minute_text_input"
    assert (_text(device, hour), _text(device, minute)) == ("9", "00")
    perform(device, perceive(device).view, TypeText(text="4", element=_index(device, minute)))
    device.type_text("5")  # the first key replaced the prefilled value; the next one appends
    assert _text(device, minute) == "45"
    device.tap(*next(e for e in perceive(device).view.elements if e.resource_id == hour).center)
    device.check(["input", "keyevent", "KEYCODE_MOVE_END"])
    device.type_text("1")  # the cursor moved to the end: typing appends, as in any field
    assert _text(device, hour) == "91"
    perform(device, perceive(device).view, TypeText(text="6", element=_index(device, hour), clear=True))
    assert (_text(device, hour), _text(device, minute)) == ("6", "45")


def test_clear_is_one_input_command_however_many_characters(server, device: AdbDevice) -> None:
    _editor(device)
    perform(device, perceive(device).view, TypeText(text="Lovelace", element=_index(device, FIRST)))
    server.requests.clear()
    device.clear_text(8)
    services = [r.split(";", 1)[0] for r in server.requests if not r.startswith("host:")]
    assert services == ["exec:input keyevent KEYCODE_MOVE_END " + " ".join(["KEYCODE_DEL"] * 8)]
    assert _text(device, FIRST) == "First name"  # empty: the field shows its hint
