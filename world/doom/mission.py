"""Doom missions as data: one JSON file per task in world/doom/tasks/.

A mission names what the engine starts (a ViZDoom scenario, or an IWAD and a map), its
difficulties (each a Doom skill), budgets and objectives, each judged by a verifier over
the engine's own state (world/doom/verdict.py). Its level id is `doom:<file stem>`; a
mission may also answer to aliases (`doom:my_way_home`). This module reads the files
without ViZDoom, so ids resolve and bad files are named even where the engine is missing.
"""

from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from world.doom.files import file_digest, played_files
from world.errors import LevelError, LevelProblem, WorldError

TASKS_DIR = Path(__file__).parent / "tasks"
PREFIX = "doom:"


@dataclass(frozen=True)
class DoomDifficulty:
    """A difficulty: its id and the Doom skill (1 to 5) it plays at."""

    id: str
    skill: int


@dataclass(frozen=True)
class DoomBudgets:
    """Decisions and game seconds an episode may use."""

    max_decisions: int
    max_game_seconds: float


@dataclass(frozen=True)
class DoomObjective:
    """One objective: its words, verifier, weight and lowest difficulty."""

    id: str
    kind: str
    text: str
    verifier: dict[str, Any]
    weight: float
    min_difficulty: str
    targets: tuple[str, ...]


@dataclass(frozen=True)
class DoomLevel:
    """A Doom mission, in the shape the harness reads levels in (id, budgets, ...)."""

    id: str
    title: str
    brief: str
    task: str
    scenario: str | None
    iwad: str | None
    map: str | None
    difficulties: tuple[DoomDifficulty, ...]
    budgets: DoomBudgets
    objectives: tuple[DoomObjective, ...]
    categories: tuple[str, ...]
    aliases: tuple[str, ...]
    design_note: str
    source: str  # the mission file
    file_hash: str  # sha256 of the mission file alone
    storeys: tuple[()] = ()

    @functools.cached_property
    def content_hash(self) -> str:
        """sha256 over the mission file and every file the engine plays it from.

        Records store it and replay checks it, so a record played on another WAD (or
        scenario settings) is refused. Needs the `doom` extra (the files are ViZDoom's).
        """
        parts = [["mission", self.file_hash]] + [[p.name, file_digest(p)] for p in self.files()]
        return hashlib.sha256(json.dumps(parts).encode()).hexdigest()

    @property
    def hash_covers(self) -> str:
        """What `content_hash` covers, in words for messages."""
        return (f"the mission file or the files it plays "
                f"({', '.join(p.name for p in self.files())})")

    def files(self) -> tuple[Path, ...]:
        """The engine's files this mission plays (map WAD, scenario settings, IWAD)."""
        return played_files(self.scenario, self.iwad)

    def skill(self, difficulty: str) -> int:
        """The Doom skill of a difficulty id."""
        return next(d.skill for d in self.difficulties if d.id == difficulty)


def is_doom(ref: str) -> bool:
    """Whether a level reference names a Doom mission."""
    return ref.startswith(PREFIX)


def mission_files() -> list[Path]:
    """The shipped mission files, sorted."""
    return sorted(TASKS_DIR.glob("*.json"))


def load_mission(ref: str) -> DoomLevel:
    """The mission a `doom:` reference names (its id or an alias).

    Raises:
        WorldError: No such mission (the message lists them).
        LevelError: A bad mission file (naming the file and field).
    """
    missions = [_parse(path) for path in mission_files()]
    for mission in missions:
        if ref == mission.id or ref in mission.aliases:
            return mission
    known = ", ".join(m.id for m in missions)
    raise WorldError(f"no Doom mission {ref!r} (known: {known})")


def _bad(where: str, message: str) -> LevelError:
    file, _, path = where.partition(": ")
    return LevelError([LevelProblem(file, path or "$", message)])


def _need(data: Any, key: str, kind: type, where: str) -> Any:
    value = data.get(key) if isinstance(data, dict) else None
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise _bad(where, f"field {key!r} must be a {kind.__name__}, got {value!r}")
    return value


def _parse(path: Path) -> DoomLevel:
    raw = path.read_bytes()
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise _bad(str(path), f"not JSON: {exc}") from None
    where = str(path)
    engine = _need(data, "engine", dict, where)
    diffs = tuple(DoomDifficulty(_need(d, "id", str, where), int(_need(d, "skill", int, where)))
                  for d in _need(data, "difficulties", list, where))
    if not diffs or any(not 1 <= d.skill <= 5 for d in diffs):
        raise _bad(where, "'difficulties' must list at least one, each with skill 1-5")
    budgets = _need(data, "budgets", dict, where)
    objectives = []
    for i, o in enumerate(_need(data, "objectives", list, where)):
        at = f"{where}: $.objectives[{i}]"
        objectives.append(DoomObjective(
            _need(o, "id", str, at), _need(o, "kind", str, at), _need(o, "text", str, at),
            _need(o, "verifier", dict, at), float(o.get("weight", 1.0)),
            str(o.get("min_difficulty", diffs[0].id)), tuple(o.get("targets", ()))))
    return DoomLevel(
        id=PREFIX + path.stem, title=_need(data, "title", str, where),
        brief=_need(data, "brief", str, where), task=str(data.get("task", "")),
        scenario=engine.get("scenario"), iwad=engine.get("iwad"), map=engine.get("map"),
        difficulties=diffs,
        budgets=DoomBudgets(int(_need(budgets, "max_decisions", int, where)),
                            float(_need(budgets, "max_game_seconds", int, where))),
        objectives=tuple(objectives), categories=tuple(data.get("categories", ())),
        aliases=tuple(PREFIX + a for a in data.get("aliases", ())),
        design_note=str(data.get("design_note", "")),
        source=str(path), file_hash=hashlib.sha256(raw).hexdigest())
