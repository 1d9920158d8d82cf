"""Reading the ``artemis.*`` JUnit properties back, for CI scripts: one call for either ``junit_family``.

    from pytest_artemis.junit import read_properties

    for nodeid, props in read_properties("out.xml").items():
        print(nodeid, props["artemis.outcome"], props["artemis.steps"])

Under ``xunit1``/``legacy`` the properties sit on each testcase; under ``xunit2`` (pytest's default) the
schema forbids that, so the plugin writes them on the testsuite as ``artemis.NAME[<node id>]``.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

_SUITE_NAME = re.compile(r"^(artemis\.[a-z_.]+)\[(.+)\]$")


def suite_property_name(name: str, nodeid: str) -> str:
    """Where an xunit2 testcase's property goes on the testsuite: ``artemis.outcome[<node id>]``."""
    return f"{name}[{nodeid}]"


def read_properties(path: Path | str) -> dict[str, dict[str, str]]:
    """Test node id → its ``artemis.*`` properties, from a JUnit XML file of either family.

    Testcase-level properties (xunit1) are keyed by ``classname::name``, testsuite-level ones (xunit2) by
    the node id in their name.
    """
    found: dict[str, dict[str, str]] = {}
    root = ET.parse(path).getroot()
    for suite in root.iter("testsuite"):
        for prop in suite.findall("properties/property"):
            match = _SUITE_NAME.match(prop.get("name", ""))
            if match:
                found.setdefault(match.group(2), {})[match.group(1)] = prop.get("value", "")
        for case in suite.iter("testcase"):
            own = {p.get("name", ""): p.get("value", "") for p in case.findall("properties/property")
                   if p.get("name", "").startswith("artemis.")}
            if own:
                found[f"{case.get('classname')}::{case.get('name')}"] = own
    return found


__all__ = ["read_properties", "suite_property_name"]
