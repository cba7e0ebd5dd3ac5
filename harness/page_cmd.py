"""`harness page RECORD_OR_DIR`: render (or re-render) run pages from records.

A record file or a run directory gets its episode page (index.html beside the record).
A directory holding run directories (at any depth) gets every episode page plus an
index page listing them, grouped by agent, level and difficulty; when it holds suites
(results.json), their comparison (compare.html) is written beside it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from harness.compare.pairs import full_comparison
from harness.compare.report import write_outputs
from harness.compare.results import CompareError, load_episodes
from harness.core.bounds import BAD_INPUT_EXIT
from harness.core.record import RecordError, find_records, is_run_dir
from harness.pages import write_episode_page
from harness.suite.index_page import EpisodeSummary, write_index_page


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the command's arguments."""
    parser.add_argument("path", help="a record file, a run directory, or a directory of runs")
    parser.add_argument("--title", default=None,
                        help="title of the index page (default: the directory's name)")


def run(args: argparse.Namespace) -> int:
    """Render the pages; exit 0 when all written, 1 when some failed, 2 on bad usage or input."""
    path = Path(args.path)
    if path.is_file() or is_run_dir(path):
        try:
            print(write_episode_page(path))
        except RecordError as exc:
            print(f"harness page: {exc}", file=sys.stderr)
            return BAD_INPUT_EXIT
        return 0
    if not path.is_dir():
        print(f"harness page: {path} is neither a record nor a directory", file=sys.stderr)
        return 2
    # Suites nest run directories (level/difficulty/run), so look at any depth.
    runs = sorted({p.parent for p in find_records(path)})
    if not runs:
        print(f"harness page: no run directories (with a record) in {path}", file=sys.stderr)
        return 2
    summaries, failed = [], 0
    for run_dir in runs:
        try:
            write_episode_page(run_dir)
            summaries.append(EpisodeSummary.from_record(run_dir))
        except RecordError as exc:
            failed += 1
            print(f"harness page: skipped {run_dir.name}: {exc}", file=sys.stderr)
    title = args.title or f"Episodes in {path.resolve().name}"
    print(write_index_page(summaries, path / "index.html", title=title))
    return 1 if failed or not _write_comparison(path) else 0


def _write_comparison(path: Path) -> bool:
    """Beside the index of a folder holding suites, their comparison; False if unreadable."""
    files = sorted(path.rglob("results.json"))
    if not files:
        return True
    try:
        episodes, errors = load_episodes(files)
    except CompareError as exc:
        print(f"harness page: no comparison: {exc}", file=sys.stderr)
        return False
    if episodes:
        print(write_outputs(full_comparison(episodes, errors), path)[0])
    return True
