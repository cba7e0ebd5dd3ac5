"""`harness run LEVEL --agent CMD`: play one episode and say where its record is."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from harness.core import stopping
from harness.core.claims import start_words
from harness.core.keys import SECRET_FILE, secret_files
from harness.core.level_refs import given_secret
from harness.core.tracks import TRACKS, TrackSpec
from harness.episode import runner
from harness.episode.runner import UsageError
from harness.episode.settings import (
    RunSettings,
    add_agent_arguments,
    refuse_to_start,
    seed_number,
    settings_from_arguments,
)
from world.face import DEFAULT_FRAME_SKIP


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the command's arguments."""
    parser.add_argument("level", help="level id in levels/ (e.g. outpost) or a level file path")
    parser.add_argument("--difficulty", help="difficulty id (default: the level's middle one)")
    parser.add_argument("--seed", type=seed_number, default=None,
                        help="episode seed (default 0, or the snapshot's with --from)")
    parser.add_argument("--secret", metavar="HEX_OR_FILE", default=None,
                        help="the secret the episode's randomness and a generated level's id "
                        "are drawn from: hex, or a file holding it (an earlier run's "
                        f"RUN_DIR/{SECRET_FILE}, a suite's OUT/{SECRET_FILE}); default a fresh "
                        f"one, written to the new run directory's {SECRET_FILE}. The same "
                        "level, difficulty, seed and secret play the same episode")
    parser.add_argument("--out", default="runs", help="parent directory of run directories")
    parser.add_argument("--track", choices=list(TRACKS), default=None,
                        help="macro: one macro action a decision (default, or the snapshot's "
                        "track with --from); raw: controller input held for --frame-skip "
                        "ticks a decision (PROTOCOL.md)")
    parser.add_argument("--frame-skip", type=int, default=None,
                        help=f"raw track: ticks each decision's controls are held (default "
                        f"{DEFAULT_FRAME_SKIP}, or the snapshot's with --from)")
    parser.add_argument("--from", dest="origin", metavar="SNAPSHOT",
                        help="start from a snapshot (a moment of an earlier episode of this "
                        "level: snapshots/turn_N.json in its run directory); its difficulty, "
                        "seed, track and frame skip are the episode's")
    add_agent_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")


def run(args: argparse.Namespace) -> int:
    """Play the episode; exit 0 when it ran, 2 on bad usage or sandbox, 128 + N on signal N."""
    settings = settings_from_arguments(args)
    if refuse_to_start("run", settings, args.out):
        return 2
    try:
        summary = _play(args, settings)
    except UsageError as exc:
        print(f"harness run: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(summary))
    else:
        print(summary["run_dir"])
        print(f"{summary['outcome']}: {summary['reason']}; score {summary['score']:.2f}, "
              f"{summary['decisions']} decisions", file=sys.stderr)
        if summary.get("from_snapshot"):
            print(f"this run {start_words(summary['from_snapshot'])}", file=sys.stderr)
        page = Path(summary["run_dir"]) / "index.html"
        if page.is_file():
            print(f"open {page} to see what happened", file=sys.stderr)
    stop = stopping.requested()
    return 0 if stop is None else stop.exit_status


def _play(args: argparse.Namespace, settings: RunSettings) -> dict[str, Any]:
    secret = given_secret(args.secret)
    if args.origin is not None and args.track is None:
        # The snapshot's track and frame skip are the episode's; a frame skip asked for
        # is checked against the snapshot's only on a track named.
        if args.frame_skip is not None:
            raise UsageError("--frame-skip with --from needs --track raw (without both, the "
                             "snapshot's track and frame skip are used)")
        track = None
    else:
        try:
            track = TrackSpec(args.track or "macro", args.frame_skip or DEFAULT_FRAME_SKIP)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    return runner.run(args.level, args.agent, difficulty=args.difficulty, seed=args.seed,
                      out_dir=args.out, settings=settings, track=track, origin=args.origin,
                      secret=secret, hidden=secret_files(args.secret))
