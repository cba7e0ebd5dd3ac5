"""`harness annotate RECORD`: write a record's instruction pyramid as JSON."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from harness.core.record import RecordError
from harness.offline.pyramid import pyramid, read_checked


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the command's arguments."""
    parser.add_argument("record", help="a record file (record.jsonl.gz) or its run directory")
    parser.add_argument("--out", help="write the JSON here (default: standard output)")


def run(args: argparse.Namespace) -> int:
    """Print or write the pyramid; exit 2 for an unreadable record or an unwritable --out."""
    try:
        record = read_checked(args.record)
    except RecordError as exc:
        print(f"harness annotate: unusable record: {exc}", file=sys.stderr)
        return 2
    text = json.dumps(pyramid(record).to_json(), indent=1, ensure_ascii=False) + "\n"
    if args.out is None:
        sys.stdout.write(text)
        return 0
    try:
        Path(args.out).write_text(text, encoding="utf-8")
    except OSError as exc:
        print(f"harness annotate: --out {args.out}: cannot write: {exc.strerror or exc}",
              file=sys.stderr)
        return 2
    return 0
