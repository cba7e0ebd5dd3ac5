"""The world's one face: everything a driver of episodes (the harness) may use.

The rest of `world/` is private to it (tests/test_boundaries.py holds the harness to
this module). What is here: level loading and checking, the action catalogue, game
time, the error types, the session factory with the mission status it reports, the
vocabularies the protocol documents, the level's 3D solids for export, the mission
templates that generate levels and the path search benchmark command.
"""

from __future__ import annotations

from world.actions.catalog import ActionSpec, Catalog, EndReason, catalog
from world.characters.alertness import ALERT_LEVELS
from world.data_paths import LEVELS_DIR, SCHEMA_DIR
from world.errors import (
    InvalidRequestError,
    LevelError,
    LevelProblem,
    UnknownIdError,
    WorldError,
)
from world.generate.naming import GenerateError, is_generated, parse_name, parse_names
from world.generate.registry import GENERATOR_VERSION, TEMPLATES, generate, origin
from world.generate.template import describe_param
from world.level.check import CheckReport, check_data, check_level
from world.level.geometry3d import Solid, level_solids, path_solid
from world.level.load import parse_level, read_level_json
from world.level.model import Level
from world.navmesh import bench as navmesh_bench
from world.objectives.outcome import END_RULES
from world.objectives.outcome import OUTCOMES as MISSION_OUTCOMES
from world.objectives.registry import VERIFIERS
from world.observe.session import WorldSession
from world.observe.status import GameStatus
from world.observe.vocabulary import OBJECT_KINDS, OBJECT_STATES
from world.sim.clock import TICKS_PER_SECOND, seconds_to_ticks, ticks_to_seconds
from world.sim.doors import DOOR_STATE_MEANINGS
from world.sim.items import CARRIED_KINDS


def new_session(level: Level, difficulty: str, seed: int) -> WorldSession:
    """One episode's world behind episode ids: view, act, status and state hash.

    Args:
        level: The level, loaded and checked.
        difficulty: One of the level's difficulty ids.
        seed: The episode seed (the world's one generator is made from it).

    Returns:
        The session at tick 0.
    """
    return WorldSession(level, difficulty, seed)


__all__ = [
    "ALERT_LEVELS",
    "CARRIED_KINDS",
    "DOOR_STATE_MEANINGS",
    "END_RULES",
    "GENERATOR_VERSION",
    "LEVELS_DIR",
    "MISSION_OUTCOMES",
    "OBJECT_KINDS",
    "OBJECT_STATES",
    "SCHEMA_DIR",
    "TEMPLATES",
    "TICKS_PER_SECOND",
    "VERIFIERS",
    "ActionSpec",
    "Catalog",
    "CheckReport",
    "EndReason",
    "GameStatus",
    "GenerateError",
    "InvalidRequestError",
    "Level",
    "LevelError",
    "LevelProblem",
    "Solid",
    "UnknownIdError",
    "WorldError",
    "WorldSession",
    "catalog",
    "check_data",
    "check_level",
    "describe_param",
    "generate",
    "is_generated",
    "level_solids",
    "navmesh_bench",
    "new_session",
    "origin",
    "parse_level",
    "parse_name",
    "parse_names",
    "path_solid",
    "read_level_json",
    "seconds_to_ticks",
    "ticks_to_seconds",
]
