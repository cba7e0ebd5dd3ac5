"""`harness quiz build|check|blind|run`: the offline question track."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from harness.agent.process import AgentLaunchError
from harness.core import stopping
from harness.core.record import find_records, is_run_dir
from harness.episode.settings import add_agent_arguments, refuse_to_start, settings_from_arguments
from harness.offline.quiz_blind import blind_scores, unfair
from harness.offline.quiz_file import QuizError, build, check, read, write
from harness.offline.quiz_run import ask, markdown


def _records(paths: list[str]) -> list[Path]:
    # A record file, a run directory, or a folder searched for records at any depth.
    out: list[Path] = []
    for given in map(Path, paths):
        if given.is_dir() and not is_run_dir(given):
            found = find_records(given)
            if not found:
                raise QuizError(f"{given}: a folder holding no record")
            out += found
        elif given.exists():
            out.append(given)
        else:
            raise QuizError(f"{given}: no such record file or folder")
    return out


def _build(args: argparse.Namespace) -> int:
    quiz = build(_records(args.records))
    write(quiz, Path(args.out))
    counts: dict[str, int] = {}
    for q in quiz["questions"]:
        counts[q["kind"]] = counts.get(q["kind"], 0) + 1
    shown = ", ".join(f"{n} {k}" for k, n in counts.items()) or "none"
    print(f"{len(quiz['questions'])} questions from {len(quiz['records'])} records ({shown}) "
          f"written to {args.out}")
    return _report_unfair(args.out, blind_scores(quiz))


def _report_unfair(name: str, scores: dict[str, Any], stream: Any = None) -> int:
    # Exit status 1 when a blind answerer beats (or trails) a fair guess on some kind.
    problems = unfair(scores)
    for problem in problems:
        print(f"{name}: a blind answerer is off chance: {problem}", file=stream or sys.stdout)
    return 1 if problems else 0


def _blind(args: argparse.Namespace) -> int:
    scores = blind_scores(read(Path(args.file)))
    print(json.dumps(scores, indent=1))
    return _report_unfair(args.file, scores, sys.stderr)


def _check(args: argparse.Namespace) -> int:
    checked, problems = check(read(Path(args.file)), _records(args.records))
    for problem in problems:
        print(f"{args.file}: {problem}")
    if problems:
        print(f"{len(problems)} of {checked} questions do not check against their records")
        return 1
    print(f"{checked} questions: every answer key checks against its record")
    return 0


def _run(args: argparse.Namespace) -> int:
    settings = settings_from_arguments(args)
    log = Path(args.log)
    if refuse_to_start("quiz run", settings, log.parent):
        return 2
    quiz = read(Path(args.file))
    try:
        key = None if args.order_key is None else bytes.fromhex(args.order_key)
    except ValueError:
        raise QuizError(f"--order-key {args.order_key[:40]!r}: not hexadecimal "
                        "(give the order_key of an earlier report)") from None
    try:
        result = ask(quiz, Path(args.file), args.agent, settings, log,
                     observation=not args.no_observation, key=key)
    except AgentLaunchError as exc:
        print(f"harness quiz run: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(result, indent=1) if args.json else markdown(result))
    stop = stopping.requested()
    return 0 if stop is None else stop.exit_status


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the three subcommands and their arguments."""
    sub = parser.add_subparsers(dest="quiz_command", required=True, metavar="SUBCOMMAND")
    b = sub.add_parser("build", help="make questions from records")
    b.add_argument("records", nargs="+", help="record files, run directories or folders of them")
    b.add_argument("--out", required=True, help="the question file to write (gzip JSON)")
    b.set_defaults(_quiz=_build)
    c = sub.add_parser("check", help="check every answer key against the records")
    c.add_argument("file", help="a question file")
    c.add_argument("records", nargs="+", help="the records it was built from (or folders)")
    c.set_defaults(_quiz=_check)
    d = sub.add_parser("blind", help="run every blind answerer over a set; print JSON "
                       "(exit status 1 when one is off chance on some kind)")
    d.add_argument("file", help="a question file")
    d.set_defaults(_quiz=_blind)
    r = sub.add_parser("run", help="ask an agent the questions and score it per kind")
    r.add_argument("file", help="a question file")
    add_agent_arguments(r)
    r.add_argument("--no-observation", action="store_true",
                   help="send each question without its observation")
    r.add_argument("--log", default="quiz_agent_stderr.log",
                   help="where the agent's standard error goes (default %(default)s)")
    r.add_argument("--json", action="store_true", help="print the report as JSON")
    r.add_argument("--order-key", metavar="HEX",
                   help="the secret key that orders the options (default: a fresh random "
                        "one; the report names it, so a run can be repeated)")
    r.set_defaults(_quiz=_run)


def run(args: argparse.Namespace) -> int:
    """Run the subcommand; exit 2 for an unusable file or record, 1 for a failed check.

    A failed check is an answer key that does not hold, or a blind answerer off chance.
    """
    try:
        return int(args._quiz(args))
    except QuizError as exc:
        print(f"harness quiz {args.quiz_command}: {exc}", file=sys.stderr)
        return 2
