"""World snapshots: a moment of an episode, written down so it can be restored exactly.

A snapshot names where the episode began (level and its content hash, difficulty,
seed, track) and every turn's executed action up to the moment, with the state hash
and the digest of the player's view there. Restoring builds the game afresh and plays
the steps again, as replay does; the world is deterministic, so every system comes
back as it was (bodies, doors, items, minds, objectives, the random generator, the
player's knowledge, the episode's ids), including what no object can hand over: the
physics engine keeps contact impulses between steps that it neither exposes nor
pickles. The hashes are checked on every restore, so a forged or stale snapshot is
refused, and the file is plain JSON checked by schemas/record/snapshot.schema.json:
reading one never runs code.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.core.bounds import MAX_DEPTH, too_deep
from harness.core.game import Game, GameFactory
from harness.core.keys import key_of, key_text
from harness.core.protocol import schema_errors, step_fault
from harness.core.tracks import TrackSpec
from world.face import Level, seconds_to_ticks

SNAPSHOT_FORMAT = "mission-harness-snapshot"
SNAPSHOT_VERSION = 1
# A snapshot is read whole; a file beyond this is not one (100,000 steps fit well within).
MAX_SNAPSHOT_BYTES = 64 << 20
SNAPSHOTS_DIR = "snapshots"  # beside a record, in its run directory
# Restoring replays every tick up to the snapshot's, so its tick is capped at this many
# times the level's game-time budget: a stepwise chain's subtask budgets (twice the
# reference's cost plus a floor) never take an episode past it.
MAX_TICKS_PER_BUDGET = 4

Step = dict[str, Any] | None


class SnapshotError(Exception):
    """A snapshot that cannot be used here: unreadable, another version or level, forged."""


def view_digest(view: Mapping[str, Any]) -> str:
    """sha256 of a structured view as canonical JSON."""
    text = json.dumps(view, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class Snapshot:
    """One moment of an episode (see the module's docstring)."""

    level: str
    level_hash: str
    difficulty: str
    seed: int
    track: dict[str, Any]
    steps: tuple[Step, ...]
    tick: int
    state_hash: str
    view_hash: str
    objectives_done: tuple[int, ...] = ()
    reason: str = ""
    key: str | None = None  # the episode key (harness/core/keys.py); None: the seed, before keys
    source: str = field(default="", compare=False)  # the file it was read from

    def to_dict(self) -> dict[str, Any]:
        """The snapshot as its JSON document."""
        return {"format": SNAPSHOT_FORMAT, "version": SNAPSHOT_VERSION, "level": self.level,
                "level_hash": self.level_hash, "difficulty": self.difficulty,
                "seed": self.seed, "track": dict(self.track), "steps": list(self.steps),
                "tick": self.tick, "state_hash": self.state_hash, "view_hash": self.view_hash,
                "objectives_done": list(self.objectives_done), "reason": self.reason,
                **({"key": self.key} if self.key is not None else {})}

    @classmethod
    def from_dict(cls, data: Any, where: str) -> Snapshot:
        """A snapshot from its JSON document.

        Raises:
            SnapshotError: Another format or version, or a document breaking the schema,
                named with `where`.
        """
        if not isinstance(data, dict) or data.get("format") != SNAPSHOT_FORMAT:
            raise SnapshotError(f"{where}: not a snapshot (expected \"format\": "
                                f"\"{SNAPSHOT_FORMAT}\")")
        if data.get("version") != SNAPSHOT_VERSION:
            raise SnapshotError(f"{where}: snapshot version {data.get('version')!r}; this "
                                f"harness reads version {SNAPSHOT_VERSION}")
        errors = schema_errors("snapshot", data)
        if errors:
            raise SnapshotError(f"{where}: breaks schemas/record/snapshot.schema.json: "
                                f"{errors[0]}")
        return cls(data["level"], data["level_hash"], data["difficulty"], data["seed"],
                   dict(data["track"]), tuple(data["steps"]), data["tick"],
                   data["state_hash"], data["view_hash"], tuple(data["objectives_done"]),
                   data["reason"], data.get("key"), where)

    def matches(self, level: Level) -> None:
        """Raise unless this snapshot was taken on this level's content.

        Raises:
            SnapshotError: Naming the file, the level and hash it expects.
        """
        if self.level_hash != level.content_hash:
            raise SnapshotError(
                f"{self.source or 'snapshot'}: taken on level {self.level!r} with content "
                f"hash {self.level_hash[:12]}, but the level given is {level.id!r} with hash "
                f"{level.content_hash[:12]}")


def read_snapshot(path: str | Path) -> Snapshot:
    """Read a snapshot file.

    Raises:
        SnapshotError: Missing, too large, not JSON, another version, or not a snapshot.
    """
    path = Path(path)
    try:
        with path.open("rb") as f:
            raw = f.read(MAX_SNAPSHOT_BYTES + 1)
    except OSError as exc:
        raise SnapshotError(f"{path}: cannot read the snapshot: {exc.strerror or exc}") from None
    if len(raw) > MAX_SNAPSHOT_BYTES:
        raise SnapshotError(f"{path}: larger than {MAX_SNAPSHOT_BYTES >> 20} MiB; not a snapshot")
    try:
        text = raw.decode("utf-8")
        if too_deep(text):
            raise SnapshotError(f"{path}: nested deeper than {MAX_DEPTH} levels; not a snapshot")
        data = json.loads(text)
    except (UnicodeDecodeError, ValueError) as exc:
        raise SnapshotError(f"{path}: not a JSON snapshot ({exc})") from None
    return Snapshot.from_dict(data, str(path))


def write_snapshot(path: Path, snapshot: Snapshot) -> None:
    """Write a snapshot as JSON (its folder is made if need be)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(snapshot.to_dict(), separators=(",", ":")) + "\n",
                    encoding="utf-8")


def play_steps(game: Game, steps: tuple[Step, ...] | list[Step],
               track: TrackSpec | None = None, max_tick: int | None = None) -> None:
    """Play steps on a game as the episode did: one world step per turn.

    Args:
        game: A fresh game.
        steps: The steps.
        track: The track whose actions the steps must be (restore always names it; a
            caller replaying steps it made itself may leave it out).
        max_tick: Stop with an error once the world passes this tick.

    Raises:
        SnapshotError: A step no agent could have had run on the track, one the world
            refuses, or steps going past `max_tick` (the snapshot does not fit this world).
    """
    actions = None if track is None else track.actions()
    for turn, step in enumerate(steps):
        fault = None if step is None or actions is None else step_fault(step, actions)
        if fault is not None:
            raise SnapshotError(f"step {turn}: not an action of this track: {fault.message}")
        refused = game.step(step).fault
        if step is not None and refused is not None:
            raise SnapshotError(f"step {turn}: the world refuses {step['action']}: "
                                f"{refused.message}")
        if max_tick is not None and game.tick > max_tick:
            raise SnapshotError(f"step {turn}: the steps pass tick {max_tick}")


def restore(snapshot: Snapshot, level: Level, factory: GameFactory) -> Game:
    """The game at the snapshot's moment, its hashes checked.

    Args:
        snapshot: The snapshot.
        level: Its level (content hash checked).
        factory: Builds the game from (level, difficulty, episode key).

    Raises:
        SnapshotError: Another level, a tick past the cap, a step refused or past the
            snapshot's tick, or a state hash or view digest
            that differs from the snapshot's (forged, or made by another harness).
    """
    snapshot.matches(level)
    where = snapshot.source or "snapshot"
    cap = MAX_TICKS_PER_BUDGET * seconds_to_ticks(level.budgets.max_game_seconds)
    if snapshot.tick > cap:
        raise SnapshotError(f"{where}: tick {snapshot.tick} is past {cap}, "
                            f"{MAX_TICKS_PER_BUDGET} times the level's game-time budget")
    try:
        track = TrackSpec.from_start({"track": snapshot.track})
    except (TypeError, ValueError) as exc:
        raise SnapshotError(f"{where}: its track: {exc}") from None
    game = factory(level, snapshot.difficulty, key_of(snapshot.to_dict()))
    try:
        play_steps(game, snapshot.steps, track, snapshot.tick)
    except SnapshotError as exc:
        raise SnapshotError(f"{where}: {exc}") from None
    now = game.turn
    if now.tick != snapshot.tick or now.state_hash != snapshot.state_hash:
        raise SnapshotError(f"{where}: restoring gives state hash {now.state_hash[:12]} at "
                            f"tick {now.tick}; the snapshot says {snapshot.state_hash[:12]} "
                            f"at tick {snapshot.tick}")
    if view_digest(now.view) != snapshot.view_hash:
        raise SnapshotError(f"{where}: restoring gives another view of the player's knowledge "
                            "than the snapshot's")
    return game


def take(game: Game, level: Level, difficulty: str, seed: int, track: dict[str, Any],
         steps: list[Step], reason: str, view: Mapping[str, Any] | None = None,
         key: int | None = None) -> Snapshot:
    """A snapshot of a game now, given the steps that led here.

    Args:
        game: The game at the moment.
        level: Its level.
        difficulty: The episode's difficulty.
        seed: The episode's seed.
        track: The track's name (and frame skip).
        steps: Every turn's executed action (or None) from tick 0.
        reason: Why the moment is kept, in plain words.
        view: The view of this moment (default: the game's latest turn's).
        key: The episode's key, what restoring makes the world from (None: the seed).
    """
    now = game.turn
    done = tuple(int(o["index"]) for o in now.status.objectives if o["status"] == "done")
    return Snapshot(level.id, level.content_hash, difficulty, seed, dict(track), tuple(steps),
                    now.tick, now.state_hash, view_digest(now.view if view is None else view),
                    done, reason, None if key is None else key_text(key))


def restoring_factory(snapshot: Snapshot, factory: GameFactory) -> GameFactory:
    """A game factory that gives the game at the snapshot's moment."""
    def make(level: Level, difficulty: str, key: int) -> Game:
        return restore(snapshot, level, factory)
    return make
