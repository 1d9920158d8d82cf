"""The screen as ``screencap`` writes it: a PNG (``-p``) or a raw frame (a header, then the pixel rows).

A raw frame is what AOSP's ``cmds/screencap/screencap.cpp`` writes without ``-p``: little-endian u32
width, height and pixel format (and, from Android 9, a colour-space word: 0 unknown, 1 sRGB, 2 Display
P3), then ``height`` rows of ``width`` pixels in the display's HAL pixel format, with no stride padding.
"""

from __future__ import annotations

import io

from PIL import Image, ImageChops

#: HAL pixel formats a simulated display can have, by name: (format number, bytes per pixel).
PIXEL_FORMATS: dict[str, tuple[int, int]] = {
    "RGBA_8888": (1, 4), "RGBX_8888": (2, 4), "RGB_888": (3, 3), "RGB_565": (4, 2), "BGRA_8888": (5, 4),
    "RGBA_1010102": (0x2B, 4),
}
HEADERS = (12, 16)
"""Header sizes: 12 bytes up to Android 8, 16 bytes (with the colour space) from Android 9."""
COLORSPACE_SRGB = 1


def encode_png(img: Image.Image) -> bytes:
    """PNG of ``img`` (level 1: screens are flat colour, so it is small and fast)."""
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=1)
    return buf.getvalue()


def _bits(img: Image.Image, *fields: tuple[str, int, int, int]) -> Image.Image:
    """One byte plane: each (band, right shift, mask, left shift) taken from ``img`` and or-ed together
    (the fields never overlap, so adding them is or-ing them)."""
    planes = [img.getchannel(band).point(lambda v, r=right, m=mask, left=left: ((v >> r) & m) << left)
              for band, right, mask, left in fields]
    out = planes[0]
    for plane in planes[1:]:
        out = ImageChops.add(out, plane)
    return out


def _pixels(img: Image.Image, pixel_format: str) -> bytes:
    """The pixel rows of an RGB image in a HAL pixel format."""
    if pixel_format in ("RGBA_8888", "RGBX_8888"):
        return img.tobytes("raw", "RGBX")  # Pillow writes 255 into the fourth byte of an RGB image
    if pixel_format == "RGB_888":
        return img.tobytes()
    if pixel_format == "BGRA_8888":
        return img.convert("RGBA").tobytes("raw", "BGRA")
    if pixel_format == "RGB_565":  # u16 LE: red in bits 11-15, green 5-10, blue 0-4
        low = _bits(img, ("G", 2, 0x07, 5), ("B", 3, 0x1F, 0))
        high = _bits(img, ("R", 3, 0x1F, 3), ("G", 5, 0x07, 0))
        return Image.merge("LA", (low, high)).tobytes()
    if pixel_format == "RGBA_1010102":  # u32 LE: red in bits 0-9, green 10-19, blue 20-29, alpha 30-31
        b0 = _bits(img, ("R", 0, 0x3F, 2))
        b1 = _bits(img, ("R", 6, 0x03, 0), ("G", 0, 0x0F, 4))
        b2 = _bits(img, ("G", 4, 0x0F, 0), ("B", 0, 0x03, 6))
        b3 = _bits(img, ("B", 2, 0x3F, 0)).point(lambda v: v | 0xC0)  # alpha 3: opaque
        return Image.merge("RGBA", (b0, b1, b2, b3)).tobytes()
    raise ValueError(f"unknown pixel format {pixel_format!r}; known: {', '.join(PIXEL_FORMATS)}")


def encode_raw(img: Image.Image, pixel_format: str = "RGBA_8888", header: int = 16) -> bytes:
    """The raw frame ``screencap`` writes for ``img`` on a display of ``pixel_format``."""
    if header not in HEADERS:
        raise ValueError(f"a raw frame header is 12 or 16 bytes, not {header}")
    pixels = _pixels(img, pixel_format)
    words = [img.width, img.height, PIXEL_FORMATS[pixel_format][0]]
    words += [COLORSPACE_SRGB] if header == 16 else []
    return b"".join(w.to_bytes(4, "little") for w in words) + pixels
