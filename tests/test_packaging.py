"""The plugin loads light: no model or OCR stack is imported when pytest starts."""

import subprocess
import sys

HEAVY = ("litellm", "rapidocr", "onnxruntime", "easyocr", "torch")


def test_plugin_import_pulls_in_no_heavy_stack():
    code = (
        "import sys, pytest_artemis.plugin, pytest_artemis.probes, pytest_artemis.testing;"
        f"print(','.join(m for m in {HEAVY!r} if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_plugin_is_registered_through_the_pytest11_entry_point():
    from importlib.metadata import entry_points

    names = {ep.name: ep.value for ep in entry_points(group="pytest11")}
    assert names.get("artemis") == "pytest_artemis.plugin"
