"""`harness replay RECORD`: check that a run's recorded actions reproduce its states."""

from __future__ import annotations

import argparse
import sys

from harness.core.claims import start_words
from harness.core.record import RecordError
from harness.core.seal import seal_problem
from harness.episode.replay import REPLAY_STATUSES, replay
from harness.episode.runner import UsageError
from harness.match.replay import MatchRecordError, match_record_path, replay_match


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the command's arguments."""
    parser.add_argument("record", help="a record file (record.jsonl.gz) or its run directory")


def run(args: argparse.Namespace) -> int:
    """Replay; the exit status is the one `harness.episode.replay.REPLAY_STATUSES` declares."""
    if match_record_path(args.record) is not None:
        return _replay_match(args.record)
    try:
        report = replay(args.record)
    except (RecordError, UsageError) as exc:
        print(f"harness replay: unusable record: {exc}", file=sys.stderr)
        return REPLAY_STATUSES["unusable"][0]
    status = report.status
    if status == "verified":
        print(f"verified: {report.turns} turns reproduce the recorded state hashes, and the "
              "summary is re-derived and matches")
    elif status == "interrupted":
        print(f"interrupted: the run was stopped before its end, so it proves no result "
              f"({report.turns} turns reproduce their state hashes)")
    else:
        print(f"DIVERGED: {report.divergence}")
    if report.start is not None:
        print(f"start: this run {start_words(report.start)}")
    print(f"unverified (taken on the record's word): {', '.join(report.unverified)}")
    unsealed = seal_problem(args.record)
    print("sealed by this harness's key: those fields are as this harness wrote them"
          if unsealed is None else f"not sealed by this harness: {unsealed}")
    return REPLAY_STATUSES[status][0]


def _replay_match(path: str) -> int:
    # A match record (harness match): every player's turns and scores re-derived.
    try:
        report = replay_match(path)
    except MatchRecordError as exc:
        print(f"harness replay: unusable record: {exc}", file=sys.stderr)
        return REPLAY_STATUSES["unusable"][0]
    if report.verified:
        print(f"verified: {report.turns} match turns reproduce the recorded state hashes, and "
              "every player's frags and result are re-derived and match")
        for row in report.standings:
            print(f"  {row['player']} ({row['team']}): {row['result']}, {row['frags']} frags")
        return REPLAY_STATUSES["verified"][0]
    print(f"DIVERGED: {report.divergence}")
    return REPLAY_STATUSES["diverged"][0]
