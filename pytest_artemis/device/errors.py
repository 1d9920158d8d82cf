"""Typed device errors: every failure of a device call surfaces as one of these."""

from __future__ import annotations

from pytest_artemis.contracts import InfrastructureError, UsageError


class DeviceError(InfrastructureError):
    """A device call failed; the plugin reports it as an infrastructure ERROR, not a test failure."""

    infra_kind = "device"


class DeviceUnavailable(DeviceError):
    """The device is offline, disconnected, unknown to the adb server, or the server is unreachable."""


class DeviceCommandFailed(DeviceError):
    """A device command ran but failed (non-zero exit, error output, undecodable result)."""

    def __init__(self, message: str, *, command: str = "", output: str = "", exit_code: int | None = None):
        super().__init__(message)
        self.command = command
        self.output = output
        self.exit_code = exit_code


class DeviceTimeout(DeviceError):
    """A device call did not answer within its timeout."""


class ProbeRefused(UsageError):
    """A probe request is not in the probe table or its parameters fail validation."""
