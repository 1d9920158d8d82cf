"""Facts about the screens a model is shown, in the words every role's request uses."""

from __future__ import annotations

from pytest_artemis.device.model_image import model_image_factor


def screenshot_scale(width: int, height: int, max_side: int) -> str:
    """How a screenshot sent to a model relates to element bounds: a ``width``×``height`` screen (device
    pixels, the unit of every element's bounds) sent with its longest side at most ``max_side``."""
    factor = model_image_factor(width, height, max_side)
    if factor == 1:
        return (f"The screenshot is {width}x{height} pixels, the device's own size: element bounds and "
                "points on the screenshot share one scale.")
    small = f"{-(-width // factor)}x{-(-height // factor)}"
    return (f"The screenshot is scaled down to {small} pixels, 1/{factor} of the device's {width}x{height}: "
            f"element bounds are device pixels, so a point (x, y) on the screenshot is ({factor}x, "
            f"{factor}y) in bounds.")
