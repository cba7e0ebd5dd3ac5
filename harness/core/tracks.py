"""The tracks an episode is played on, declared once: macro actions or raw controls.

A track decides the game an episode plays, the actions an agent may send, the decision
budget, what the start message says of it (`start.track`) and what each observation
adds. The macro track is the protocol as it always was; the raw-control track (the
world's raw session, `world.face.new_raw_session`) holds controller input for
`frame_skip` ticks per decision and adds the ray-scan observation (`observation.raw`).
Records keep the track in their start message, so replay plays the same one.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from types import MappingProxyType
from typing import Any, cast

from harness.core.game import Game, GameFactory, world_game
from harness.core.messages import StartMessageTrack
from world.face import (
    DEFAULT_FRAME_SKIP,
    RAW_OBJECTIVE_FEATURES,
    RAW_PLAYER_FEATURES,
    RAY_CHANNELS,
    ActionSpec,
    Level,
    ScanSpec,
    catalog,
    check_frame_skip,
    new_raw_session,
    raw_controls_action,
    raw_json,
    seconds_to_ticks,
)


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

    def start_block(self) -> StartMessageTrack:
        """The start message's `track` object."""
        # The track's own fields come from its plugin; the start schema checks them.
        return cast(StartMessageTrack, {"name": self.name, **self.track.start(self)})

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
    return partial(new_raw_session, frame_skip=spec.frame_skip)


def _raw_actions() -> tuple[ActionSpec, ...]:
    return (raw_controls_action(),)


def _raw_decisions(spec: TrackSpec, level: Level) -> int:
    # Game time binds first: enough decisions to hold the controls to its end.
    return math.ceil(seconds_to_ticks(level.budgets.max_game_seconds) / spec.frame_skip)


def _raw_start(spec: TrackSpec) -> dict[str, Any]:
    scan = ScanSpec()
    return {"frame_skip": spec.frame_skip, "rays": scan.rays, "fov_deg": scan.fov_deg,
            "max_range": scan.max_range, "ray_channels": list(RAY_CHANNELS),
            "player_features": list(RAW_PLAYER_FEATURES),
            "objective_features": list(RAW_OBJECTIVE_FEATURES)}


def _raw_observation(game: Game) -> dict[str, Any]:
    raw = game.turn.raw
    return {} if raw is None else {"raw": raw_json(dict(raw))}


TRACKS: MappingProxyType[str, Track] = MappingProxyType({t.name: t for t in (
    Track("macro", "One decision is one macro action of the catalogue (the default).",
          lambda spec: world_game, lambda: catalog().actions,
          lambda spec, level: level.budgets.max_decisions, lambda spec: {}, lambda game: {}),
    Track("raw", "One decision holds controller input (move, strafe, turn, fire, use, next "
          "weapon) for frame_skip ticks; observations add a ray scan.",
          _raw_factory, _raw_actions, _raw_decisions, _raw_start, _raw_observation),
)})
