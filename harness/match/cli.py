"""`harness match LEVEL --agent A --agent B [--team T ...]`: play one match and write its record."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from harness.agent.process import AgentLaunchError
from harness.core.keys import new_secret
from harness.core.level_refs import resolve
from harness.core.seal import seal
from harness.episode.runner import UsageError
from harness.episode.settings import RunSettings, pace_floor, pace_per_tick
from harness.match.runner import MATCH_RECORD, MatchSpec, run_match
from world.face import MATCH_GOAL_LABELS, MATCH_LEVELS_DIR, teams_problem


def match_level_ref(ref: str) -> str:
    """A level reference, with the id of a shipped match level made its file's path."""
    shipped = MATCH_LEVELS_DIR / f"{ref}.json"
    return str(shipped) if "/" not in ref and not Path(ref).exists() and shipped.is_file() \
        else ref


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the command's arguments."""
    parser.add_argument("level", help="a level with a match block (e.g. duel_yard) or its file")
    parser.add_argument("--agent", action="append", required=True,
                        help="an agent command line, once per player in player order (p1 first)")
    parser.add_argument("--team", action="append", default=None,
                        help="the team of each player in the same order (default: "
                             "free-for-all, every player its own team)")
    parser.add_argument("--difficulty", help="difficulty id (default: the level's first)")
    parser.add_argument("--seed", type=int, default=0, help="match seed (default 0)")
    parser.add_argument("--out", default="runs", help="parent directory of match directories")
    parser.add_argument("--json", action="store_true", help="print the match summary as JSON")
    parser.add_argument("--turn-pace", type=pace_per_tick, metavar="MS_PER_TICK", default=0.0,
                        help="keep game time to a wall-clock schedule: a message of game tick "
                             "T goes out no earlier than --turn-floor plus this many ms per "
                             "tick after the start, so no agent's clock shows the others' "
                             "thinking; 0 for none (default; see PROTOCOL.md, Matches)")
    parser.add_argument("--turn-floor", type=pace_floor, metavar="MS", default=0.0,
                        help="wall milliseconds from the start to the first observations on "
                             "that schedule (default 0)")


def run(args: argparse.Namespace) -> int:
    """Play the match; exit 0 when it ran, 2 on bad usage."""
    # The match's secret: a generated arena's id is drawn from it, as for a run, so the
    # id in the start message names no template seed.
    secret = new_secret()
    try:
        resolved = resolve(match_level_ref(args.level), secret)
    except UsageError as exc:
        print(f"harness match: {exc}", file=sys.stderr)
        return 2
    level = resolved.level
    if level.match is None:
        print(f"harness match: level {level.id!r} has no match block (it is single-player)",
              file=sys.stderr)
        return 2
    players = len(level.match.starts)
    if len(args.agent) != players:
        print(f"harness match: --agent: level {level.id!r} is played by {players} players; "
              f"{len(args.agent)} agents were given", file=sys.stderr)
        return 2
    if args.team is not None and len(args.team) != players:
        print(f"harness match: --team: give one team per player ({players}), got "
              f"{len(args.team)}", file=sys.stderr)
        return 2
    problem = teams_problem(level, tuple(args.team or (f"p{k}" for k in range(1, players + 1))))
    if problem is not None:  # the level's team objectives need other teams
        print(f"harness match: --team: {problem}", file=sys.stderr)
        return 2
    difficulty = args.difficulty or level.difficulties[0].id
    if difficulty not in {d.id for d in level.difficulties}:
        print(f"harness match: --difficulty: {difficulty!r} is not one of "
              f"{', '.join(d.id for d in level.difficulties)}", file=sys.stderr)
        return 2
    stem = Path(args.out) / f"match_{level.id}_{time.strftime('%Y%m%d_%H%M%S')}_{args.seed}"
    run_dir, n = stem, 1
    while run_dir.exists():  # never over an earlier match's record
        n += 1
        run_dir = stem.with_name(f"{stem.name}_{n}")
    teams = None if args.team is None else tuple(args.team)
    try:
        summary = run_match(MatchSpec(level, str(resolved.source), difficulty, args.seed,
                                      tuple(args.agent), run_dir, teams,
                                      RunSettings(turn_pace_ms_per_tick=args.turn_pace,
                                                  turn_floor_ms=args.turn_floor),
                                      secret))
    except AgentLaunchError as exc:
        print(f"harness match: an agent cannot be started: {exc}", file=sys.stderr)
        return 2
    seal(run_dir / MATCH_RECORD)  # who played, as the harness wrote it (harness ladder)
    if args.json:
        print(json.dumps(summary))
    else:
        print(run_dir)
        for row in summary["standings"]:
            goals = "".join(f", {MATCH_GOAL_LABELS.get(k, k)}: {v:g}"
                            for k, v in (row.get("goals") or {}).items())
            print(f"{row['player']} ({row['team']}): {row['result']}, {row['frags']} frags"
                  f"{goals}", file=sys.stderr)
    return 0
