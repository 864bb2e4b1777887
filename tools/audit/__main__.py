"""`python -m tools.audit OUTPUT_DIR [--review DIR]`: audit every packet under OUTPUT_DIR."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tools.audit import audit


def main(argv: list[str] | None = None) -> int:
    """Print each finding as `file:page: check: what`; exit 1 if there is any."""
    parser = argparse.ArgumentParser(prog="python -m tools.audit", description=__doc__)
    parser.add_argument("output", type=Path, help="a folder of built packets (output/)")
    parser.add_argument(
        "--review", type=Path, help="write each document's first page and an index.html here"
    )
    args = parser.parse_args(argv)
    result = audit(args.output, args.review)
    for finding in result.findings:
        print(finding)
    print(
        f"{len(result.findings)} findings in {result.documents} documents"
        f" ({result.pages} pages) of {result.packets} packets",
        file=sys.stderr,
    )
    if result.index is not None:
        print(f"review: {result.index.resolve()}", file=sys.stderr)
    return 1 if result.findings else 0


if __name__ == "__main__":
    sys.exit(main())
