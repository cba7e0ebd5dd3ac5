"""`harness run LEVEL --agent CMD`: play one episode and say where its record is."""

from __future__ import annotations

import argparse
import json
import sys

from harness.runner import UsageError
from harness.settings import RunSettings

_DEFAULTS = RunSettings()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the command's arguments."""
    parser.add_argument("level", help="level id in levels/ (e.g. outpost) or a level file path")
    parser.add_argument("--agent", required=True, help="agent command line (any executable)")
    parser.add_argument("--difficulty", help="difficulty id (default: the level's middle one)")
    parser.add_argument("--seed", type=int, default=0, help="episode seed (default 0)")
    parser.add_argument("--out", default="runs", help="parent directory of run directories")
    parser.add_argument("--hello-timeout", type=float, default=_DEFAULTS.hello_timeout_s,
                        help="wall seconds to wait for hello (default %(default)s)")
    parser.add_argument("--decision-timeout", type=float, default=_DEFAULTS.decision_timeout_s,
                        help="wall seconds per decision (default %(default)s)")
    parser.add_argument("--episode-timeout", type=float, default=_DEFAULTS.episode_timeout_s,
                        help="wall seconds for the whole episode (default %(default)s)")
    parser.add_argument("--max-invalid", type=int, default=_DEFAULTS.max_invalid_in_a_row,
                        help="invalid actions in a row that end the episode (default %(default)s)")
    parser.add_argument("--pass-env", action="append", default=[], metavar="NAME",
                        help="pass this environment variable to the agent (repeatable)")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")


def run(args: argparse.Namespace) -> int:
    """Play the episode; exit 0 whenever it ran, 2 on a usage error."""
    settings = RunSettings(
        hello_timeout_s=args.hello_timeout,
        decision_timeout_s=args.decision_timeout,
        episode_timeout_s=args.episode_timeout,
        max_invalid_in_a_row=args.max_invalid,
        env_passthrough=tuple(args.pass_env),
    )
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
    return 0


def _play(args: argparse.Namespace, settings: RunSettings) -> dict:
    from harness import runner

    return runner.run(args.level, args.agent, difficulty=args.difficulty, seed=args.seed,
                      out_dir=args.out, settings=settings)
