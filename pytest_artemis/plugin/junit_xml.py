"""The JUnit XML as CI readers need it: a ``type`` on every non-pass, reasons first, valid xunit2.

pytest writes the testcases; this plugin (registered where the XML is written: the xdist controller or
the only process) reshapes each finished ``<testcase>`` element in place:

* ``<failure>``/``<error>`` get ``type="artemis.assertion"``, ``artemis.blocked``, ``artemis.unchecked``,
  ``artemis.infra.<kind>.<ErrorClass>`` or ``artemis.error``, and a message ``WORD: reason``;
* an UNCHECKED ``<skipped type="pytest.xfail">`` gets the unchecked items and why as its body;
* ``junit_family=xunit1``/``legacy``: the ``artemis.*`` properties stay on the testcase;
  ``xunit2`` (pytest's default) forbids testcase properties, so they move to the testsuite's
  ``<properties>`` as ``artemis.NAME[<node id>]`` and the XML validates against the xunit2 schema;
* a failed session-start check under xdist (a collection error) gets ``type="artemis.usage"``;
* the key screenshots are attached for GitLab as ``[[ATTACHMENT|/abs/path.png]]`` in ``<system-out>``.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import TYPE_CHECKING, cast

import pytest
from _pytest.junitxml import LogXML, _NodeReporter, xml_key

from pytest_artemis.junit import suite_property_name

from .junit import report_props

if TYPE_CHECKING:
    from _pytest.reports import TestReport

_RESULTS = ("failure", "error", "skipped")


def result_type(word: str, infra: str, element: str, message: str = "") -> str | None:
    """The ``type`` attribute of a result element for a test whose ``artemis.outcome`` is ``word``
    (``message``: the element's message, which names a strict UNCHECKED)."""
    if element == "skipped":
        return None  # pytest's own pytest.xfail / pytest.skip types stay
    if word == "FAILED" and message.startswith("FAILED: UNCHECKED"):
        return "artemis.unchecked"
    if word == "FAILED":
        return "artemis.assertion" if element == "failure" else "artemis.error"
    if word == "BLOCKED":
        return "artemis.blocked"
    if word == "ERROR" and infra:
        kind, _, error_class = infra.partition("/")
        return f"artemis.infra.{kind}.{error_class}"
    return "artemis.error"


class JunitShaper:
    """Reshapes each finished testcase element of pytest's ``LogXML`` (see the module docstring)."""

    def __init__(self, config: pytest.Config) -> None:
        self._config = config
        self._open: dict[tuple[str, object], _NodeReporter] = {}

    def _xml(self) -> LogXML | None:
        return self._config.stash.get(xml_key, None)

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Before LogXML closes a testcase on its teardown report, keep a handle on its reporter."""
        xml = self._xml()
        if xml is None or report.when != "teardown" or not report_props(report):
            return
        self._open[(report.nodeid, getattr(report, "node", None))] = xml.node_reporter(report)

    @pytest.hookimpl(trylast=True, specname="pytest_runtest_logreport")
    def pytest_runtest_logreport_after(self, report: pytest.TestReport) -> None:
        """Shape the testcase once LogXML has written (teardown) or opened (crashed worker) it."""
        xml = self._xml()
        props = report_props(report)
        if xml is None or not props:
            return
        key = (report.nodeid, getattr(report, "node", None))
        if report.when == "teardown" and key in self._open:
            element = self._open.pop(key).to_xml()
            self._shape(xml, element, report.nodeid, props)
        elif report.when == "???":  # a crashed worker: no teardown report will ever close it
            reporter = xml.node_reporter(report)
            for node in reporter.nodes:
                self._result(node, props)
            if xml.family == "xunit1":
                for name, value in props.items():
                    reporter.add_property(name, value)
            else:
                self._to_suite(xml, report.nodeid, props)

    @pytest.hookimpl(trylast=True)
    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        """A worker's failed session-start check (``preflight``, under xdist): a usage error, not a
        "collection failure"."""
        from .preflight import USAGE_ERROR_ATTR

        xml = self._xml()
        if xml is None or not getattr(report, USAGE_ERROR_ATTR, False):
            return
        # LogXML keys reporters by a report's nodeid and worker node, which a CollectReport has too
        for node in xml.node_reporter(cast("TestReport", report)).nodes:
            if node.tag == "error":
                node.set("type", "artemis.usage")
                node.set("message", f"USAGE ERROR: {report.longrepr}")

    def _shape(self, xml: LogXML, element: ET.Element, nodeid: str, props: dict[str, str]) -> None:
        for node in element:
            self._result(node, props)
        if xml.family != "xunit1":
            for holder in element.findall("properties"):
                for prop in list(holder):
                    if prop.get("name", "").startswith("artemis."):
                        holder.remove(prop)
                if not len(holder):
                    element.remove(holder)
            self._to_suite(xml, nodeid, props)
        self._attach(element, props)

    @staticmethod
    def _result(node: ET.Element, props: dict[str, str]) -> None:
        if node.tag not in _RESULTS:
            return
        word = props.get("artemis.outcome", "")
        if node.tag == "skipped" and word == "UNCHECKED":
            message = node.get("message", "")
            lead = ": ".join(line.strip().removeprefix("- ") for line in message.splitlines()[:2])
            node.set("message", f"UNCHECKED: {lead}")
            node.text = f"UNCHECKED: {message}"
        elif node.tag in ("failure", "error") and word in ("FAILED", "BLOCKED", "ERROR"):
            node.set("message", _lead(word, node.get("message", ""), node.text or ""))
        kind = result_type(word, props.get("artemis.infra", ""), node.tag, node.get("message", ""))
        if kind is not None:
            node.set("type", kind)

    @staticmethod
    def _to_suite(xml: LogXML, nodeid: str, props: dict[str, str]) -> None:
        for name, value in props.items():
            xml.add_global_property(suite_property_name(name, nodeid), value)

    @staticmethod
    def _attach(element: ET.Element, props: dict[str, str]) -> None:
        from .screens import key_screenshots

        shots = key_screenshots(Path(props.get("artemis.artifacts", "")))
        if not shots:
            return
        lines = "".join(f"[[ATTACHMENT|{shot}]]\n" for shot in shots)
        out = element.find("system-out")
        if out is None:
            out = ET.SubElement(element, "system-out")
            out.text = lines
        else:
            out.text = (out.text or "") + "\n" + lines


def _lead(word: str, message: str, text: str) -> str:
    """``WORD: reason``: pytest's ``failed on setup with "…"`` wrapper removed, the word first."""
    inner = message
    wrapped = re.match(r'^failed on (?:setup|teardown|call) with "(.*)"$', message, re.S)
    if wrapped:
        inner = wrapped.group(1)
    inner = inner.removeprefix("ArtemisOutcome: ").removeprefix("Failed: ")
    if not inner.strip():
        inner = text.strip().splitlines()[0] if text.strip() else ""
    return inner if inner.startswith(f"{word}") else f"{word}: {inner}"
