"""The tracks an episode is played on, declared once: macro actions or raw controls.

A track decides the game an episode plays, the actions an agent may send, the decision
budget, what the start message says of it (`start.track`) and what each observation
adds. The macro track is the protocol as it always was; the raw-control track
(`harness.rl.raw_game`) holds controller input for `frame_skip` ticks per decision and
adds the ray-scan observation (`observation.raw`). Records keep the track in their
start message, so replay plays the same one.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from types import MappingProxyType
from typing import Any

from harness.game import Game, GameFactory, world_game
from world.actions.catalog import ActionSpec, catalog
from world.level.model import Level
from world.sim.clock import seconds_to_ticks

DEFAULT_FRAME_SKIP = 4
MAX_FRAME_SKIP = 300


def check_frame_skip(frame_skip: Any) -> int:
    """The frame skip, or ValueError naming what is allowed."""
    if isinstance(frame_skip, bool) or not isinstance(frame_skip, int) or not (
            1 <= frame_skip <= MAX_FRAME_SKIP):
        raise ValueError(f"frame_skip: {frame_skip!r} is not a whole number of ticks in "
                         f"1..{MAX_FRAME_SKIP}")
    return frame_skip


@dataclass(frozen=True)
class TrackSpec:
    """A track by name, with the raw track's frame skip (ignored by the macro track)."""

    name: str = "macro"
    frame_skip: int = DEFAULT_FRAME_SKIP

    def __post_init__(self) -> None:
        if self.name not in TRACKS:
            raise ValueError(f"track: unknown track {self.name!r}; tracks: {', '.join(TRACKS)}")
        check_frame_skip(self.frame_skip)

    @property
    def track(self) -> Track:
        """The declared track."""
        return TRACKS[self.name]

    def game_factory(self) -> GameFactory:
        """Builds this track's game from (level, difficulty, seed)."""
        return self.track.factory(self)

    def actions(self) -> tuple[ActionSpec, ...]:
        """The actions an agent may send on this track."""
        return self.track.actions()

    def max_decisions(self, level: Level) -> int:
        """The decision budget of a level on this track."""
        return self.track.max_decisions(self, level)

    def start_block(self) -> dict[str, Any]:
        """The start message's `track` object."""
        return {"name": self.name, **self.track.start(self)}

    def observation_extra(self, game: Game) -> dict[str, Any]:
        """What this track adds to each observation message."""
        return self.track.observation(game)

    @classmethod
    def from_start(cls, start: dict[str, Any]) -> TrackSpec:
        """The track a start message (of a record) names; the macro track if none."""
        block = start.get("track") or {}
        return cls(str(block.get("name", "macro")),
                   int(block.get("frame_skip", DEFAULT_FRAME_SKIP)))


@dataclass(frozen=True)
class Track:
    """One track's declaration: words and the parts that differ between tracks."""

    name: str
    summary: str
    factory: Callable[[TrackSpec], GameFactory]
    actions: Callable[[], tuple[ActionSpec, ...]]
    max_decisions: Callable[[TrackSpec, Level], int]
    start: Callable[[TrackSpec], dict[str, Any]]
    observation: Callable[[Game], dict[str, Any]]


def _raw_factory(spec: TrackSpec) -> GameFactory:
    from harness.rl.raw_game import RawGame

    return partial(_raw_game, RawGame, spec.frame_skip)


def _raw_game(cls, frame_skip: int, level: Level, difficulty: str, seed: int) -> Game:
    return cls(level, difficulty, seed, frame_skip)


def _raw_actions() -> tuple[ActionSpec, ...]:
    from harness.rl.raw_game import controls_action

    return (controls_action(),)


def _raw_decisions(spec: TrackSpec, level: Level) -> int:
    # Game time binds first: enough decisions to hold the controls to its end.
    return math.ceil(seconds_to_ticks(level.budgets.max_game_seconds) / spec.frame_skip)


def _raw_start(spec: TrackSpec) -> dict[str, Any]:
    from harness.rl import raw_game
    from harness.rl.rayscan import CHANNELS, ScanSpec

    scan = ScanSpec()
    return {"frame_skip": spec.frame_skip, "rays": scan.rays, "fov_deg": scan.fov_deg,
            "max_range": scan.max_range, "ray_channels": list(CHANNELS),
            "player_features": list(raw_game.PLAYER_FEATURES),
            "objective_features": list(raw_game.OBJECTIVE_FEATURES)}


def _raw_observation(game: Game) -> dict[str, Any]:
    from harness.rl.raw_game import raw_json

    return {"raw": raw_json(game.raw_observation())}  # type: ignore[attr-defined]


TRACKS: MappingProxyType[str, Track] = MappingProxyType({t.name: t for t in (
    Track("macro", "One decision is one macro action of the catalogue (the default).",
          lambda spec: world_game, lambda: catalog().actions,
          lambda spec, level: level.budgets.max_decisions, lambda spec: {}, lambda game: {}),
    Track("raw", "One decision holds controller input (move, strafe, turn, fire, use, next "
          "weapon) for frame_skip ticks; observations add a ray scan.",
          _raw_factory, _raw_actions, _raw_decisions, _raw_start, _raw_observation),
)})
