"""The screen signature: the clock, battery and status-bar icons do not count; the app's content does."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_artemis.device.hierarchy import HierarchyParseError
from pytest_artemis.device.signature import canonical_listing, screen_signature
from pytest_artemis.sim import SimPhone

# A real vivo dump with the notification shade open ("2 minutes ago", notification counts); see SOURCES.md.
SHADE = Path(__file__).with_name("data") / "vivo_android15_shade.xml"


def test_the_simulated_status_bar_changes_and_the_signature_does_not():
    phone = SimPhone("emulator-5554")
    phone.launch("com.google.android.deskclock")
    before = phone.hierarchy_xml()
    phone.advance(3 * 60 * 60 * 1000)  # three hours later
    phone.battery_level = 17
    phone.put_setting("global", "wifi_on", "0")
    after = phone.hierarchy_xml()
    assert after != before and 'text="17%"' in after
    assert screen_signature(after) == screen_signature(before)


def test_the_app_content_changes_the_signature():
    phone = SimPhone("emulator-5554")
    phone.launch("com.android.settings")
    before = screen_signature(phone.hierarchy_xml())
    phone.put_setting("global", "bluetooth_on", "1")  # the main page's summary says "Bluetooth is on"
    assert screen_signature(phone.hierarchy_xml()) != before


def test_digits_in_the_notification_shade_are_masked_and_app_digits_are_not():
    xml = SHADE.read_text(encoding="utf-8")
    assert "2 minutes ago" in xml
    assert screen_signature(xml.replace("2 minutes ago", "7 minutes ago")) == screen_signature(xml)
    app = ('<hierarchy rotation="0"><node package="com.google.android.deskclock" text="7:30 AM" '
           'bounds="[0,0][10,10]" /></hierarchy>')
    assert screen_signature(app.replace("7:30", "8:30")) != screen_signature(app)


def test_the_status_bar_subtree_is_left_out_whole():
    bar = ('<node package="com.android.systemui" resource-id="com.android.systemui:id/status_bar" '
           'bounds="[0,0][1080,110]">{icons}</node>')
    app = '<node package="com.android.settings" text="Wi-Fi" bounds="[0,200][1080,300]" />'
    one = f'<hierarchy rotation="0">{bar.format(icons="")}{app}</hierarchy>'
    icon = '<node package="com.android.systemui" content-desc="Gmail notification" bounds="[0,0][9,9]" />'
    two = f'<hierarchy rotation="0">{bar.format(icons=icon)}{app}</hierarchy>'
    assert screen_signature(one) == screen_signature(two)
    listing = canonical_listing(one)
    assert listing[0] == "rotation=0" and len(listing) == 2 and "\x1fWi-Fi\x1f" in listing[1]
    assert screen_signature(one.replace('rotation="0"', 'rotation="1"')) != screen_signature(one)


def test_a_signature_is_versioned_and_short():
    assert screen_signature('<hierarchy rotation="0"/>').startswith("s1:")
    assert len(screen_signature('<hierarchy rotation="0"/>')) == 35


@pytest.mark.parametrize("text", ["", "not xml", "<html/>"])
def test_what_is_not_a_hierarchy_is_refused(text):
    with pytest.raises(HierarchyParseError):
        screen_signature(text)
