"""Run one episode from a level reference and an agent command: the front door of the harness.

`run` resolves the level (an id in levels/ or a path), checks that the agent can be
started, makes a fresh run directory and plays the episode. Only usage mistakes raise
(`UsageError`); whatever the agent does, a finished record and a summary come back.
"""

from __future__ import annotations

import datetime as _dt
import os
import re
import secrets
import shutil
import sys
from pathlib import Path
from typing import Any

from harness.agent.launch import AgentLaunchError, resolve_argv
from harness.core import keys, level_refs
from harness.core.game import GameFactory
from harness.core.keys import SECRET_FILE, episode_key, key_of, write_secret
from harness.core.level_refs import UsageError
from harness.core.record import RecordError, record_text
from harness.core.seal import seal
from harness.core.stopping import Interrupted
from harness.core.tracks import TrackSpec
from harness.episode.live import EpisodeSpec, run_episode
from harness.episode.settings import RunSettings, sandbox_notice
from harness.episode.snapshot import Snapshot, SnapshotError, read_snapshot
from harness.episode.subtask import ChainPlan
from harness.pages import write_episode_page_safely
from world.face import Level

__all__ = ["UsageError", "pick_difficulty", "resolve_level", "run"]


def resolve_level(ref: str, secret: bytes | None = None) -> tuple[Level, str]:
    """Load a level given as an id in levels/, a path to a level file or a generated name.

    Args:
        ref: "outpost", "levels/outpost.json", any path, or "maze@3?rooms=12".
        secret: The secret a generated level's id (and a secret set's seeds) is drawn from.

    Returns:
        The level and where it came from (the file's path, or the generated name).

    Raises:
        UsageError: No such level, or a level `harness check` rejects (its messages).
    """
    found = level_refs.resolve(ref, secret)
    return found.level, found.source


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


# What a run directory's name keeps; any other character (the `:` of a Doom mission's
# id, `?`, `*`, a space) becomes `_`, so the name is valid on every file system.
_UNPORTABLE = re.compile(r"[^A-Za-z0-9_.-]")


def run_name(level_id: str, difficulty: str, seed: int, stamp: str, token: str) -> str:
    """A run directory's name: `LEVEL-DIFFICULTY-sSEED-STAMP-TOKEN`, portable characters only."""
    return _UNPORTABLE.sub("_", f"{level_id}-{difficulty}-s{seed}-{stamp}-{token}")


def new_run_dir(out_dir: Path, level: Level, difficulty: str, seed: int) -> Path:
    """Create a fresh, uniquely named run directory under out_dir (see `run_name`)."""
    stamp = _dt.datetime.now(_dt.UTC).strftime("%Y%m%dT%H%M%S")
    run_id = run_name(level.id, difficulty, seed, stamp, secrets.token_hex(3))
    path = Path(out_dir) / run_id
    path.mkdir(parents=True, exist_ok=False)
    return path


def run(
    level_ref: str,
    agent_command: str,
    *,
    difficulty: str | None = None,
    seed: int | None = None,
    out_dir: str | os.PathLike[str] = "runs",
    settings: RunSettings | None = None,
    game_factory: GameFactory | None = None,
    track: TrackSpec | None = None,
    origin: str | os.PathLike[str] | Snapshot | None = None,
    chain: ChainPlan | None = None,
    secret: bytes | None = None,
    hidden: tuple[Path, ...] = (),
) -> dict[str, Any]:
    """Play one episode and return its summary.

    Args:
        level_ref: Level id in levels/, a path to a level file or a generated name.
        agent_command: The agent's command line (any executable).
        difficulty: A difficulty id of the level (default: its middle one).
        seed: The episode seed (default 0, or the snapshot's).
        out_dir: Parent of the new run directory.
        settings: Deadlines and limits (defaults as in PROTOCOL.md).
        game_factory: Builds the game (default: the track's; a test may swap it).
        track: The track to play (default: the snapshot's, else macro actions).
        origin: A snapshot (or its file) to start from (its difficulty, seed and track
            with its frame skip are the episode's; one given as well must agree).
        chain: The chain of a stepwise episode (None: the mission as a whole).
        secret: The harness's secret the episode key and a generated level's id are
            drawn from (harness/core/keys.py). None: a fresh one, written to the run
            directory's `secret` file (mode 0600) so the operator can play it again.
            From a snapshot the key is the snapshot's.
        hidden: Further paths the sandbox hides from the agent (the file the secret was
            read from, the suite's secret, the stepwise reference runs): a folder that
            holds one is never shown whole.

    Returns:
        The summary: run_dir, record, stderr_log, level, difficulty, seed, outcome,
        terminated, truncated, success, failure, score, progress, objectives,
        decisions, invalid_actions, game_ticks, reason, wall_s, agent (its hello),
        agent_error (None, or turn, kind, message) and usage (self-reported).

    Raises:
        UsageError: Unknown level or difficulty, an agent that cannot be started, a
            sandbox that is required but cannot be made, or a snapshot that does not
            fit (another version, level, difficulty, seed or track, or forged).
        harness.core.stopping.Interrupted: A stop signal came before the episode began (once
            it has begun, the episode ends as `interrupted` and its summary comes back).
    """
    made_secret = secret is None
    secret = keys.new_secret() if secret is None else secret
    found = level_refs.resolve(level_ref, secret)
    level = found.level
    snapshot = (_origin(origin, level, difficulty, seed, track, found.generated is not None)
                if origin is not None else None)
    if snapshot is not None:
        difficulty, seed = snapshot.difficulty, snapshot.seed
        track = track or _snapshot_track(snapshot)
    track = track or TrackSpec()
    seed = 0 if seed is None else seed
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
    if made_secret:
        write_secret(run_dir / SECRET_FILE, secret)
    # From a snapshot the episode goes on with the snapshot's key (its world's draws).
    key = (key_of(snapshot.to_dict()) if snapshot is not None
           else episode_key(secret, level.content_hash, chosen, seed))
    spec = EpisodeSpec(level, found.source, chosen, seed, agent_command, run_dir, settings,
                       generated=found.generated, track=track, origin=snapshot,
                       chain=chain, key=key, hidden=hidden)
    try:
        summary = run_episode(spec, game_factory or track.game_factory())
    except (AgentLaunchError, SnapshotError) as exc:
        shutil.rmtree(run_dir, ignore_errors=True)
        raise UsageError(str(exc)) from exc
    except Interrupted:
        # Stopped while the world was being built: no agent ran and nothing was recorded.
        if not _holds_lines(run_dir):
            shutil.rmtree(run_dir, ignore_errors=True)
        raise
    try:
        seal(run_dir)
    except OSError as exc:  # the run stands; only resume and the reference cache need a seal
        print(f"harness: warning: the record is not sealed ({exc})", file=sys.stderr)
    # The page is only a view of the finished record: failing to write it never loses a run.
    write_episode_page_safely(run_dir)
    return summary


def _origin(path: str | os.PathLike[str] | Snapshot, level: Level, difficulty: str | None,
            seed: int | None, track: TrackSpec | None, generated: bool) -> Snapshot:
    # The snapshot's own difficulty, seed and track are the episode's: asking for others
    # is a mistake, said in one line.
    try:
        snapshot = path if isinstance(path, Snapshot) else read_snapshot(Path(path))
        snapshot.matches(level)
    except SnapshotError as exc:
        hint = (" (a generated level's id is drawn from the secret: give the secret of the "
                "run the snapshot comes from, --secret RUN_DIR/secret)" if generated else "")
        raise UsageError(f"{exc}{hint}") from None
    asked = {"difficulty": difficulty, "seed": seed, "track": track and track.name}
    held = {"difficulty": snapshot.difficulty, "seed": snapshot.seed,
            "track": snapshot.track.get("name")}
    for name, value in asked.items():
        if value is not None and value != held[name]:
            raise UsageError(f"{snapshot.source or 'snapshot'}: the snapshot was taken at "
                             f"{name} {held[name]!r}, "
                             f"not {value!r}")
    if track and track.name == "raw" and snapshot.track.get("frame_skip") != track.frame_skip:
        raise UsageError(f"{snapshot.source or 'snapshot'}: the snapshot was taken at frame skip "
                         f"{snapshot.track.get('frame_skip')}, not {track.frame_skip}")
    return snapshot


def _snapshot_track(snapshot: Snapshot) -> TrackSpec:
    try:
        return TrackSpec.from_start({"track": snapshot.track})
    except ValueError as exc:  # a track this harness does not have, or a bad frame skip
        raise UsageError(f"{snapshot.source or 'snapshot'}: {exc}") from None


def _holds_lines(run_dir: Path) -> bool:
    # Whether the run directory's record has any line (a gzip header alone has none).
    try:
        return bool(record_text(run_dir).strip())
    except (OSError, UnicodeDecodeError, RecordError):
        return False
