"""The pytest surface: markers, options, fixtures, outcomes (a thin adapter over the engine)."""
