"""The world's one face: everything a driver of episodes (the harness) may use.

The rest of `world/` is private to it (tests/test_boundaries.py holds the harness to
this module). What is here: level loading and checking, the action catalogue, game
time, the error types, the session factory with the mission status it reports, the
vocabularies the protocol documents, the level's 3D solids for export, the mission
templates that generate levels and the path search benchmark command, and the mission
report a reward is computed from. A session is a `Session` (world/turn.py): one
`step(action) -> Turn` per turn, the view built inside it; `Stepping` gives it to any
world that can act, view, judge and hash (a test's stand-in too). The raw part is the
raw-control track's world side:
the controls (one tick of controller input, decoded into the player's intent), the ray
scan over the view cone and the session that holds the input for `frame_skip` ticks
(`new_raw_session`), with the names its messages and spaces are built from.
"""

from __future__ import annotations

from world.actions.catalog import REFLEX_ARGUMENT, ActionSpec, Catalog, EndReason, catalog
from world.characters.alertness import ALERT_LEVELS
from world.data_paths import LEVELS_DIR, MATCH_LEVELS_DIR, SCHEMA_DIR
from world.doom.mission import DoomLevel, is_doom, load_mission, mission_files, mission_ref
from world.errors import (
    InvalidRequestError,
    LevelError,
    LevelProblem,
    UnknownIdError,
    WorldError,
)
from world.generate.layout import DIFFICULTY_ORDER
from world.generate.naming import (
    MAX_SEED,
    GenerateError,
    is_generated,
    parse_name,
    parse_names,
)
from world.generate.registry import (
    GENERATOR_VERSION,
    MISSION_TEMPLATES,
    TEMPLATES,
    generate,
    origin,
)
from world.generate.template import describe_param
from world.level.geometry3d import Solid, level_solids, path_solid
from world.level.load import (
    MAX_LEVEL_BYTES,
    MAX_NESTING,
    level_schema,
    parse_level,
    read_level_json,
)
from world.level.model import Level
from world.levelcheck.checker import CheckReport, check_data, check_level
from world.match.goals import MEASURE_LABELS as MATCH_GOAL_LABELS
from world.match.goals import teams_problem
from world.match.judge import ENDINGS as MATCH_ENDINGS
from world.match.judge import RESULT_SCORES as MATCH_RESULT_SCORES
from world.match.session import MatchSession
from world.match.world import player_ids
from world.navmesh import bench as navmesh_bench
from world.objectives.base import STATUSES as OBJECTIVE_STATUSES
from world.objectives.outcome import COMPLETED as MISSION_COMPLETED
from world.objectives.outcome import END_RULES
from world.objectives.outcome import FAILED_OUTCOME as MISSION_FAILED
from world.objectives.outcome import OUTCOMES as MISSION_OUTCOMES
from world.objectives.registry import VERIFIERS
from world.objectives.score import MissionReport
from world.observe.reveal import look_alikes_of, shown_objectives
from world.observe.session import ARG_GROUPS, WorldSession
from world.observe.status import GameStatus
from world.observe.vocabulary import OBJECT_KINDS, OBJECT_STATES
from world.raw.controls import CONTROLS as RAW_CONTROLS
from world.raw.controls import NVEC as RAW_NVEC
from world.raw.controls import Input as RawInput
from world.raw.rayscan import CHANNELS as RAY_CHANNELS
from world.raw.rayscan import HIT_CHANNELS as RAY_HIT_CHANNELS
from world.raw.rayscan import ScanSpec
from world.raw.session import (
    DEFAULT_FRAME_SKIP,
    MAX_FRAME_SKIP,
    RAW_ACTION,
    RawGame,
    check_frame_skip,
    raw_json,
)
from world.raw.session import MAX_OBJECTIVES as RAW_MAX_OBJECTIVES
from world.raw.session import OBJECTIVE_FEATURES as RAW_OBJECTIVE_FEATURES
from world.raw.session import PLAYER_FEATURES as RAW_PLAYER_FEATURES
from world.raw.session import controls_action as raw_controls_action
from world.schema_validator import SchemaValidator
from world.sim.clock import TICKS_PER_SECOND, seconds_to_ticks, ticks_to_seconds
from world.sim.doors import DOOR_STATE_MEANINGS
from world.sim.items import CARRIED_KINDS, PICKUP_KINDS
from world.sim.kernels import enable as enable_compiled_kernels
from world.turn import FAULT_CODES, Session, Stepping, Turn, WorldFault

DOOM_EXTRA_MESSAGE = ("Doom levels need the ViZDoom engine: pip install "
                      "'mission-harness[doom]' (the `doom` extra)")


def doom_available() -> bool:
    """Whether the ViZDoom engine (the `doom` extra) is installed."""
    import importlib.util  # start-up cost: only asked for Doom levels

    return importlib.util.find_spec("vizdoom") is not None


def new_session(level: Level | DoomLevel, difficulty: str, seed: int) -> Session:
    """One episode's world behind episode ids, played one `step` per turn.

    Args:
        level: The level, loaded and checked (a Doom mission plays on ViZDoom).
        difficulty: One of the level's difficulty ids.
        seed: The episode key (the world's one generator is made from it); the harness
            derives it from the episode seed and its secret.

    Returns:
        The session at tick 0 (its `turn` is the start's).

    Raises:
        WorldError: A Doom mission without the ViZDoom engine installed.
    """
    if isinstance(level, DoomLevel):
        if not doom_available():
            raise WorldError(DOOM_EXTRA_MESSAGE)
        from world.doom.session import DoomSession  # start-up cost: loads the engine

        return DoomSession(level, difficulty, seed)
    return WorldSession(level, difficulty, seed)


def check_mission(ref: str) -> CheckReport:
    """Every problem of a Doom mission (`doom:NAME`): its file, then its map in the WAD.

    Without ViZDoom the file is still checked and the map's absence is one problem.
    """
    from world.doom.check import check_mission as check  # start-up cost: reads WADs

    return check(ref)


def new_raw_session(level: Level, difficulty: str, seed: int,
                    frame_skip: int = DEFAULT_FRAME_SKIP,
                    scan: ScanSpec | None = None, lean: bool = False) -> RawGame:
    """One episode's world played by held controller input (the raw-control track).

    Args:
        level: The level, loaded and checked.
        difficulty: One of the level's difficulty ids.
        seed: The episode seed.
        frame_skip: Ticks each decision holds the input (`check_frame_skip`'s range).
        scan: The ray scan's shape (the default `ScanSpec()` if None).
        lean: Build each turn's view, status, hash and result only when asked
            (`world.turn`): the Raw environment's session, which reads the arrays.

    Returns:
        The session at tick 0.

    Raises:
        ValueError: A frame skip out of range, named.
    """
    return RawGame(level, difficulty, seed, frame_skip, scan, lean)


__all__ = [
    "ALERT_LEVELS",
    "ARG_GROUPS",
    "CARRIED_KINDS",
    "DEFAULT_FRAME_SKIP",
    "DIFFICULTY_ORDER",
    "DOOM_EXTRA_MESSAGE",
    "DOOR_STATE_MEANINGS",
    "END_RULES",
    "FAULT_CODES",
    "GENERATOR_VERSION",
    "LEVELS_DIR",
    "MATCH_ENDINGS",
    "MATCH_GOAL_LABELS",
    "MATCH_LEVELS_DIR",
    "MATCH_RESULT_SCORES",
    "MAX_FRAME_SKIP",
    "MAX_LEVEL_BYTES",
    "MAX_NESTING",
    "MAX_SEED",
    "MISSION_COMPLETED",
    "MISSION_FAILED",
    "MISSION_OUTCOMES",
    "MISSION_TEMPLATES",
    "OBJECTIVE_STATUSES",
    "OBJECT_KINDS",
    "OBJECT_STATES",
    "PICKUP_KINDS",
    "RAW_ACTION",
    "RAW_CONTROLS",
    "RAW_MAX_OBJECTIVES",
    "RAW_NVEC",
    "RAW_OBJECTIVE_FEATURES",
    "RAW_PLAYER_FEATURES",
    "RAY_CHANNELS",
    "RAY_HIT_CHANNELS",
    "REFLEX_ARGUMENT",
    "SCHEMA_DIR",
    "TEMPLATES",
    "TICKS_PER_SECOND",
    "VERIFIERS",
    "ActionSpec",
    "Catalog",
    "CheckReport",
    "DoomLevel",
    "EndReason",
    "GameStatus",
    "GenerateError",
    "InvalidRequestError",
    "Level",
    "LevelError",
    "LevelProblem",
    "MatchSession",
    "MissionReport",
    "RawGame",
    "RawInput",
    "ScanSpec",
    "SchemaValidator",
    "Session",
    "Solid",
    "Stepping",
    "Turn",
    "UnknownIdError",
    "WorldError",
    "WorldFault",
    "WorldSession",
    "catalog",
    "check_data",
    "check_frame_skip",
    "check_level",
    "check_mission",
    "describe_param",
    "doom_available",
    "enable_compiled_kernels",
    "generate",
    "is_doom",
    "is_generated",
    "level_schema",
    "level_solids",
    "load_mission",
    "look_alikes_of",
    "mission_files",
    "mission_ref",
    "navmesh_bench",
    "new_raw_session",
    "new_session",
    "origin",
    "parse_level",
    "parse_name",
    "parse_names",
    "path_solid",
    "player_ids",
    "raw_controls_action",
    "raw_json",
    "read_level_json",
    "seconds_to_ticks",
    "shown_objectives",
    "teams_problem",
    "ticks_to_seconds",
]
