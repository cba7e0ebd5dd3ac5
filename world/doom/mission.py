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

from jsonschema import Draft202012Validator

from world.data_paths import SCHEMA_DIR
from world.doom.files import file_digest, played_files
from world.doom.specials import object_kinds
from world.errors import LevelError, LevelProblem, WorldError
from world.level.load import json_path
from world.level.model import Budgets
from world.objectives.registry import VERIFIERS as SHIPPED_VERIFIERS

TASKS_DIR = Path(__file__).parent / "tasks"
SCHEMA = SCHEMA_DIR / "doom_mission.schema.json"
OBJECTIVE_KINDS = tuple(SHIPPED_VERIFIERS)  # the kinds views report, as in shipped levels
PREFIX = "doom:"


@dataclass(frozen=True)
class DoomDifficulty:
    """A difficulty: its id and the Doom skill (1 to 5) it plays at."""

    id: str
    skill: int


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
    budgets: Budgets
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


def mission_ref(path: Path) -> str | None:
    """The `doom:` id of a shipped mission file given by its path; None for other files."""
    resolved = path.resolve()
    return PREFIX + path.stem if resolved.parent == TASKS_DIR.resolve() \
        and resolved.suffix == ".json" and resolved.is_file() else None


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


@functools.cache
def _validator() -> Draft202012Validator:
    return Draft202012Validator(json.loads(SCHEMA.read_text(encoding="utf-8")))


def _schema_problems(data: Any, file: str) -> list[LevelProblem]:
    problems = []
    for error in sorted(_validator().iter_errors(data), key=lambda e: list(map(str, e.path))):
        if error.validator == "oneOf" and "description" in error.schema:
            # A choice of shapes: say what is allowed rather than one branch's complaint.
            message = f"{error.instance!r} is not allowed: {error.schema['description']}"
            problems.append(LevelProblem(file, json_path(tuple(error.absolute_path)), message))
            continue
        # In if/then branches the useful message is the innermost one.
        chosen = min(error.context, key=lambda e: len(e.path)) if error.context else error
        problems.append(LevelProblem(file, json_path(tuple(chosen.absolute_path)), chosen.message))
    return problems


def _meaning_problems(data: dict[str, Any], file: str) -> list[LevelProblem]:
    # What the schema cannot say: ids unique, names that must be known elsewhere.
    problems = []
    diffs = [d["id"] for d in data["difficulties"]]
    if len(set(diffs)) != len(diffs):
        problems.append(LevelProblem(file, "$.difficulties", f"difficulty ids repeat: {diffs}"))
    seen: set[str] = set()
    for i, o in enumerate(data["objectives"]):
        at = f"$.objectives[{i}]"
        if o["id"] in seen:
            problems.append(LevelProblem(file, f"{at}.id", f"objective id {o['id']!r} repeats"))
        seen.add(o["id"])
        if o["kind"] not in OBJECTIVE_KINDS:
            problems.append(LevelProblem(file, f"{at}.kind", f"unknown objective kind "
                                         f"{o['kind']!r}; allowed: {', '.join(OBJECTIVE_KINDS)}"))
        if o.get("min_difficulty", diffs[0]) not in diffs:
            problems.append(LevelProblem(file, f"{at}.min_difficulty", f"no difficulty "
                                         f"{o['min_difficulty']!r}; allowed: {', '.join(diffs)}"))
        verifier = o["verifier"]
        if verifier["type"] == "survive" and \
                verifier["seconds"] > data["budgets"]["max_game_seconds"]:
            problems.append(LevelProblem(file, f"{at}.verifier.seconds", f"{verifier['seconds']} "
                                         "s to survive is more than budgets.max_game_seconds"))
        kinds = object_kinds()
        if verifier["type"] == "pickups" and verifier["kind"] not in kinds:
            problems.append(LevelProblem(file, f"{at}.verifier.kind", f"unknown pickup kind "
                                         f"{verifier['kind']!r}; allowed: {', '.join(kinds)}"))
    return problems


def _parse(path: Path) -> DoomLevel:
    raw = path.read_bytes()
    file = str(path)
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise LevelError([LevelProblem(file, "$", f"not JSON: {exc}")]) from None
    problems = _schema_problems(data, file) or _meaning_problems(data, file)
    if problems:
        raise LevelError(problems)
    diffs = tuple(DoomDifficulty(d["id"], d["skill"]) for d in data["difficulties"])
    objectives = tuple(DoomObjective(
        o["id"], o["kind"], o["text"], o["verifier"], float(o.get("weight", 1.0)),
        o.get("min_difficulty", diffs[0].id), tuple(o.get("targets", ())))
        for o in data["objectives"])
    engine, budgets = data["engine"], data["budgets"]
    return DoomLevel(
        id=PREFIX + path.stem, title=data["title"], brief=data["brief"],
        task=data.get("task", ""), scenario=engine.get("scenario"), iwad=engine.get("iwad"),
        map=engine.get("map"), difficulties=diffs,
        budgets=Budgets(max_decisions=budgets["max_decisions"],
                        max_game_seconds=float(budgets["max_game_seconds"])),
        objectives=objectives, categories=tuple(data.get("categories", ())),
        aliases=tuple(PREFIX + a for a in data.get("aliases", ())),
        design_note=data.get("design_note", ""),
        source=file, file_hash=hashlib.sha256(raw).hexdigest())
