"""Raw screen frames end to end: what the phone's ``screencap`` writes, read without a PNG round trip."""

from __future__ import annotations

import hashlib
import io
import struct

import pytest
from PIL import Image, ImageChops

from pytest_artemis.device import AdbDevice, model_image
from pytest_artemis.device.adb import verified_png
from pytest_artemis.device.frames import FormatNotRead, FrameUnusable, parse_frame
from pytest_artemis.device.model_image import model_jpeg

W, H = 1080, 2400


def _shown(phone) -> Image.Image:
    """The phone's screen as its own ``screencap -p`` shows it."""
    with Image.open(io.BytesIO(phone.screenshot_png())) as img:
        return img.convert("RGB")


def test_a_raw_frame_crosses_adb_exec_out_byte_exact_and_names_the_screen(device: AdbDevice, phone,
                                                                           adb_cli) -> None:
    out = adb_cli("exec-out", "screencap")
    assert out.returncode == 0 and out.stdout == phone.screenshot_raw()
    # Android 9+: width, height, RGBA_8888 (1), sRGB (1), then the rows without padding
    assert struct.unpack_from("<4I", out.stdout) == (W, H, 1, 1) and len(out.stdout) == 16 + W * H * 4
    capture = device.screenshot()
    assert capture.frame is not None and capture.sha256 == hashlib.sha256(out.stdout).hexdigest()


@pytest.mark.parametrize(("pixel_format", "header"), [
    ("RGBA_8888", 12), ("RGBX_8888", 16), ("RGB_888", 16), ("BGRA_8888", 16), ("RGB_565", 16)])
def test_every_pixel_format_read_gives_the_screens_own_pixels(device: AdbDevice, phone, pixel_format: str,
                                                              header: int) -> None:
    phone.faults.raw_screencap(pixel_format, header)
    capture = device.screenshot()
    assert capture.frame is not None
    assert (capture.frame.pixel_format.name, capture.frame.header) == (pixel_format, header)
    with Image.open(io.BytesIO(capture.png)) as stored:
        assert stored.mode == "RGB"  # an opaque screen is stored without its alpha byte, losing nothing
        difference = ImageChops.difference(stored.convert("RGB"), _shown(phone))
    # 5 and 6 bits a channel keep the top bits of each: off by less than one step of theirs
    worst = (7, 3, 7) if pixel_format == "RGB_565" else (0, 0, 0)
    assert tuple(high for _, high in difference.getextrema()) <= worst


def test_the_model_sees_the_same_image_from_a_raw_frame_as_from_the_png(device: AdbDevice, phone) -> None:
    raw = device.screenshot()
    png = verified_png(phone.screenshot_png())
    assert raw.frame is not None and png.frame is None and raw.sha256 != png.sha256
    assert model_jpeg(raw, 1280) == model_jpeg(png, 1280)


def test_a_device_whose_frames_are_not_read_here_is_read_as_png_from_its_first_screenshot(
        device: AdbDevice, phone) -> None:
    phone.faults.raw_screencap("RGBA_1010102")  # a 10-bit HDR display
    first = device.screenshot()
    assert first.frame is None and first.sha256 == hashlib.sha256(phone.screenshot_png()).hexdigest()
    phone.faults.raw_screencap()
    assert device.screenshot().frame is None  # decided once for the device, not asked again


def test_a_frame_of_another_format_later_turns_the_device_to_png_without_an_error(device: AdbDevice,
                                                                                    phone) -> None:
    assert device.screenshot().frame is not None
    phone.faults.raw_screencap("RGBA_1010102")
    later = device.screenshot()
    assert later.frame is None and later.png == phone.screenshot_png()


def test_a_pty_only_device_is_read_as_png(device: AdbDevice, phone) -> None:
    phone.faults.legacy_adbd()
    capture = device.screenshot()
    assert capture.frame is None and capture.png == phone.screenshot_png()


def _frame(header: int = 16, width: int = 3, height: int = 2, number: int = 1) -> bytes:
    words = [width, height, number] + ([1] if header == 16 else [])
    return struct.pack(f"<{len(words)}I", *words) + bytes(range(width * height * 4))


def test_the_header_size_follows_from_the_length_and_the_pixels_are_not_copied() -> None:
    for header in (12, 16):
        data = bytearray(_frame(header))
        frame = parse_frame(data)
        assert (frame.width, frame.height, frame.header) == (3, 2, header)
        data[header] = 0xAB  # a view of the buffer read, not a copy
        assert frame.pixels[0] == 0xAB and frame.opaque_image().getpixel((0, 0))[0] == 0xAB


@pytest.mark.parametrize(("data", "error", "says"), [
    (_frame()[:-5], FrameUnusable, "truncated or not a frame"),
    (b"\x89PNG\r\n\x1a\n" + bytes(40), FrameUnusable, "names no known size and pixel format"),
    (b"Error: x", FrameUnusable, "8 bytes are no raw frame"),
    (struct.pack("<4I", 3, 2, 0x2B, 1) + bytes(24), FormatNotRead, "pixel format 0x2b"),
])
def test_what_is_no_frame_here_is_said(data: bytes, error: type[Exception], says: str) -> None:
    with pytest.raises(error, match=says):
        parse_frame(data)


def test_a_model_image_rendered_ahead_is_waited_for_not_made_twice(device: AdbDevice, monkeypatch) -> None:
    renders: list[str] = []
    render = model_image._render
    monkeypatch.setattr(model_image, "_render", lambda capture, side: renders.append(capture.sha256)
                        or render(capture, side))
    capture = device.screenshot()
    model_image.prerender_jpeg(capture, 640)  # the post-screen's, while the next turn begins
    model_image.prerender_jpeg(capture, 640)
    assert model_jpeg(capture, 640) == model_jpeg(capture, 640)
    assert renders == [capture.sha256]
