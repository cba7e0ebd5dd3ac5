"""The level as immutable data: frozen dataclasses mirroring schemas/level.schema.json.

Defaults live in the schema alone; the loader fills them in before these classes are
built, so every field here is either required or optional with None meaning "absent".
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, TypeVar

Point = tuple[float, float]
Segment = tuple[Point, Point]

_T = TypeVar("_T")


def given(value: _T | None, owner: str, field: str) -> _T:
    """A kind-specific field that the level checker requires wherever it is read.

    Raises:
        ValueError: naming the owner and field, if a level that skipped the checker
            lacks it.
    """
    if value is None:
        raise ValueError(f"{owner}: field {field!r} is required here and missing")
    return value


@dataclass(frozen=True, kw_only=True)
class Difficulty:
    """One difficulty and the multipliers it applies to the opposition."""

    id: str
    enemy_health: float
    enemy_accuracy: float
    enemy_damage: float
    enemy_reaction_s: float
    enemy_sight: float
    reinforcements: float


@dataclass(frozen=True, kw_only=True)
class Budgets:
    """Limits after which an episode is truncated."""

    max_decisions: int
    max_game_seconds: float


@dataclass(frozen=True, kw_only=True)
class NavmeshSettings:
    """Settings the navigation mesh is built with."""

    agent_radius: float
    step_height: float


@dataclass(frozen=True, kw_only=True)
class Storey:
    """A floor of the level at one height."""

    id: str
    y: float


@dataclass(frozen=True, kw_only=True)
class Area:
    """A room or space: a simple polygon on one storey."""

    id: str
    name: str
    storey: str
    polygon: tuple[Point, ...]
    light: float
    secret: bool


@dataclass(frozen=True, kw_only=True)
class Place:
    """A position on the floor of an area."""

    area: str
    at: Point


@dataclass(frozen=True, kw_only=True)
class StairEnd:
    """One end of a flight of stairs: an edge on an area's boundary."""

    area: str
    edge: Segment


@dataclass(frozen=True, kw_only=True)
class Stairs:
    """A ramp between two storeys; height varies linearly from bottom to top."""

    id: str
    bottom: StairEnd
    top: StairEnd


@dataclass(frozen=True, kw_only=True)
class Door:
    """How a door behaves."""

    initial: Literal["open", "closed", "locked"]
    opening_seconds: float
    characters_may_open: bool
    locked_from: str | None = None
    key: str | None = None
    panel: str | None = None
    open_seconds: float | None = None
    one_way_from: str | None = None


@dataclass(frozen=True, kw_only=True)
class Exit:
    """A way between two areas of one storey: an opening, a door or a window."""

    id: str
    kind: Literal["opening", "door", "window"]
    areas: tuple[str, str]
    segment: Segment
    hidden: bool
    door: Door | None = None

    @property
    def walkable(self) -> bool:
        """Whether actors can pass through the exit (windows are not walkable)."""
        return self.kind != "window"


@dataclass(frozen=True, kw_only=True)
class CharacterTemplate:
    """What a character is and how it behaves, without its placement."""

    kind: str
    side: Literal["hostile", "friendly"]
    health: float
    armour: float
    behaviour: str
    route: tuple[Place, ...]
    speed: float
    view_angle_deg: float
    view_range: float
    hearing_range: float
    accuracy: float
    weapon: str | None = None
    respawn_s: float | None = None
    destination: str | None = None


@dataclass(frozen=True, kw_only=True)
class Character(CharacterTemplate):
    """A character placed at the start of the episode."""

    id: str
    area: str
    at: Point
    facing_deg: float
    min_difficulty: str | None = None
    words: str | None = None  # a friendly character's words, given when used (issue 37)


@dataclass(frozen=True, kw_only=True)
class LevelObject:
    """A thing in the world; kind-specific fields are None where they do not apply."""

    id: str
    kind: str
    facing_deg: float
    name: str | None = None
    area: str | None = None
    at: Point | None = None
    weapon: str | None = None
    amount: float | None = None
    gadget: str | None = None
    targets: tuple[str, ...] = ()
    health: float | None = None
    view_angle_deg: float | None = None
    view_range: float | None = None
    alarm: str | None = None
    zone: tuple[str, ...] | None = None
    spawn_points: tuple[str, ...] = ()
    reinforcement: CharacterTemplate | None = None
    reinforcement_count: int | None = None
    reinforcement_interval_s: float | None = None
    trigger: str | None = None
    radius: float | None = None
    respawn_s: float | None = None
    text: str | None = None
    code: str | None = None
    attempts: int = 3
    decoy_of: str | None = None

    @property
    def placed(self) -> bool:
        """Whether the object stands in the world (rather than starting carried)."""
        return self.area is not None

    @property
    def place(self) -> Place:
        """Where a placed object stands (the checker gives every placed object both).

        Raises:
            ValueError: for an object that starts carried.
        """
        return Place(area=given(self.area, self.id, "area"), at=given(self.at, self.id, "at"))


@dataclass(frozen=True, kw_only=True)
class Wave:
    """Characters that appear at spawn points at a given game time."""

    id: str
    at_s: float
    spawn_points: tuple[str, ...]
    count: int
    interval_s: float
    character: CharacterTemplate
    min_difficulty: str | None = None


@dataclass(frozen=True, kw_only=True)
class Hazard:
    """A floor volume that drains health or kills on entry."""

    id: str
    kind: str
    storey: str
    polygon: tuple[Point, ...]
    damage_per_s: float
    kills: bool


@dataclass(frozen=True, kw_only=True)
class Countdown:
    """A level-wide timer that fails the mission when it runs out."""

    id: str
    seconds: float
    text: str
    starts_after: str | None = None


@dataclass(frozen=True, kw_only=True)
class Weapon:
    """A weapon type."""

    id: str
    damage: float
    range: float
    shots_per_s: float
    magazine: int
    reload_s: float
    spread: float
    silenced: bool
    melee: bool


@dataclass(frozen=True, kw_only=True)
class Start:
    """The player's start."""

    area: str
    at: Point
    facing_deg: float
    alternatives: tuple[Place, ...]
    health: float
    armour: float
    inventory: tuple[str, ...]
    fixed: bool
    speed: float
    in_hand: str | None = None

    @property
    def places(self) -> tuple[Place, ...]:
        """Every start place: the main one first, then the alternatives."""
        return (Place(area=self.area, at=self.at), *self.alternatives)


@dataclass(frozen=True, kw_only=True)
class PlayerStart:
    """One player's start in a match (the multiplayer track): its place and what it carries."""

    area: str
    at: Point
    facing_deg: float = 0.0
    inventory: tuple[str, ...] = ()
    in_hand: str | None = None


@dataclass(frozen=True, kw_only=True)
class HoldRule:
    """King of the hill: a team alone in `area` for `seconds` of game time wins."""

    area: str
    seconds: float


@dataclass(frozen=True, kw_only=True)
class CaptureRule:
    """Captures: an opposing flag (or the one flag) carried into a side's base scores.

    Attributes:
        flags: One flag per side in side order, or a single flag every side plays for.
        bases: One base area per side in side order (sides: teams by first player).
        to_win: Captures that win the match outright.
    """

    flags: tuple[str, ...]
    bases: tuple[str, ...]
    to_win: int = 1


@dataclass(frozen=True, kw_only=True)
class EscortRule:
    """Escorts: one player per side is escorted; it reaching the exit alive wins, down loses."""

    players: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class MatchRules:
    """How a level is played as a match of several players (world.match).

    Attributes:
        starts: One start per player slot, p1 first; a match has as many players.
        exit: An area whose first entry by a player ends the match (None: none).
        friendly_fire: Whether a teammate's shots hurt (an opponent's always do).
        hold: The zone to hold, if the match is king of the hill.
        capture: The flags and bases, if the match is played for captures.
        escort: The escorted players, if the match is played for escorts.
    """

    starts: tuple[PlayerStart, ...]
    exit: str | None = None
    friendly_fire: bool = False
    hold: HoldRule | None = None
    capture: CaptureRule | None = None
    escort: EscortRule | None = None


@dataclass(frozen=True, kw_only=True)
class MissionExit:
    """The area whose entry ends the mission."""

    area: str
    warn_distance: float


@dataclass(frozen=True, kw_only=True)
class Briefing:
    """What the mission briefing reveals at the start, beyond the start area."""

    floor_plan: bool
    areas: tuple[str, ...]
    objects: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class Objective:
    """One objective; kind-specific fields are None or empty where they do not apply."""

    id: str
    kind: str
    text: str
    weight: float
    min_difficulty: str | None = None
    after: tuple[str, ...] = ()
    area: str | None = None
    object: str | None = None
    gadget: str | None = None
    characters: tuple[str, ...] = ()
    distance: float | None = None
    grace_s: float | None = None
    seconds: float | None = None
    count: int | None = None
    points: tuple[Place, ...] = ()
    radius: float | None = None
    revealed_by: str | None = None


@dataclass(frozen=True, kw_only=True)
class Level:
    """A whole level, immutable. Built by `world.level.load`."""

    format_version: int
    id: str
    title: str
    brief: str
    difficulties: tuple[Difficulty, ...]
    budgets: Budgets
    navmesh: NavmeshSettings
    storeys: tuple[Storey, ...]
    areas: tuple[Area, ...]
    stairs: tuple[Stairs, ...]
    exits: tuple[Exit, ...]
    objects: tuple[LevelObject, ...]
    characters: tuple[Character, ...]
    waves: tuple[Wave, ...]
    hazards: tuple[Hazard, ...]
    countdowns: tuple[Countdown, ...]
    weapons: tuple[Weapon, ...]
    start: Start
    objectives: tuple[Objective, ...]
    design_note: str = ""
    # Kinds of task (schema enum `category`), most important first; for grouping results.
    categories: tuple[str, ...] = ()
    exit_area: MissionExit | None = None
    briefing: Briefing | None = None
    match: MatchRules | None = None
    content_hash: str = ""
    # What content_hash covers, in words for messages (a Doom mission's covers its WADs).
    hash_covers: ClassVar[str] = "the level file"

    # The lookups below are derived, never stored, so the dataclass stays the one record.
    @functools.cached_property
    def _index(self) -> dict[str, dict[str, Any]]:
        groups: dict[str, tuple[Any, ...]] = {
            "storey": self.storeys,
            "area": self.areas,
            "stairs": self.stairs,
            "exit": self.exits,
            "object": self.objects,
            "character": self.characters,
            "wave": self.waves,
            "hazard": self.hazards,
            "countdown": self.countdowns,
            "objective": self.objectives,
            "difficulty": self.difficulties,
        }
        return {name: {item.id: item for item in items} for name, items in groups.items()}

    @functools.cached_property
    def look_alikes(self) -> frozenset[str]:
        """Ids of decoys and of the real things they copy (asked every step of a report)."""
        copied = {o.id: o.decoy_of for o in self.objects if o.decoy_of is not None}
        return frozenset(copied) | frozenset(copied.values())

    def storey(self, storey_id: str) -> Storey:
        """The storey with this id."""
        return self._index["storey"][storey_id]  # type: ignore[return-value]

    def area(self, area_id: str) -> Area:
        """The area with this id."""
        return self._index["area"][area_id]  # type: ignore[return-value]

    def exit(self, exit_id: str) -> Exit:
        """The exit (opening, door or window) with this id."""
        return self._index["exit"][exit_id]  # type: ignore[return-value]

    def object(self, object_id: str) -> LevelObject:
        """The object with this id."""
        return self._index["object"][object_id]  # type: ignore[return-value]

    def character(self, character_id: str) -> Character:
        """The character with this id."""
        return self._index["character"][character_id]  # type: ignore[return-value]

    def words_of(self, thing_id: str) -> str | None:
        """A note's text or a talking character's words; None for anything else."""
        thing = self._index["object"].get(thing_id) or self._index["character"].get(thing_id)
        return getattr(thing, "text", None) or getattr(thing, "words", None)

    def objective(self, objective_id: str) -> Objective:
        """The objective with this id."""
        return self._index["objective"][objective_id]  # type: ignore[return-value]

    def ids(self, group: str) -> frozenset[str]:
        """Every id defined in one group (storey, area, exit, object, character, ...)."""
        return frozenset(self._index[group])

    def difficulty_rank(self, difficulty_id: str | None) -> int:
        """Position of a difficulty, easiest 0; None (absent) ranks as the easiest."""
        if difficulty_id is None:
            return 0
        return [d.id for d in self.difficulties].index(difficulty_id)

    def area_y(self, area_id: str) -> float:
        """Floor height of an area's storey."""
        return self.storey(self.area(area_id).storey).y
