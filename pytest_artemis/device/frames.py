"""Raw screen frames (``screencap`` without ``-p``): the header, the pixel formats this client reads, and
the images made from the pixels without a PNG round trip.

AOSP's ``cmds/screencap/screencap.cpp`` writes little-endian u32 width, height and HAL pixel format, from
Android 9 on a fourth word (the colour space: 0 unknown, 1 sRGB, 2 Display P3), then ``height`` rows of
``width`` pixels with the stride padding removed. Which header a frame has follows from its length (exactly
one of 12 + pixels and 16 + pixels fits). Output whose length fits no header is ``FrameUnusable``; a
whole frame in a format not read here (a 10-bit or half-float HDR display's) is ``FormatNotRead``: the
device is read through PNG instead.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass

from PIL import Image


class FrameUnusable(ValueError):
    """Output that is not a raw frame this client reads."""


class FormatNotRead(FrameUnusable):
    """A whole raw frame, in a pixel format this client does not read."""


@dataclass(frozen=True)
class PixelFormat:
    """How the pixels of one HAL pixel format become an image: Pillow's mode and raw mode for the lossless
    image, the mode and raw mode of the opaque image the models see, and the bytes per pixel."""

    name: str
    mode: str
    rawmode: str
    opaque_mode: str
    opaque_rawmode: str
    bytes_per_pixel: int


#: The HAL pixel formats read here, by number. ``RGBX`` images share the frame's buffer (no copy) and
#: reduce as fast as RGB; the fourth byte of an RGBA frame is kept only in the lossless image.
PIXEL_FORMATS: dict[int, PixelFormat] = {
    1: PixelFormat("RGBA_8888", "RGBA", "RGBA", "RGBX", "RGBX", 4),
    2: PixelFormat("RGBX_8888", "RGB", "RGBX", "RGBX", "RGBX", 4),
    3: PixelFormat("RGB_888", "RGB", "RGB", "RGB", "RGB", 3),
    4: PixelFormat("RGB_565", "RGB", "BGR;16", "RGB", "BGR;16", 2),
    5: PixelFormat("BGRA_8888", "RGBA", "BGRA", "RGB", "BGRX", 4),
}
_BYTES_PER_PIXEL = {0x16: 8, 0x2B: 4}
"""Formats a device may write that are not read here (RGBA_FP16, RGBA_1010102): known only to tell a
frame of theirs from output that is no frame at all."""


@dataclass(frozen=True)
class RawFrame:
    """One raw frame: its size, pixel format and colour space, and its pixel rows (a view, not a copy)."""

    width: int
    height: int
    pixel_format: PixelFormat
    colorspace: int
    header: int
    pixels: memoryview

    def _image(self, mode: str, rawmode: str) -> Image.Image:
        # Any buffer will do (Pillow's stubs name only bytes): a memoryview is read without a copy.
        return Image.frombuffer(mode, (self.width, self.height), self.pixels,  # type: ignore[arg-type]
                                "raw", rawmode, 0, 1)

    def opaque_image(self) -> Image.Image:
        """The frame as an opaque RGB (or RGBX) image, shared with the frame's buffer where Pillow can."""
        return self._image(self.pixel_format.opaque_mode, self.pixel_format.opaque_rawmode)

    def png(self) -> bytes:
        """The frame as a lossless PNG: RGB, or RGBA when any pixel is not opaque."""
        image = self._image(self.pixel_format.mode, self.pixel_format.rawmode)
        if image.mode == "RGBA" and image.getchannel("A").getextrema() != (255, 255):
            return encode_png(self.width, self.height, "RGBA", image.tobytes())
        return encode_png(self.width, self.height, "RGB", self.opaque_image().tobytes("raw", "RGB"))


def encode_png(width: int, height: int, mode: str, pixels: bytes) -> bytes:
    """A PNG of 8-bit ``RGB`` or ``RGBA`` rows, unfiltered and deflated at level 1.

    Screens are flat colour: on them, unfiltered rows at level 1 are smaller than Pillow's filtered
    level-1 PNG and take a third of its time (this runs for every new screen of a run).
    """
    channels = {"RGB": 3, "RGBA": 4}[mode]
    stride = width * channels
    deflate = zlib.compressobj(1)
    body = [deflate.compress(b"\x00" + pixels[row:row + stride]) for row in range(0, stride * height, stride)]
    body.append(deflate.flush())
    header = struct.pack(">IIBBBBB", width, height, 8, {"RGB": 2, "RGBA": 6}[mode], 0, 0, 0)
    return b"".join((b"\x89PNG\r\n\x1a\n", _chunk(b"IHDR", header), _chunk(b"IDAT", b"".join(body)),
                     _chunk(b"IEND", b"")))


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _bytes_per_pixel(number: int) -> int | None:
    known = PIXEL_FORMATS.get(number)
    return known.bytes_per_pixel if known else _BYTES_PER_PIXEL.get(number)


def parse_frame(data: bytes | bytearray | memoryview) -> RawFrame:
    """The raw frame ``data`` holds (``data`` is not copied); FrameUnusable when it holds none this client
    reads, with what it holds instead."""
    view = memoryview(data)
    if len(view) < 12:
        raise FrameUnusable(f"{len(view)} bytes are no raw frame (its header alone is 12 or 16 bytes)")
    width, height, number = struct.unpack_from("<3I", view)
    bpp = _bytes_per_pixel(number)
    if bpp is None or not (0 < width <= 1 << 15 and 0 < height <= 1 << 15):
        raise FrameUnusable(f"not a raw frame: header {bytes(view[:16]).hex()} names no known size and "
                            "pixel format")
    size = width * height * bpp
    header = {16 + size: 16, 12 + size: 12}.get(len(view))
    if header is None:
        raise FrameUnusable(f"a {width}x{height} frame of format {number} is 12 or 16 + {size} bytes, not "
                            f"{len(view)}: truncated or not a frame")
    if number not in PIXEL_FORMATS:
        raise FormatNotRead(f"pixel format {number:#x} ({bpp} bytes a pixel) is not read here")
    colorspace = struct.unpack_from("<I", view, 12)[0] if header == 16 else 0
    return RawFrame(width=width, height=height, pixel_format=PIXEL_FORMATS[number], colorspace=colorspace,
                    header=header, pixels=view[header:])
