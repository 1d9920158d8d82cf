"""``python -m pytest_artemis.plugin --markdown [--output FILE]``: print the configuration reference."""

from .options import main

raise SystemExit(main())
