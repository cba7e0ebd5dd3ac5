"""Actors: the player and the characters, as mutable runtime state inside the world."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

PLAYER_ID = "player"


@dataclass(eq=False)
class Actor:
    """One body that walks, fights and carries things.

    Positions are world units; `facing` is radians, 0 along +x and counter-clockwise
    towards +z. Health and armour are fractions (health may exceed 1 for bosses).

    Attributes:
        id: "player" or the character's id.
        kind: "player" or the character kind (guard, boss, ...).
        side: "player", "hostile" or "friendly".
        x: Position across the ground.
        y: Height (the storey floor, or the interpolated height on stairs).
        z: Position across the ground.
        storey: Id of the storey whose physics space holds the body.
        area: Id of the area the actor was last inside (kept while on stairs).
        facing: Heading in radians.
        vx: Velocity along x after the last physics step.
        vz: Velocity along z after the last physics step.
        next_vx: Velocity the body will move with during the next step (x).
        next_vz: Velocity the body will move with during the next step (z).
        speed: Walking speed in units per second.
        radius: Body radius.
        health: Health fraction; at or below 0 the actor is down.
        max_health: Health the actor started with (healing stops there).
        armour: Armour fraction, absorbing damage first.
        alive: False once down.
        inventory: Carried object ids in the order they were taken.
        in_hand: The carried object held, if any.
        weapon: The weapon type used when firing (from the held weapon or the template).
        ammo: Reserve rounds per weapon type id.
        magazine: Rounds loaded per weapon type id.
        reload_until: Tick at which a reload in progress ends (0: none).
        last_shot_tick: Tick of the last shot (a large negative number: never).
        move_to: The waypoint (x, z) the actor walks toward, or None to stand.
        on_ramp: Whether the actor stands on a flight of stairs.
        accuracy: Base chance to hit at close range.
        infinite_ammo: Characters never run out of reserve rounds.
        template: The level's character record, for systems that need behaviour data.
    """

    id: str
    kind: str
    side: str
    x: float
    y: float
    z: float
    storey: str
    area: str
    facing: float = 0.0
    vx: float = 0.0
    vz: float = 0.0
    next_vx: float = 0.0
    next_vz: float = 0.0
    speed: float = 300.0
    radius: float = 20.0
    health: float = 1.0
    max_health: float = 1.0
    armour: float = 0.0
    alive: bool = True
    inventory: list[str] = field(default_factory=list)
    in_hand: str | None = None
    weapon: str | None = None
    ammo: dict[str, int] = field(default_factory=dict)
    magazine: dict[str, int] = field(default_factory=dict)
    reload_until: int = 0
    last_shot_tick: int = -(10**9)
    _move_to: tuple[float, float] | None = field(default=None, repr=False)
    on_ramp: bool = False
    accuracy: float = 1.0
    infinite_ammo: bool = False
    template: Any = None
    body: Any = field(default=None, repr=False)

    @property
    def move_to(self) -> tuple[float, float] | None:
        """The waypoint (x, z) the actor walks toward, or None to stand."""
        return self._move_to

    @move_to.setter
    def move_to(self, target: tuple[float, float] | None) -> None:
        self._move_to = target
        body = self.body
        if target is not None and body is not None:
            # The physics drives only the bodies it knows to walk or move: tell it.
            body.live[self] = None

    @property
    def is_player(self) -> bool:
        """Whether this actor is a player (the one of an episode, or one of a match's)."""
        return self.side == "player"

    @property
    def position(self) -> tuple[float, float, float]:
        """The 3D position (x, y, z)."""
        return (self.x, self.y, self.z)

    @property
    def moving(self) -> bool:
        """Whether the actor moved noticeably during the last tick."""
        return self.vx * self.vx + self.vz * self.vz > 1.0

    def distance_to(self, x: float, z: float) -> float:
        """Ground distance from the actor to a point."""
        return math.hypot(self.x - x, self.z - z)

    def state_items(self) -> tuple:
        """Everything about the actor that belongs in the state hash."""
        # Whole hundredths of a unit (and millionths of health): integers print into the
        # hash several times faster than floats and carry the same precision.
        return (
            self.id, round(self.x * 100), round(self.y * 100), round(self.z * 100), self.storey,
            self.area, round(self.facing * 1e4), round(self.health * 1e6),
            round(self.armour * 1e6),
            self.alive, tuple(self.inventory), self.in_hand, self.weapon,
            tuple(sorted(self.ammo.items())), tuple(sorted(self.magazine.items())),
            self.reload_until, self.last_shot_tick, self.move_to,
        )
