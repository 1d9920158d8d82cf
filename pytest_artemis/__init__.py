"""pytest-artemis: agentic device tests for pytest."""
