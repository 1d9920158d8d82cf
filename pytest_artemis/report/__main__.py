"""``python -m pytest_artemis.report merge OUT DIR…``: one index over several sessions' artifacts."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    """Parse the command, merge, and print where the index is (exit 2 on a DIR with nothing to merge)."""
    parser = argparse.ArgumentParser(prog="python -m pytest_artemis.report",
                                     description="Reports over pytest-artemis artifacts.")
    commands = parser.add_subparsers(dest="command", required=True)
    merging = commands.add_parser(
        "merge", help="one index over several sessions (runners sharing a folder, or CI artifacts)",
        description="Write OUT/index.html listing every test of every session found in the DIRs, with "
                    "totals and relative links to each run's report.html (keep OUT and the DIRs together "
                    "when you move them). A DIR is an artifacts directory (.artemis), one session's "
                    "directory (.artemis/sessions/SESSION), or a directory holding several.")
    merging.add_argument("out", type=Path, metavar="OUT", help="directory to write index.html in")
    merging.add_argument("dirs", type=Path, nargs="+", metavar="DIR", help="artifacts to merge")
    args = parser.parse_args(argv)
    from .merge import merge

    try:
        merged = merge(args.out, args.dirs)
    except ValueError as exc:
        merging.error(str(exc))
    for problem in merged.problems:
        print(f"skipped {problem}", file=sys.stderr)
    unlisted = f", {merged.unlisted} of them runs no session listed" if merged.unlisted else ""
    print(f"{merged.index}: {merged.sessions} session(s), {merged.tests} test(s){unlisted}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
