"""The recorded sessions' suites are run by ``test_recorded_sessions.py`` in a project of their own, never
collected here."""

collect_ignore = ["sessions"]
