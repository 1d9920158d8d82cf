"""Whole runs on phones whose screenshots travel as raw frames or, where those are not read, as PNG."""

from __future__ import annotations

import hashlib
import io

import pytest
from fault_harness import run_matrix
from PIL import Image

DISPLAYS = '''
import pytest
from fault_scripts import SETTINGS, bluetooth_respond as respond
from pytest_artemis import probes


DISPLAY = {"test_srgb_display": "RGBA_8888", "test_hdr_display": "RGBA_1010102"}


@pytest.fixture(autouse=True)
def display(request, artemis_device):
    artemis_device.check(["simctl", "fault", "clear"])
    artemis_device.check(["simctl", "fault", "screencap-raw", DISPLAY[request.node.name]])
    artemis_device.check(["settings", "put", "global", "bluetooth_on", "0"])
    artemis_device.stop(SETTINGS)


def display_test():
    @pytest.mark.goal("Turn on Bluetooth", app=SETTINGS)
    @pytest.mark.verify("Bluetooth is on", probe=probes.setting("global", "bluetooth_on", equals=True))
    def test(artemis):
        pass
    return test


test_srgb_display = display_test()
test_hdr_display = display_test()
'''


@pytest.mark.parametrize(("name", "raw"), [("test_srgb_display", True), ("test_hdr_display", False)])
def test_a_run_records_every_screen_losslessly_whichever_way_its_frames_travel(project, name: str,
                                                                               raw: bool) -> None:
    project.makepyfile(test_displays=DISPLAYS)
    matrix = run_matrix(project, "-k", name)  # one device per session: its first screenshot decides
    matrix.expect(name, "PASSED")
    record = matrix.journal(name)
    assert record.notices == () and record.steps
    for step in record.steps:
        for ref in (step.pre_screen, step.post_screen):
            assert ref is not None
            png = record.screen_path(ref).read_bytes()
            with Image.open(io.BytesIO(png)) as img:
                assert img.size == (1080, 2400) and img.mode == "RGB"
            # a PNG from the phone is stored as it came, named by its bytes; a raw frame by the frame's
            assert (hashlib.sha256(png).hexdigest() == ref) is not raw
