"""`harness eval --agent CMD`: play a suite of levels, difficulties and seeds, and tabulate it."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from harness.core import level_refs, stopping
from harness.core.keys import SECRET_FILE, SecretError, suite_secret
from harness.episode.runner import UsageError, resolve_level
from harness.episode.settings import (
    MAX_JOBS,
    RunSettings,
    add_agent_arguments,
    cpu_share,
    id_list,
    jobs_number,
    positive_int,
    refuse_to_start,
    settings_from_arguments,
)
from harness.suite.files import SuiteLockedError, suite_lock
from harness.suite.index_page import write_index
from harness.suite.plan import (
    BackendFactory,
    SuiteMismatchError,
    plan,
    run_suite,
    suite_identity,
)
from harness.suite.progress import Progress, duration
from harness.suite.report import harness_errors, overall_line, summarise, write_results
from harness.suite.stepwise import default_cache
from harness.suite.stepwise_report import chain_harness_errors
from harness.suite.workers import Play, Workers
from world.face import LEVELS_DIR, is_generated, origin


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the command's arguments."""
    parser.add_argument("--levels", type=id_list, default="all",
                        help="'all' (every level in levels/) or comma-separated level ids, files "
                        "and generated names (TEMPLATE@SEED, a range TEMPLATE@A-B, or a "
                        "secret held-out set TEMPLATE@secret:N whose N level seeds are drawn "
                        f"from the suite's secret, OUT/{SECRET_FILE})")
    parser.add_argument("--difficulties", type=id_list, default="all",
                        help="'all' or comma-separated difficulty ids")
    parser.add_argument("--seeds", type=positive_int, default=10,
                        help="seeds 0..N-1 (default 10)")
    parser.add_argument("--jobs", type=jobs_number, default=None,
                        help=f"episodes played at once, 1 to {MAX_JOBS} (default 1; with "
                             "--backend ray and --address, as many as the cluster has CPUs for)")
    parser.add_argument("--out", default="eval", help="output directory (default eval)")
    parser.add_argument("--backend", choices=("local", "ray"), default="local",
                        help="where episodes run: forked local processes (default) or Ray "
                             "tasks (needs the 'ray' extra)")
    parser.add_argument("--address", default=None,
                        help="with --backend ray: the cluster to join ('auto' for the one "
                             "this machine belongs to); without it a local Ray instance starts")
    parser.add_argument("--cpus-per-episode", type=cpu_share, default=None,
                        help="with --backend ray: CPUs each episode reserves (default 1)")
    parser.add_argument("--show-seeds", action="store_true",
                        help="write each secret-set level's seed into results.json (by "
                        "default only the set's name and the level's index are shown)")
    parser.add_argument("--stepwise", action="store_true",
                        help="also play each episode as its chain of subtasks, each from the "
                        "success state of a reference run (docs/tracks.md, Stepwise track)")
    parser.add_argument("--reference-cache", default=None, metavar="DIR",
                        help="with --stepwise: where reference runs are cached (default "
                        "$XDG_CACHE_HOME/mission-harness/reference, else "
                        "~/.cache/mission-harness/reference)")
    parser.add_argument("--quiet", action="store_true",
                        help="no progress and no table: print one final line (the totals "
                             "and where the results are); warnings still go to stderr")
    add_agent_arguments(parser)


def resolve_suite(levels: str, difficulties: str, secret: bytes | None = None
                  ) -> list[tuple[str, list[str]]]:
    """Level ids with the difficulties to play on each (a secret set's drawn with `secret`).

    Raises:
        UsageError: An unknown level, or a difficulty no chosen level has.
    """
    ids = (sorted(p.stem for p in LEVELS_DIR.glob("*.json")) if levels == "all"
           else level_refs.expand([s.strip() for s in levels.split(",") if s.strip()]))
    wanted = None if difficulties == "all" else [
        s.strip() for s in difficulties.split(",") if s.strip()]
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        raise UsageError(f"--levels names {', '.join(twice)} more than once")
    out = []
    for ref in ids:
        level, _ = resolve_level(ref, secret)
        have = [d.id for d in level.difficulties]
        chosen = have if wanted is None else [d for d in wanted if d in have]
        missing = [] if wanted is None else [d for d in wanted if d not in have]
        if missing:
            raise UsageError(f"level {ref!r} has no difficulty {', '.join(missing)} "
                             f"({', '.join(have)})")
        out.append((ref, chosen))
    return out


def run(args: argparse.Namespace) -> int:
    """Run the suite.

    Exit 0 when it ran, 1 when any episode ended in a harness error, 2 on a usage error,
    a mismatched --out or one another suite is writing to, or a required sandbox that
    cannot be made; 128 + N when stopped by signal N (130 SIGINT, 143 SIGTERM, 129 SIGHUP).
    """
    settings = settings_from_arguments(args)
    out = Path(args.out)
    misplaced = _backend_problem(args) or (
        "--reference-cache needs --stepwise" if args.reference_cache and not args.stepwise
        # A Ray task sends back its episode's run directory only, not the chain's.
        else "--stepwise runs on the local backend only" if args.stepwise
        and args.backend == "ray" else None)
    if misplaced:
        print(f"harness eval: {misplaced}", file=sys.stderr)
        return 2
    if refuse_to_start("eval", settings, out):
        return 2
    try:
        backend = _backend(args)
        # One suite at a time per folder, from resume to the last results file.
        with suite_lock(out):
            secret = suite_secret(out)  # made on the first run, the same on every resume
            suite = resolve_suite(args.levels, args.difficulties, secret)
            episodes = plan(suite, args.seeds)
            progress = Progress(quiet=args.quiet)
            rows = run_suite(episodes, args.agent, out, settings, args.jobs or 1, progress,
                             note=_note, backend=backend, stepwise=_stepwise(args),
                             secret=secret)
            return _report(args, out, settings, suite, rows, secret,
                           took_s=progress.clock() - progress.start)
    except (UsageError, SuiteMismatchError, SuiteLockedError, SecretError) as exc:
        print(f"harness eval: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # a full disk, a folder made read-only while the suite ran
        print(f"harness eval: cannot write in --out {out}: {exc.strerror or exc}"
              + (f" ({exc.filename})" if exc.filename else ""), file=sys.stderr)
        return 2
    except stopping.Interrupted as stop:
        print(f"harness eval: interrupted by {stop.name}; every worker and agent was ended "
              "and each running episode's record ends as interrupted. Run the same command "
              "again to resume: finished episodes are kept, interrupted ones set aside and "
              "played again.", file=sys.stderr)
        return stop.exit_status


def _backend_problem(args: argparse.Namespace) -> str | None:
    # The Ray options mean nothing to the local backend: say so rather than ignore them.
    if args.backend == "ray":
        return None
    given = [flag for flag, value in (("--address", args.address),
                                      ("--cpus-per-episode", args.cpus_per_episode))
             if value is not None]
    return f"{' and '.join(given)} need --backend ray" if given else None


def _backend(args: argparse.Namespace) -> BackendFactory:
    """The backend the flags ask for; Ray is imported only when asked for.

    Raises:
        UsageError: --backend ray without Ray installed (the message names the extra).
    """
    if args.backend == "local":
        return Workers
    # Imported only for --backend ray: start-up cost, and Ray is an optional extra.
    from harness.suite.ray import RayEpisodes, import_ray

    import_ray()  # fail before anything is played or locked
    jobs = args.jobs if args.jobs is not None or args.address is not None else 1

    def make(_jobs: int, play: Play, limit_s: float) -> RayEpisodes:
        return RayEpisodes(jobs, play, limit_s, address=args.address,
                           cpus_per_episode=args.cpus_per_episode or 1.0, agent=args.agent)

    return make


def _stepwise(args: argparse.Namespace) -> dict[str, str] | None:
    if not args.stepwise:
        return None
    cache = Path(args.reference_cache) if args.reference_cache else default_cache()
    return {"cache": str(cache.resolve())}


def _note(text: str) -> None:
    print(f"harness eval: {text}", file=sys.stderr)


def _report(args: argparse.Namespace, out: Path, settings: RunSettings,
            suite: list[tuple[str, list[str]]], rows: list[dict[str, Any]], secret: bytes,
            took_s: float) -> int:
    meta = {"agent": args.agent, "levels": [lv for lv, _ in suite],
            "difficulties": {lv: ds for lv, ds in suite}, "seeds": args.seeds,
            # jobs None: as many at once as the Ray cluster had CPUs for.
            "jobs": 1 if args.jobs is None and args.address is None else args.jobs,
            "backend": args.backend, "address": args.address,
            "stepwise": _stepwise(args),
            **suite_identity(args.agent, settings)}
    generated = {lv: _origin(lv, secret, args.show_seeds) for lv, _ in suite
                 if is_generated(lv) and not Path(lv).exists()}
    if generated:  # a published figure names exactly what was played
        meta["generated"] = generated
    table = write_results(out, meta, rows)
    _index_page(out, meta, rows)
    if args.quiet:  # the one line: totals, time and where the results are
        print(f"{overall_line(summarise(rows))} Took {duration(took_s)}; results: "
              f"{out / 'results.json'}")
    else:
        print(table)
        print(f"results: {out / 'results.json'}, table: {out / 'results.md'}",
              file=sys.stderr)
    failed = harness_errors(rows)
    if failed:
        print(f"harness eval: {failed} episode(s) ended in a harness error (marked in the "
              "tables, left out of the agent's figures); exit status 1", file=sys.stderr)
    chains = chain_harness_errors(rows)
    if chains:
        print(f"harness eval: {chains} stepwise chain(s) ended in a harness error (marked in "
              "the stepwise table, left out of its figures); exit status 1", file=sys.stderr)
    return 1 if failed or chains else 0


def _origin(ref: str, secret: bytes, show_seeds: bool) -> dict[str, Any]:
    # A secret set's level is named by its set and index; its seed only when asked for.
    member = level_refs.secret_member(ref)
    if member is None:
        return origin(ref)
    found = {k: v for k, v in origin(f"{member.template}@0"
                                      + (f"?{member.params}" if member.params else "")).items()
             if k not in ("seed", "name")}
    found.update(name=ref, set={"name": member.set_name, "index": member.index})
    if show_seeds:
        found["seed"] = level_refs.member_seed(ref, secret)
    return found


def _index_page(out: Path, meta: dict[str, Any], rows: list[dict[str, Any]]) -> None:
    write_index(out / "index.html", meta, rows)
