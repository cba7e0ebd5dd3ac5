"""Where a person's episodes go: run directories and a results file `harness compare` reads.

`harness play --out DIR` keeps every scored episode's run directory under
`DIR/episodes/LEVEL/DIFFICULTY/sSEED/` (as `harness eval` does) and adds its row to
`DIR/results.json`, a suite's results whose `suite.kind` is `human`. So `harness compare
DIR eval_dir` lists each player (the name of their hello) as a row of their own, with
intervals like any agent. A playtest with the level revealed goes under `DIR/playtest/`
and never into the results.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from harness.play_session import HUMAN_COMMAND, HUMAN_KIND
from harness.runner import new_run_dir
from harness.suite import Episode, row_from_summary
from harness.suite_files import suite_lock
from harness.suite_report import write_results
from world.face import Level

RESULTS_FILE = "results.json"
PLAYTEST_DIR = "playtest"


class ResultsError(Exception):
    """The results file of the folder is not a person's; the message names it."""


def run_dir_for(out: Path, level: Level, difficulty: str, seed: int, reveal: bool) -> Path:
    """A fresh run directory: under `episodes/` like a suite's, or `playtest/` for --reveal."""
    if reveal:
        return new_run_dir(out / PLAYTEST_DIR, level, difficulty, seed)
    folder = Episode(level.id, difficulty, seed).folder(out)
    return new_run_dir(folder, level, difficulty, seed)


def check_results(out: Path) -> None:
    """Refuse a folder whose results are a program's suite (they must never mix).

    Raises:
        ResultsError: The results file is unreadable or not written by `harness play`.
    """
    _rows(out / RESULTS_FILE)


def _rows(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        return []
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        suite, rows = data["suite"], data["episodes"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ResultsError(f"{path}: not a results file ({exc})") from None
    if not isinstance(suite, dict) or suite.get("kind") != HUMAN_KIND or not isinstance(rows, list):
        raise ResultsError(f"{path}: the results of a program's suite, not of harness play; "
                           "give --out a folder of its own")
    return rows


def add_result(out: Path, level: str, difficulty: str, seed: int, summary: dict[str, Any]
               ) -> Path:
    """Add one finished episode's row to `out/results.json` (and results.md); its path.

    Raises:
        ResultsError: The folder holds another kind of results.
        harness.suite_files.SuiteLockedError: Another process is writing there.
    """
    with suite_lock(out):
        path = out / RESULTS_FILE
        rows = _rows(path)
        row = row_from_summary(Episode(level, difficulty, seed), Path(summary["run_dir"]),
                               summary)
        rows.append(row)
        meta = {"agent": HUMAN_COMMAND, "kind": HUMAN_KIND,
                "levels": sorted({r["level"] for r in rows})}
        write_results(out, meta, rows)
    return path
