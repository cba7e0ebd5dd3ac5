"""Run one episode from a level reference and an agent command: the front door of the harness.

`run` resolves the level (an id in levels/ or a path), checks that the agent can be
started, makes a fresh run directory and plays the episode. Only usage mistakes raise
(`UsageError`); whatever the agent does, a finished record and a summary come back.
"""

from __future__ import annotations

import datetime as _dt
import os
import secrets
import shutil
from pathlib import Path
from typing import Any

from harness.agent_launch import AgentLaunchError, resolve_argv
from harness.episode import EpisodeSpec, run_episode
from harness.game import GameFactory
from harness.record import RecordError, record_text
from harness.settings import RunSettings, sandbox_notice
from harness.stopping import Interrupted
from harness.tracks import TrackSpec
from world.data_paths import LEVELS_DIR
from world.errors import LevelError
from world.level.check import check_level
from world.level.load import parse_level, read_level_json
from world.level.model import Level


class UsageError(Exception):
    """A mistake in what was asked for (unknown level or difficulty, unusable agent)."""


def resolve_level(ref: str) -> tuple[Level, Path]:
    """Load a level given as an id in levels/ or as a path to a level file.

    Args:
        ref: "outpost", "levels/outpost.json" or any path.

    Returns:
        The level and the file it came from.

    Raises:
        UsageError: No such level, or a level `harness check` rejects (its messages).
    """
    path = Path(ref)
    if not path.is_file():
        candidate = LEVELS_DIR / f"{ref}.json"
        if not candidate.is_file():
            known = ", ".join(sorted(p.stem for p in LEVELS_DIR.glob("*.json"))) or "none"
            raise UsageError(f"no level {ref!r}: not a file and not a level id (known: {known})")
        path = candidate
    # The same checks as `harness check`, on the level loaded once.
    try:
        level = parse_level(read_level_json(path), str(path))
    except LevelError as exc:
        raise UsageError(f"level {ref!r} is not valid:\n{exc}") from exc
    report = check_level(level, file=str(path))
    if not report.ok:
        found = "\n".join(str(p) for p in report.problems)
        raise UsageError(f"level {ref!r} is not valid:\n{found}")
    return level, path.resolve()


def pick_difficulty(level: Level, difficulty: str | None) -> str:
    """The difficulty to play: the one asked for, or the level's middle one.

    Raises:
        UsageError: The level has no such difficulty.
    """
    ids = [d.id for d in level.difficulties]
    if difficulty is None:
        return ids[len(ids) // 2]
    if difficulty not in ids:
        raise UsageError(f"level {level.id!r} has no difficulty {difficulty!r} ({', '.join(ids)})")
    return difficulty


def new_run_dir(out_dir: Path, level: Level, difficulty: str, seed: int) -> Path:
    """Create a fresh, uniquely named run directory under out_dir."""
    stamp = _dt.datetime.now(_dt.UTC).strftime("%Y%m%dT%H%M%S")
    run_id = f"{level.id}-{difficulty}-s{seed}-{stamp}-{secrets.token_hex(3)}"
    path = Path(out_dir) / run_id
    path.mkdir(parents=True, exist_ok=False)
    return path


def run(
    level_ref: str,
    agent_command: str,
    *,
    difficulty: str | None = None,
    seed: int = 0,
    out_dir: str | os.PathLike[str] = "runs",
    settings: RunSettings | None = None,
    game_factory: GameFactory | None = None,
    track: TrackSpec | None = None,
) -> dict[str, Any]:
    """Play one episode and return its summary.

    Args:
        level_ref: Level id in levels/ or a path to a level file.
        agent_command: The agent's command line (any executable).
        difficulty: A difficulty id of the level (default: its middle one).
        seed: The episode seed.
        out_dir: Parent of the new run directory.
        settings: Deadlines and limits (defaults as in PROTOCOL.md).
        game_factory: Builds the game (default: the track's; a test may swap it).
        track: The track to play (default: macro actions).

    Returns:
        The summary: run_dir, record, stderr_log, level, difficulty, seed, outcome,
        terminated, truncated, success, failure, score, progress, objectives,
        decisions, invalid_actions, game_ticks, reason, wall_s, agent (its hello),
        agent_error (None, or turn, kind, message) and usage (self-reported).

    Raises:
        UsageError: Unknown level or difficulty, an agent that cannot be started, or
            a sandbox that is required but cannot be made.
        harness.stopping.Interrupted: A stop signal came before the episode began (once
            it has begun, the episode ends as `interrupted` and its summary comes back).
    """
    level, source = resolve_level(level_ref)
    chosen = pick_difficulty(level, difficulty)
    settings = settings or RunSettings()
    try:
        resolve_argv(agent_command)
    except AgentLaunchError as exc:
        raise UsageError(str(exc)) from exc
    refused, _warning = sandbox_notice(settings)
    if refused:
        raise UsageError(refused)
    run_dir = new_run_dir(Path(out_dir), level, chosen, seed)
    track = track or TrackSpec()
    spec = EpisodeSpec(level, str(source), chosen, seed, agent_command, run_dir, settings,
                       track)
    try:
        summary = run_episode(spec, game_factory or track.game_factory())
    except AgentLaunchError as exc:
        raise UsageError(str(exc)) from exc
    except Interrupted:
        # Stopped while the world was being built: no agent ran and nothing was recorded.
        if not _holds_lines(run_dir):
            shutil.rmtree(run_dir, ignore_errors=True)
        raise
    # The page is only a view of the finished record: failing to write it never loses a run.
    from harness.pages import write_episode_page_safely

    write_episode_page_safely(run_dir)
    return summary


def _holds_lines(run_dir: Path) -> bool:
    # Whether the run directory's record has any line (a gzip header alone has none).
    try:
        return bool(record_text(run_dir).strip())
    except (OSError, UnicodeDecodeError, RecordError):
        return False
