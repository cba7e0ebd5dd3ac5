"""`harness replay RECORD`: check that a run's recorded actions reproduce its states."""

from __future__ import annotations

import argparse
import sys

from harness.record import RecordError
from harness.runner import UsageError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the command's arguments."""
    parser.add_argument("record", help="a record.jsonl file or its run directory")


def run(args: argparse.Namespace) -> int:
    """Replay; exit 0 when it verifies, 1 on divergence, 2 when the record is unusable."""
    from harness.replay import replay

    try:
        report = replay(args.record)
    except (RecordError, UsageError) as exc:
        print(f"harness replay: {exc}", file=sys.stderr)
        return 2
    note = " (interrupted run: no summary line)" if report.interrupted else ""
    if report.verified:
        print(f"verified: {report.turns} turns reproduce the recorded state hashes{note}")
        return 0
    print(f"DIVERGED: {report.divergence}{note}")
    return 1
