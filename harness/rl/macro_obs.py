"""The Macro environment's observation: fixed-size arrays from the structured view.

Every row comes from the view the JSON-lines agent reads, so the arrays know no more
than the player perceived. Entity rows are in the same slot order as the action
choices (`harness.rl.macro_actions.slot_rows`): row i of `objects` is the object that
the choices naming object slot i act on. Each family has a 0/1 presence mask.
Positions are relative to the player and scaled by `SCALE`; all features lie in -1..1.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import gymnasium as gym
import numpy as np

from harness.core.messages import (
    ObservationMessageViewAreaWaysOutItem,
    ObservationMessageViewCharactersItem,
    ObservationMessageViewDoorsItem,
    ObservationMessageViewObjectivesItem,
    ObservationMessageViewObjectsItem,
    ObservationMessageViewPlayerCarriedItem,
)
from harness.rl.env_base import box
from harness.rl.macro_actions import FAMILIES
from world.face import (
    ALERT_LEVELS,
    CARRIED_KINDS,
    DOOR_STATE_MEANINGS,
    OBJECT_KINDS,
    OBJECTIVE_STATUSES,
)

SCALE = 5000.0
AMMO_SCALE = 200.0
MAX_OBJECTIVES = 8
STATUS_NAMES = tuple(OBJECTIVE_STATUSES)  # todo, done, failed: the world's order
LEVEL_NAMES = tuple(level.name for level in ALERT_LEVELS)
DOOR_STATES = tuple(DOOR_STATE_MEANINGS)


def _onehot(value: object, names: Sequence[str]) -> list[float]:
    return [1.0 if value == n else 0.0 for n in names]


def _relative(here: Sequence[float], row: Mapping[str, object],
              key: str = "position") -> list[float]:
    pos = row.get(key)
    if not isinstance(pos, list | tuple) or len(pos) != 3:
        return [0.0, 0.0, 0.0]
    dx, dz = pos[0] - here[0], pos[2] - here[2]
    return [dx / SCALE, dz / SCALE, math.hypot(dx, dz) / SCALE]


# Each family's row features, typed by the view's rows (harness/core/messages.py), so a
# field the schema does not have is an error here.
def _way(here: Sequence[float], r: ObservationMessageViewAreaWaysOutItem) -> list[float]:
    return [*_relative(here, r), float(bool(r.get("visited"))), float(bool(r.get("one_way"))),
            float(r.get("door") is not None), float(bool(r.get("other_storey")))]


def _object(here: Sequence[float], r: ObservationMessageViewObjectsItem) -> list[float]:
    return [*_relative(here, r), float(bool(r.get("objective"))),
            float(r.get("state") == "broken"), float(r.get("state") == "sounding"),
            *_onehot(r.get("kind"), tuple(OBJECT_KINDS))]


def _door(here: Sequence[float], r: ObservationMessageViewDoorsItem) -> list[float]:
    return [*_relative(here, r), *_onehot(r.get("state"), DOOR_STATES),
            float(bool(r.get("needs_key"))), float(bool(r.get("has_panel"))),
            float(bool(r.get("locked_from_this_side")))]


def _character(here: Sequence[float], r: ObservationMessageViewCharactersItem
               ) -> list[float]:
    return [*_relative(here, r), float(r.get("health") or 0.0), float(bool(r.get("down"))),
            float(bool(r.get("friendly"))), float(bool(r.get("armed"))),
            float(r.get("seen") == "now"), *_onehot(r.get("alertness"), LEVEL_NAMES)]


def _carried(here: Sequence[float], r: ObservationMessageViewPlayerCarriedItem,
             in_hand: str | None = None) -> list[float]:
    return [float(r.get("id") == in_hand), min(1.0, float(r.get("ammo") or 0) / AMMO_SCALE),
            *_onehot(r.get("kind"), tuple(CARRIED_KINDS))]


def _objective(here: Sequence[float], r: ObservationMessageViewObjectivesItem
               ) -> list[float]:
    return [*_onehot(r.get("status"), STATUS_NAMES), float(bool(r.get("counts"))),
            float(bool(r.get("located"))), *_relative(here, r, "point")]


# Observation key -> (family, row features); declared once, the space follows from it.
ROWS: dict[str, tuple[str, Callable[..., list[float]]]] = {
    "ways": ("way", _way),
    "objects": ("object", _object),
    "doors": ("door", _door),
    "characters": ("character", _character),
    "carried": ("carried", _carried),
}
_EMPTY_ROW = {"position": None}
PLAYER_FEATURES = ("x", "z", "y", "cos_facing", "sin_facing", "health", "armour", "alive",
                   "ammo_in_hand", "game_time_used", "decisions_used")


def _width(fn: Callable[..., list[float]]) -> int:
    return len(fn((0.0, 0.0, 0.0), _EMPTY_ROW))


def observation_space() -> gym.spaces.Dict:
    """The Dict space: player, objectives and each entity family, each with its mask."""
    spaces: dict[str, gym.spaces.Space[object]] = {
        "player": box((len(PLAYER_FEATURES),)),
        "objectives": box((MAX_OBJECTIVES, _width(_objective))),
        "objectives_mask": gym.spaces.MultiBinary(MAX_OBJECTIVES),
    }
    for key, (family, fn) in ROWS.items():
        size = FAMILIES[family].size
        spaces[key] = box((size, _width(fn)))
        spaces[key + "_mask"] = gym.spaces.MultiBinary(size)
    return gym.spaces.Dict(spaces)


def _table(rows: list[dict[str, Any]], size: int, fn: Callable[..., list[float]],
           here: Sequence[float], **extra: str | None) -> tuple[np.ndarray, np.ndarray]:
    width = _width(fn)
    array = np.zeros((size, width), dtype=np.float32)
    present = np.zeros(size, dtype=np.int8)
    for i, row in enumerate(rows[:size]):
        array[i] = fn(here, row, **extra)
        present[i] = 1
    return np.clip(array, -1.0, 1.0), present


def observe(view: Mapping[str, Any], rows: dict[str, list[dict[str, Any]]],
            time_used: float, decisions_used: float) -> dict[str, np.ndarray]:
    """The observation of one view (with its slot rows and the budgets used, 0..1)."""
    player = view.get("player") or {}
    here = player.get("position") or [0.0, 0.0, 0.0]
    facing = math.radians(float(player.get("facing_deg") or 0.0))
    in_hand = player.get("in_hand")
    held: dict[str, Any] = next(
        (c for c in player.get("carried") or [] if c.get("id") == in_hand), {})
    features = [here[0] / SCALE, here[2] / SCALE, here[1] / SCALE, math.cos(facing),
                math.sin(facing), float(player.get("health") or 0.0),
                float(player.get("armour") or 0.0), float(bool(player.get("alive"))),
                min(1.0, float(held.get("ammo") or 0) / AMMO_SCALE), time_used, decisions_used]
    out: dict[str, np.ndarray] = {
        "player": np.clip(np.array(features, dtype=np.float32), -1.0, 1.0)}
    out["objectives"], out["objectives_mask"] = _table(
        list(view.get("objectives") or []), MAX_OBJECTIVES, _objective, here)
    for key, (family, fn) in ROWS.items():
        extra = {"in_hand": in_hand} if family == "carried" else {}
        out[key], out[key + "_mask"] = _table(rows[family], FAMILIES[family].size, fn, here,
                                              **extra)
    return out
