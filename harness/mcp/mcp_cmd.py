"""`harness mcp LEVEL`: serve one episode over MCP (stdio, or streamable HTTP on 127.0.0.1).

The MCP client is the agent (harness.mcp.server). On stdio, standard output is the MCP
channel, so the run directory and the outcome go to standard error. The episode starts
at the client's first request; once it has ended, the server stays up for `--linger`
seconds so the client can read the summary (on stdio, until the client closes sooner).
Needs the optional extra `mcp` (pip install 'mission-harness[mcp]').
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import threading
from pathlib import Path
from typing import Any

from harness.core import keys, level_refs, stopping
from harness.core.keys import SECRET_FILE, episode_key, write_secret
from harness.core.level_refs import UsageError, given_secret
from harness.core.tracks import TRACKS, TrackSpec
from harness.episode.live import EpisodeSpec
from harness.episode.runner import new_run_dir, pick_difficulty
from harness.episode.settings import (
    RunSettings,
    add_turn_limits,
    out_problem,
    positive_seconds,
    seed_number,
)
from harness.pages import write_episode_page_safely

HOST = "127.0.0.1"


def port_number(text: str) -> int:
    """A TCP port from the command line, 1 to 65535."""
    try:
        port = int(text)
    except ValueError:
        port = 0
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (1 to 65535)")
    return port


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the command's arguments."""
    parser.add_argument("level", help="level id in levels/ (e.g. outpost), a level file path "
                        "or a generated name")
    parser.add_argument("--difficulty", help="difficulty id (default: the level's middle one)")
    parser.add_argument("--seed", type=seed_number, default=0, help="episode seed")
    parser.add_argument("--secret", metavar="HEX_OR_FILE", default=None,
                        help="the secret the episode's randomness and a generated level's id "
                        "are drawn from, as for harness run: hex, or a file holding it; "
                        f"default a fresh one, written to the new run directory's {SECRET_FILE}")
    parser.add_argument("--out", default="runs", help="parent directory of run directories")
    parser.add_argument("--track", choices=list(TRACKS), default="macro",
                        help="whose actions the tools are (default macro)")
    parser.add_argument("--http", type=port_number, metavar="PORT", default=None,
                        help=f"serve streamable HTTP on {HOST}:PORT/mcp instead of stdio")
    parser.add_argument("--linger", type=positive_seconds, default=30.0,
                        help="seconds the server stays up after the end for the summary")
    add_turn_limits(parser)


def run(args: argparse.Namespace) -> int:
    """Serve the episode; 0 once it was played, 2 on bad usage or a client gone before it began."""
    try:
        from harness.mcp.server import McpEpisode  # start-up cost, and the optional extra
    except ImportError as exc:
        print(f"harness mcp: the MCP SDK is not installed ({exc}); "
              "pip install 'mission-harness[mcp]'", file=sys.stderr)
        return 2
    problem = out_problem(args.out)
    if problem:
        print(f"harness mcp: {problem}", file=sys.stderr)
        return 2
    transport = "stdio" if args.http is None else f"streamable HTTP on {HOST}:{args.http}"
    try:
        spec = _spec(args, transport)
    except (UsageError, ValueError) as exc:
        print(f"harness mcp: {exc}", file=sys.stderr)
        return 2
    episode = McpEpisode(spec, transport)
    serving = _Http(episode, args.http) if args.http is not None else _Stdio(episode)
    serving.start()
    try:
        summary = episode.play(wait=serving.alive)
    finally:
        if stopping.requested() is not None:
            serving.stop()
    if summary is None:
        print(f"harness mcp: {serving.gone}", file=sys.stderr)
        shutil.rmtree(spec.run_dir, ignore_errors=True)
        return 2
    write_episode_page_safely(spec.run_dir)
    print(spec.run_dir, file=sys.stderr)
    print(f"{summary['outcome']}: {summary['reason']}; score {summary['score']:.2f}, "
          f"{summary['decisions']} decisions", file=sys.stderr)
    if stopping.requested() is None:
        serving.linger(args.linger)
    serving.stop()
    stop = stopping.requested()
    return 0 if stop is None else stop.exit_status


def _spec(args: argparse.Namespace, transport: str) -> EpisodeSpec:
    secret = given_secret(args.secret)
    settings = RunSettings(decision_timeout_s=args.decision_timeout,
                           episode_timeout_s=args.episode_timeout,
                           max_invalid_in_a_row=args.max_invalid)
    return episode_spec(args.level, f"mcp ({transport})", difficulty=args.difficulty,
                        seed=args.seed, out_dir=args.out, settings=settings,
                        track=TrackSpec(args.track), secret=secret)


def episode_spec(level_ref: str, command: str, *, difficulty: str | None = None, seed: int = 0,
                 out_dir: str | Path = "runs", settings: RunSettings | None = None,
                 track: TrackSpec | None = None, secret: bytes | None = None) -> EpisodeSpec:
    """An episode as `harness run` makes it, in a new run directory, for an agent already there.

    Args:
        level_ref: Level id, file or generated name.
        command: What the record names as the agent command.
        difficulty: A difficulty id (default: the level's middle one).
        seed: The episode seed.
        out_dir: Parent of the new run directory.
        settings: Deadlines and limits.
        track: The track (default macro actions).
        secret: The secret the episode key is drawn from (harness/core/keys.py); None: a
            fresh one, written to the run directory's secret file as `harness run` does.

    Raises:
        UsageError: Unknown level or difficulty.
    """
    made_secret = secret is None
    secret = keys.new_secret() if secret is None else secret
    found = level_refs.resolve(level_ref, secret)
    chosen = pick_difficulty(found.level, difficulty)
    run_dir = new_run_dir(Path(out_dir), found.level, chosen, seed)
    if made_secret:
        write_secret(run_dir / SECRET_FILE, secret)
    key = episode_key(secret, found.level.content_hash, chosen, seed)
    return EpisodeSpec(found.level, found.source, chosen, seed, command, run_dir,
                       settings or RunSettings(), generated=found.generated,
                       track=track or TrackSpec(), key=key)


class _Stdio:
    """The server on standard input and output, in a thread of its own."""

    gone = "the MCP client closed standard input before the episode began"

    def __init__(self, episode: Any) -> None:
        self.episode = episode
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._serve, name="mcp-stdio", daemon=True)

    def _serve(self) -> None:
        import anyio  # start-up cost: the SDK's transports load only for the one in use
        from mcp.server.stdio import stdio_server  # start-up cost, as above

        async def serve() -> None:
            async with stdio_server() as (read, write):
                server = self.episode.server
                await server.run(read, write, server.create_initialization_options())

        try:
            anyio.run(serve)
        finally:
            self.episode.agent.leave()  # the client is gone: the episode reads end of file
            self.done.set()

    def start(self) -> None:
        self.thread.start()

    def alive(self) -> bool:
        return not self.done.is_set()

    def linger(self, seconds: float) -> None:
        self.done.wait(seconds)

    def stop(self) -> None:
        # A client that never closes its end keeps a reader blocked in a worker thread;
        # the episode is recorded by now, so the process ends without waiting for it.
        if not self.done.wait(0.5):
            sys.stderr.flush()
            stop = stopping.requested()
            os._exit(0 if stop is None else stop.exit_status)


class _Http:
    """The server as streamable HTTP on 127.0.0.1 (uvicorn), in a thread of its own."""

    def __init__(self, episode: Any, port: int) -> None:
        import uvicorn  # start-up cost: only the HTTP transport needs it

        self.episode = episode
        self.gone = (f"the server on {HOST}:{port} stopped before any client came (is the "
                     "port in use? the reason is above)")
        app = episode.server.streamable_http_app(host=HOST)
        self.server = uvicorn.Server(uvicorn.Config(app, host=HOST, port=port,
                                                    log_level="warning", lifespan="on"))
        self.thread = threading.Thread(target=self.server.run, name="mcp-http", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def alive(self) -> bool:
        return self.thread.is_alive()

    def linger(self, seconds: float) -> None:
        # Until the client has read the summary (or the time is up).
        self.episode.summary_read.wait(seconds)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(5.0)
