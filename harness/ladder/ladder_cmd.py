"""`harness ladder DIR... [--out DIR]`: rate agents over many match records.

Each DIR is a folder of match records (`harness match --out`, `harness tournament
--out`, or any folder holding them) or a match record itself. Every record is replayed
before it counts; one that does not replay, or is not sealed by this harness, is listed
as refused. The board goes to standard output as Markdown; `--out` also writes
ladder.json and ladder.html there.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from harness.compare.report import print_report
from harness.core.level_refs import UsageError
from harness.ladder.board import markdown, write_outputs
from harness.ladder.ratings import fit
from harness.ladder.records import Rated, Refused, match_records, verify


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the command's arguments."""
    parser.add_argument("paths", nargs="+", type=Path, metavar="DIR",
                        help="folders of match records (harness match or harness tournament "
                             "--out), or match.jsonl.gz files")
    parser.add_argument("--out", type=Path, default=None,
                        help="also write ladder.json and ladder.html here")
    parser.add_argument("--json", action="store_true",
                        help="print the ladder as JSON instead of Markdown")
    parser.add_argument("--accept-unsealed", action="store_true",
                        help="also count records that replay but carry no seal of this "
                             "harness (made elsewhere): who played is then the header's word")


def ladder(paths: Iterable[Path], accept_unsealed: bool = False) -> dict[str, Any]:
    """The ladder of every match record under `paths`: the board and the refused records.

    Raises:
        UsageError: openskill is not installed.
    """
    rated: list[Rated] = []
    refused: list[Refused] = []
    seen: set[str] = set()
    for record in match_records(paths):
        found = verify(record, accept_unsealed)
        if isinstance(found, Refused):
            refused.append(found)
        elif found.digest not in seen:  # one match copied into two folders counts once
            seen.add(found.digest)
            rated.append(found)
    board = fit(rated)
    return {"matches": len(rated),
            "board": [entry.to_dict(rank) for rank, entry in enumerate(board, 1)],
            "refused": [{"path": r.path, "reason": r.reason} for r in refused],
            "records": sorted(r.path for r in rated)}


def run(args: argparse.Namespace) -> int:
    """Rate; exit 0 when written, 2 when nothing could be rated or written."""
    missing = [str(p) for p in args.paths if not p.exists()]
    if missing:
        print(f"harness ladder: no such file or folder: {', '.join(missing)}", file=sys.stderr)
        return 2
    try:
        board = ladder(args.paths, args.accept_unsealed)
    except UsageError as exc:
        print(f"harness ladder: {exc}", file=sys.stderr)
        return 2
    for row in board["refused"]:
        print(f"harness ladder: refused {row['path']}: {row['reason']}", file=sys.stderr)
    if not board["matches"]:
        print("harness ladder: no match record that replays was found", file=sys.stderr)
        return 2
    return print_report("ladder", board, args.out, args.json, write_outputs, markdown)
