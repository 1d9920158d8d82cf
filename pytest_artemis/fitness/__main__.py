"""``python -m pytest_artemis.fitness --model MODEL [--operator-model …] [--checker-model …] [--api-base URL]
[--out DIR]``."""

import sys

from .cli import main

sys.exit(main())
