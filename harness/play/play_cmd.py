"""`harness play LEVEL`: a person plays, in the terminal or (`--web`) in a browser.

The person is the episode's agent, speaking the protocol in-process
(harness.play.session): the run is recorded, replays, gets its page, and its row goes
to `OUT/results.json` so `harness compare OUT ...` lists the player (their `--name`) as
an agent of kind human. `--reveal` is a playtest for level authors: the whole level is
shown, the record's command says so, and it never reaches the results. With
`--episodes N` the level is read afresh before each episode, so an author can edit the
file between them. The terminal front needs the optional extra `play`
(pip install 'mission-harness[play]'); the browser front needs nothing more.

Where the runs go: every scored episode's run directory is kept under
`OUT/episodes/LEVEL/DIFFICULTY/sSEED/` (as `harness eval` keeps them) and its row is
added to `OUT/results.json`, a suite's results whose `suite.kind` is `human`; a playtest
goes under `OUT/playtest/` and never into the results.
"""

from __future__ import annotations

import argparse
import contextlib
import getpass
import json
import signal
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol

from harness.core import keys, level_refs, stopping
from harness.core.keys import SECRET_FILE, episode_key, write_secret
from harness.core.level_refs import UsageError, given_secret
from harness.core.seal import seal
from harness.episode.live import EpisodeSpec
from harness.episode.runner import new_run_dir, pick_difficulty
from harness.episode.settings import RunSettings, add_turn_limits, out_problem, seed_number
from harness.mcp.mcp_cmd import port_number
from harness.pages import write_episode_page_safely
from harness.play.session import FRONTS, HUMAN_COMMAND, HUMAN_KIND, PlaySession, agent_command
from harness.suite.files import SuiteLockedError, suite_lock
from harness.suite.plan import Episode, row_from_summary
from harness.suite.report import write_results
from world.face import Level

HOST = "127.0.0.1"
# A person thinks longer than a program: a decision may take half an hour by default.
PLAY_DECISION_S, PLAY_EPISODE_S = 1800.0, 4 * 3600.0
INSTALL = "pip install 'mission-harness[play]'"


class PlayFront(Protocol):
    """Where the person sees the episode and chooses actions."""

    def show(self, session: PlaySession, more: bool) -> None:
        """Show this episode until the person closes it (`more`: another episode follows)."""

    def again(self) -> bool:
        """After `show`: whether the person asked for the next episode."""

    def release(self) -> None:
        """End `show` without asking the person (Ctrl-C came where the command runs)."""

    def stop(self) -> None:
        """Release the front (the server, the terminal)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the command's arguments."""
    parser.add_argument("level", help="level id in levels/ (e.g. outpost), a level file path "
                        "or a generated name")
    parser.add_argument("--name", default=None,
                        help="your name, as comparisons list you (default: your login name)")
    parser.add_argument("--difficulty", help="difficulty id (default: the level's middle one)")
    parser.add_argument("--seed", type=seed_number, default=0, help="episode seed")
    parser.add_argument("--secret", metavar="HEX_OR_FILE", default=None,
                        help="the secret the episode's randomness is drawn from, as for "
                        f"harness run (default a fresh one, kept in the run's {SECRET_FILE})")
    parser.add_argument("--out", default="play",
                        help="folder of your runs: OUT/episodes/... and OUT/results.json, "
                        "which harness compare reads")
    parser.add_argument("--web", action="store_true",
                        help=f"play in a browser: a page served on {HOST} (the URL is printed)")
    parser.add_argument("--host", default=HOST,
                        help="with --web: the address to serve on; another than 127.0.0.1 "
                        "lets other hosts play as you")
    parser.add_argument("--port", type=port_number, default=None,
                        help="with --web: the port (default: a free one)")
    parser.add_argument("--reveal", action="store_true",
                        help="playtest: show the whole level; the run is marked as not "
                        "scored and never counted in comparisons (under OUT/playtest)")
    parser.add_argument("--episodes", type=int, default=1,
                        help="episodes to offer in a row; the level file is read again "
                        "before each, so edits between them take effect")
    add_turn_limits(parser)
    parser.set_defaults(decision_timeout=PLAY_DECISION_S, episode_timeout=PLAY_EPISODE_S)


def run(args: argparse.Namespace) -> int:
    """Play; 0 once played, 2 on bad usage or a front that cannot start."""
    name = (args.name or _login() or "player").strip()
    problem = out_problem(args.out) or (None if args.episodes >= 1 else
                                        "--episodes must be 1 or more")
    if not name:
        problem = "--name must not be empty"
    try:
        if problem is None:
            check_results(Path(args.out))
        front = _front(args) if problem is None else None
    except (ResultsError, ImportError, OSError) as exc:
        problem = str(exc)
        front = None
    if front is None:
        print(f"harness play: {problem}", file=sys.stderr)
        return 2
    try:
        for index in range(args.episodes):
            _episode(args, name, front, more=index + 1 < args.episodes)
            if index + 1 < args.episodes and not front.again():
                break
    except (UsageError, ValueError, ResultsError, SuiteLockedError) as exc:
        print(f"harness play: {exc}", file=sys.stderr)
        return 2
    finally:
        front.stop()
    stop = stopping.requested()
    return 0 if stop is None else stop.exit_status


def _login() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return ""


def _front(args: argparse.Namespace) -> PlayFront:
    if args.web:
        from harness.play.web import WebFront  # start-up cost: only the browser needs it

        return WebFront(args.host, args.port, args.reveal)
    try:
        from harness.play.tui import TerminalFront  # start-up cost, and the optional extra
    except ImportError as exc:
        raise ImportError(f"the terminal front needs prompt_toolkit ({exc}); {INSTALL}, "
                          "or play in a browser with --web") from None
    return TerminalFront(args.reveal)


def _spec(args: argparse.Namespace) -> EpisodeSpec:
    # Read afresh for every episode: an author's edit to the file between episodes counts.
    secret = given_secret(args.secret)
    made = secret is None
    secret = keys.new_secret() if secret is None else secret
    found = level_refs.resolve(args.level, secret)
    chosen = pick_difficulty(found.level, args.difficulty)
    name = _row_level(found.level, found.source, found.generated)
    run_dir = run_dir_for(Path(args.out), found.level, name, chosen, args.seed, args.reveal)
    if made:
        write_secret(run_dir / SECRET_FILE, secret)
    settings = RunSettings(decision_timeout_s=args.decision_timeout,
                           episode_timeout_s=args.episode_timeout,
                           max_invalid_in_a_row=args.max_invalid)
    return EpisodeSpec(found.level, found.source, chosen, args.seed, agent_command(args.reveal),
                       run_dir, settings, generated=found.generated,
                       key=episode_key(secret, found.level.content_hash, chosen, args.seed))


def _episode(args: argparse.Namespace, name: str, front: PlayFront, more: bool) -> None:
    spec = _spec(args)
    session = PlaySession(spec, name, FRONTS["web" if args.web else "terminal"], args.reveal)
    if args.reveal:
        session.reveal_level()
    shown = threading.Thread(target=_show, args=(front, session, more), name="play-front",
                             daemon=True)
    shown.start()
    with _sigint_quits(session) as signalled:
        summary = session.play()
    # The record is finished before the person closes the front: a stop signal while
    # they look at the end loses nothing.
    try:
        seal(spec.run_dir)
    except OSError as exc:  # the run stands; only resume and the reference cache need a seal
        warning = f"harness play: warning: the record is not sealed ({exc})"
    else:
        warning = ""
    write_episode_page_safely(spec.run_dir)
    path = None
    # The harness's own failure is not the person's: such a run is recorded, not counted.
    if not args.reveal and stopping.requested() is None and session.front_failed is None:
        name = _row_level(spec.level, spec.level_source, spec.generated)
        path = add_result(Path(args.out), name, spec.difficulty, spec.seed, summary)
    if signalled:  # Ctrl-C where the command runs: nobody is asked what comes next
        front.release()
    elif args.web:  # the terminal is free to speak while the page waits for the person
        print(f"harness play: the episode is over and recorded ({spec.run_dir}); choose on "
              "the page what comes next, or press Ctrl-C", file=sys.stderr, flush=True)
    shown.join()
    for line in (warning, f"added to {path}" if path else ""):
        if line:
            print(line, file=sys.stderr)
    print(spec.run_dir)
    print(f"{summary['outcome']}: {summary['reason']}; score {summary['score']:.2f}, "
          f"{summary['decisions']} decisions", file=sys.stderr)


def _show(front: PlayFront, session: PlaySession, more: bool) -> None:
    try:
        front.show(session, more)
    except Exception as exc:  # a broken front must not leave the episode waiting forever
        session.front_failed = f"{type(exc).__name__}: {exc}"
        print(f"harness play: the front stopped ({exc}); the episode ends and is not "
              "counted", file=sys.stderr)
    finally:
        if session.view().summary is None:
            session.quit()


@contextlib.contextmanager
def _sigint_quits(session: PlaySession) -> Iterator[list[int]]:
    # Ctrl-C where the command runs is the player leaving: the episode ends as an agent
    # gone early and counts, instead of an interrupted run that proves nothing. The
    # list it gives holds the signals caught.
    caught: list[int] = []

    def quit_episode(signum: int, _frame: Any) -> None:
        caught.append(signum)
        session.quit()

    before = signal.signal(signal.SIGINT, quit_episode)
    try:
        yield caught
    finally:
        signal.signal(signal.SIGINT, before)


# Where the runs go.

RESULTS_FILE = "results.json"
PLAYTEST_DIR = "playtest"


class ResultsError(Exception):
    """The results file of the folder is not a person's; the message names it."""


def _row_level(level: Level, source: str, generated: object) -> str:
    # The level as `harness eval` names its rows: a generated level by its canonical
    # name (its id is drawn from the episode's secret, fresh for each episode), any
    # other by its id.
    return source if generated is not None else level.id


def run_dir_for(out: Path, level: Level, name: str, difficulty: str, seed: int,
                reveal: bool) -> Path:
    """A fresh run directory: under `episodes/` like a suite's, or `playtest/` for --reveal.

    `name` is the level as the results rows name it (`_row_level`).
    """
    if reveal:
        return new_run_dir(out / PLAYTEST_DIR, level, difficulty, seed)
    folder = Episode(name, difficulty, seed).folder(out)
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
        harness.suite.files.SuiteLockedError: Another process is writing there.
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
