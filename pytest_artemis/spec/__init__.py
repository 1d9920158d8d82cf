"""Task specs from pytest markers: parsing and validation (a usage error names the test's node id)."""

from .markers import MarkerError, assert_, check_item, spec_from_marks, verify

__all__ = ["MarkerError", "assert_", "check_item", "spec_from_marks", "verify"]
