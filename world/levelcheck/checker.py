"""The level checker: every problem of a level file, reported rather than raised.

Stages run in order: JSON, schema, ids and references, meaning, shapes, then the
navigation mesh and reachability. A failed JSON or schema stage stops the rest (the
later checks need a schema-valid level); dangling references stop the shape checks and
bad shapes stop the mesh build, which needs sound polygons.
"""

from __future__ import annotations

from dataclasses import Field, dataclass
from pathlib import Path
from typing import Any, ClassVar, Protocol

from world.errors import LevelError, LevelProblem
from world.level.load import parse_level, read_level_json
from world.level.model import Level
from world.levelcheck.clues import clue_problems
from world.levelcheck.codes import code_problems
from world.levelcheck.geometry import geometry_problems
from world.levelcheck.match import match_problems
from world.levelcheck.reach import reach_problems
from world.levelcheck.refs import Problem, duplicate_problems, reference_problems
from world.levelcheck.rules import (
    door_problems,
    objective_problems,
    order_problems,
    placement_problems,
)
from world.navmesh.build import build_navmesh_full


@dataclass(frozen=True)
class LevelCounts:
    """How big a level is.

    Attributes:
        areas: Areas.
        exits: Exits of every kind (openings, doors, windows).
        doors: Exits of kind door.
        triangles: Triangles of the navigation mesh before the convex merge.
        polygons: Polygons of the navigation mesh.
        characters: Characters placed at the start.
        objects: Objects, placed or carried.
        storeys: Storeys.
    """

    areas: int
    exits: int
    doors: int
    triangles: int
    polygons: int
    characters: int
    objects: int
    storeys: int

    def summary(self) -> str:
        """One line such as ``7 areas, 8 exits (6 doors), 78 triangles, ...``."""
        return (
            f"{self.areas} areas, {self.exits} exits ({self.doors} doors), "
            f"{self.triangles} triangles, {self.polygons} polygons, "
            f"{self.characters} characters, {self.objects} objects, {self.storeys} storeys"
        )


class Counts(Protocol):
    """A checked level's size (a Doom mission's counts are its map's).

    A frozen dataclass, so that `harness check --json` can write its fields.
    """

    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    def summary(self) -> str:
        """One line for `harness check`."""


@dataclass(frozen=True)
class CheckReport:
    """What the checker found in one level file.

    Attributes:
        file: The file as given (or a label for levels checked in memory).
        problems: Every problem found; empty for a good level.
        counts: The level's size, when the level loaded.
    """

    file: str
    problems: tuple[LevelProblem, ...]
    counts: LevelCounts | Counts | None = None

    @property
    def ok(self) -> bool:
        """Whether the level has no problems."""
        return not self.problems


def _semantic(level: Level, file: str | None) -> tuple[list[Problem], LevelCounts | None]:
    problems = duplicate_problems(level) + reference_problems(level) + match_problems(level)
    if file is not None and Path(file).suffix == ".json" and Path(file).stem != level.id:
        problems.append(("$.id", f"level id {level.id!r} does not match the file name"))
    if problems:
        return problems, None
    problems = objective_problems(level) + order_problems(level)
    problems += placement_problems(level) + door_problems(level) + code_problems(level)
    problems += clue_problems(level)
    problems += geometry_problems(level)
    if problems:
        return problems, None
    try:
        built = build_navmesh_full(level)
    except Exception as exc:  # a checker reports, it never raises on a bad level
        return [("$.areas", f"the navigation mesh could not be built: {exc}")], None
    problems += reach_problems(level, built)
    counts = LevelCounts(
        areas=len(level.areas),
        exits=len(level.exits),
        doors=sum(1 for e in level.exits if e.kind == "door"),
        triangles=built.report.triangles,
        polygons=built.report.polygons,
        characters=len(level.characters),
        objects=len(level.objects),
        storeys=len(level.storeys),
    )
    return problems, counts


def check_data(data: Any, file: str = "<level>") -> CheckReport:
    """Check raw level data (already parsed from JSON).

    Args:
        data: The level as JSON data.
        file: Name used in the problems.

    Returns:
        The report.
    """
    try:
        level = parse_level(data, file)
    except LevelError as exc:
        return CheckReport(file, exc.problems)
    except Exception as exc:  # e.g. a number too big for a float: reported, never raised
        message = f"the level could not be built: {type(exc).__name__}: {exc}"
        problem = LevelProblem(file, "$", message)
        return CheckReport(file, (problem,))
    return check_level(level, file=file)


def check_level(source: str | Path | Level, file: str | None = None) -> CheckReport:
    """Check one level file (or an already loaded Level) and report every problem.

    Args:
        source: Path of a level file, or a Level.
        file: Name used in the problems; defaults to the path, or ``<id>.json``.

    Returns:
        The report; the checker never raises because of what is in the level.
    """
    if not isinstance(source, Level):
        name = file if file is not None else str(source)
        try:
            data = read_level_json(source)
        except LevelError as exc:
            return CheckReport(name, exc.problems)
        return check_data(data, name)
    label = file if file is not None else f"{source.id}.json"
    try:
        found, counts = _semantic(source, file)
    except Exception as exc:  # a bug in a check must not hide the other files' reports
        found, counts = [("$", f"the checker failed: {type(exc).__name__}: {exc}")], None
    problems = tuple(LevelProblem(label, path, message) for path, message in found)
    return CheckReport(label, problems, counts)
