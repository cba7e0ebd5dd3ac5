"""`harness tournament --agent A --agent B [...]`: a round robin of matches, then its ladder.

Every pair of agents meets on every match level, difficulty and seed, seats swapped
(harness.ladder.tournament). The folder `--out` holds one run directory per match,
results.json, and the ladder of its records (ladder.json, ladder.html); running the
same command again plays only the matches not recorded yet.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from harness.core import stopping
from harness.core.keys import SecretError, secret_fingerprint, secret_text, suite_secret
from harness.core.level_refs import UsageError, resolve
from harness.episode.settings import (
    MAX_JOBS,
    RunSettings,
    id_list,
    jobs_number,
    positive_int,
)
from harness.ladder.board import markdown, write_outputs
from harness.ladder.ladder_cmd import ladder
from harness.ladder.tournament import TEAMS, plan, results_json, run_tournament
from harness.match.cli import match_level_ref
from harness.suite.files import SuiteLockedError, suite_lock, write_atomically
from harness.suite.plan import BackendFactory, SuiteMismatchError, check_identity, suite_identity
from harness.suite.workers import Play, Workers
from world.face import teams_problem

DEFAULT_LEVELS = "duel_yard,team_yard"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the command's arguments."""
    parser.add_argument("--agent", action="append", required=True,
                        help="an agent command line; give two or more (each pair meets)")
    parser.add_argument("--levels", type=id_list, default=DEFAULT_LEVELS,
                        help="comma-separated match levels (ids of levels/matches/ or files) "
                             "with an even number of seats (default %(default)s)")
    parser.add_argument("--seeds", type=positive_int, default=3,
                        help="seeds 0..N-1 (default %(default)s)")
    parser.add_argument("--workers", type=jobs_number, default=1,
                        help=f"matches played at once, 1 to {MAX_JOBS} (default %(default)s)")
    parser.add_argument("--out", default="tournament", help="output directory (default "
                        "%(default)s); run again to resume")
    parser.add_argument("--backend", choices=("local", "ray"), default="local",
                        help="where matches run: forked local processes (default) or Ray "
                             "tasks (needs the 'ray' extra)")
    parser.add_argument("--address", default=None,
                        help="with --backend ray: the cluster to join ('auto' for this "
                             "machine's); without it a local Ray instance starts")


def levels_of(text: str) -> list[tuple[str, list[str]]]:
    """Each match level with its difficulties.

    Raises:
        UsageError: An unknown level, one without a match block, an odd seat count, or
            team objectives two halves of the seats cannot play (world.match.goals).
    """
    refs = [s.strip() for s in text.split(",") if s.strip()]
    if len(set(refs)) != len(refs):
        raise UsageError("--levels names a level more than once")
    out = []
    for ref in refs:
        level = resolve(match_level_ref(ref)).level
        if level.match is None:
            raise UsageError(f"--levels: level {ref!r} has no match block (it is single-player)")
        if len(level.match.starts) % 2:
            raise UsageError(f"--levels: level {ref!r} has {len(level.match.starts)} seats; a "
                             "round robin of pairs needs an even number")
        half = len(level.match.starts) // 2
        problem = teams_problem(level, (TEAMS[0],) * half + (TEAMS[1],) * half)
        if problem is not None:  # its team objectives need other sides than two halves
            raise UsageError(f"--levels: {problem}")
        out.append((ref, [d.id for d in level.difficulties]))
    return out


def _backend(args: argparse.Namespace) -> BackendFactory:
    if args.backend == "local":
        return Workers
    # Imported only for --backend ray: start-up cost, and Ray is an optional extra.
    from harness.suite.ray import RayEpisodes, import_ray

    import_ray()

    def make(jobs: int, play: Play, limit_s: float) -> RayEpisodes:
        return RayEpisodes(jobs, play, limit_s, address=args.address)

    return make


def run(args: argparse.Namespace) -> int:
    """Play the round robin and write its results and ladder.

    Exit 0 when every match was played, 1 when a match ended in a harness error, 2 on
    bad usage or an --out made with other agents or settings; 128 + N on signal N.
    """
    agents: list[str] = args.agent
    if len(agents) < 2 or len(set(agents)) != len(agents):
        print("harness tournament: --agent: give two or more different agents",
              file=sys.stderr)
        return 2
    if args.address is not None and args.backend != "ray":
        print("harness tournament: --address needs --backend ray", file=sys.stderr)
        return 2
    out, settings = Path(args.out), RunSettings()
    try:
        levels = levels_of(args.levels)
        backend = _backend(args)
        with suite_lock(out):
            secret = suite_secret(out)
            identity = {**suite_identity(" vs ".join(agents), settings), "agents": agents,
                        "secret": secret_fingerprint(secret)}
            check_identity(out, identity)
            pairings = plan(levels, len(agents), args.seeds)
            rows = run_tournament(pairings, agents, out, settings, secret_text(secret),
                                  args.workers, _progress, note=_note, backend=backend)
            meta = {"agents": agents, "levels": [lv for lv, _ in levels],
                    "seeds": args.seeds, "workers": args.workers, "backend": args.backend}
            write_atomically(out / "results.json", results_json(meta, rows))
            board = ladder([out])
            if board["matches"]:
                write_outputs(board, out)
    except (UsageError, SuiteMismatchError, SuiteLockedError, SecretError) as exc:
        print(f"harness tournament: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"harness tournament: cannot write in --out {out}: {exc.strerror or exc}",
              file=sys.stderr)
        return 2
    except stopping.Interrupted as stop:
        print(f"harness tournament: interrupted by {stop.name}; run the same command again "
              "to resume (finished matches are kept)", file=sys.stderr)
        return stop.exit_status
    print(markdown(board))
    failed = sum(1 for r in rows if r.get("error"))
    if failed:
        print(f"harness tournament: {failed} match(es) ended in a harness error (see "
              f"{out / 'results.json'}); exit status 1", file=sys.stderr)
    return 1 if failed else 0


def _progress(done: int, total: int, row: dict[str, Any] | None) -> None:
    if row is None:
        print(f"harness tournament: {done} of {total} match(es) recorded before", file=sys.stderr)
        return
    said = row.get("error") or ", ".join(f"{s['player']} {s['result']}" for s in row["standings"])
    print(f"[{done}/{total}] {row['level']} {row['difficulty']} s{row['seed']} "
          f"a{row['first']} vs a{row['second']}: {said}", file=sys.stderr)


def _note(text: str) -> None:
    print(f"harness tournament: {text}", file=sys.stderr)
