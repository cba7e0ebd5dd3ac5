"""`harness compare DIR...`: put the suites of several agents side by side.

Each DIR is a suite folder written by `harness eval --out` (or a person's folder written
by `harness play --out`, whose rows are of kind human), a folder holding several, or a
results.json. The Markdown tables go to standard output; `--out` also writes
compare.html, compare.md and compare.json there.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from harness.compare.pairs import full_comparison
from harness.compare.report import markdown, print_report, write_outputs
from harness.compare.results import CompareError, load_episodes, results_files


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the command's arguments."""
    parser.add_argument("paths", nargs="+", type=Path, metavar="DIR",
                        help="suite folders (from harness eval --out or harness play "
                             "--out), folders of them, or results.json files")
    parser.add_argument("--out", type=Path, default=None,
                        help="also write compare.html, compare.md and compare.json here")
    parser.add_argument("--json", action="store_true",
                        help="print the comparison as JSON instead of Markdown")


def run(args: argparse.Namespace) -> int:
    """Compare; exit 0 when written, 2 when an input is not a suite."""
    try:
        episodes, errors = load_episodes(results_files(args.paths))
    except CompareError as exc:
        print(f"harness compare: {exc}", file=sys.stderr)
        return 2
    if not episodes:
        print("harness compare: the suites hold no played episode", file=sys.stderr)
        return 2
    return print_report("compare", full_comparison(episodes, errors), args.out, args.json,
                        write_outputs, markdown)
