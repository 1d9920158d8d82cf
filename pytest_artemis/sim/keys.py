"""Android key codes accepted by ``input keyevent`` (names with or without
``KEYCODE_``, or numbers) and the characters typing keys produce."""

from __future__ import annotations

KEYCODES = {
    "HOME": 3, "BACK": 4, "CALL": 5, "ENDCALL": 6, "DPAD_UP": 19, "DPAD_DOWN": 20,
    "DPAD_LEFT": 21, "DPAD_RIGHT": 22, "DPAD_CENTER": 23, "VOLUME_UP": 24, "VOLUME_DOWN": 25,
    "POWER": 26, "CAMERA": 27, "COMMA": 55, "PERIOD": 56, "TAB": 61, "SPACE": 62, "ENTER": 66,
    "DEL": 67, "MENU": 82, "SEARCH": 84, "MEDIA_PLAY_PAUSE": 85, "ESCAPE": 111, "FORWARD_DEL": 112,
    "MOVE_HOME": 122, "MOVE_END": 123, "VOLUME_MUTE": 164, "APP_SWITCH": 187, "SLEEP": 223,
    "WAKEUP": 224,
}
KEYCODES.update({str(d): 7 + d for d in range(10)})
KEYCODES.update({chr(65 + i): 29 + i for i in range(26)})
KEY_CHARS = {v: k.lower() for k, v in KEYCODES.items() if len(k) == 1}
KEY_CHARS.update({KEYCODES["SPACE"]: " ", KEYCODES["COMMA"]: ",", KEYCODES["PERIOD"]: "."})


def parse_keycode(token: str) -> int | None:
    """``KEYCODE_BACK``, ``BACK`` or ``4`` -> 4; None when unknown."""
    if token.isdigit():
        return int(token)
    name = token.upper()
    return KEYCODES.get(name[8:] if name.startswith("KEYCODE_") else name)
