"""Repository-wide pytest setup: offline model layer, no adb daemon spawned by adbutils."""

import os

os.environ.setdefault("LITELLM_OFFLINE_MODE", "true")
os.environ.setdefault("ADBUTILS_ADB_PATH", "/bin/true")
