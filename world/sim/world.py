"""The World: one episode's mutable simulation, advanced one tick at a time."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np

from world.errors import InvalidRequestError, UnknownIdError
from world.level.model import Level
from world.sim.actors import Actor
from world.sim.clock import TICKS_PER_SECOND
from world.sim.events import Event, EventLog

Target = str | tuple[float, float, float]


@dataclass(frozen=True)
class PlayerIntent:
    """What the player wants to do during one tick.

    Attributes:
        move_to: The next waypoint (x, z) to walk toward at the player's speed; None stands.
        face: A heading in radians to turn to; None faces the walking direction.
        fire_at: A character or object id, or a 3D point, to shoot at this tick.
        use: An object or door id to press use on this tick (it must be within reach).
        equip: A carried object id to take in hand.
    """

    move_to: tuple[float, float] | None = None
    face: float | None = None
    fire_at: Target | None = None
    use: str | None = None
    equip: str | None = None


class System(Protocol):
    """A plug-in that runs once per tick (character AI, objectives, ...)."""

    def update(self, world: World) -> None:
        """Advance the system's own state by one tick, reading and changing the world."""
        ...


class World:
    """A deterministic simulation of one level at one difficulty with one seed."""

    reach: float = 120.0

    def __init__(self, level: Level, difficulty: str, seed: int) -> None:
        raise NotImplementedError

    # ---- time -------------------------------------------------------------------------
    @property
    def time_s(self) -> float:
        """Game seconds since the start."""
        return self.tick / TICKS_PER_SECOND

    # ---- plug-ins ---------------------------------------------------------------------
    def add_system(self, name: str, system: System, order: int) -> None:
        """Register a system that runs every tick, lowest order first (ties by name)."""
        raise NotImplementedError

    # ---- stepping ---------------------------------------------------------------------
    def step(self, intent: PlayerIntent | None = None) -> None:
        """Advance exactly one tick."""
        raise NotImplementedError

    # ---- direct calls -----------------------------------------------------------------
    def actor(self, actor_id: str) -> Actor:
        """The player or a character by id."""
        raise NotImplementedError

    def use(self, actor_id: str, target_id: str) -> None:
        """Press use on an object or door within reach."""
        raise NotImplementedError

    def equip(self, actor_id: str, object_id: str) -> None:
        """Take a carried object in hand."""
        raise NotImplementedError

    def fire(self, actor_id: str, target: Target):
        """Fire the actor's weapon at an actor, an object or a point."""
        raise NotImplementedError

    def use_item_on(self, actor_id: str, item_id: str, object_id: str) -> None:
        """Use a carried item (gadget, poison, key) on an object or actor within reach."""
        raise NotImplementedError

    def teleport(self, actor_id: str, x: float, z: float, storey: str | None = None) -> None:
        """Move an actor instantly (tests and set-ups)."""
        raise NotImplementedError

    def damage(self, actor_id: str, amount: float, source: str | None = None) -> None:
        """Deal damage to an actor; armour absorbs first."""
        raise NotImplementedError

    def emit(self, kind: str, subject: str, other: str | None = None,
             amount: float | None = None, detail: str | None = None) -> None:
        """Record an event at the current tick."""
        self.events.add(Event(self.tick, kind, subject, other, amount, detail))

    # ---- queries ----------------------------------------------------------------------
    def area_at(self, x: float, z: float, storey: str) -> str | None:
        """The area containing a ground point on a storey, or None."""
        raise NotImplementedError

    def actor_area(self, actor: Actor) -> str | None:
        """The area an actor is in now (None on stairs or outside every area)."""
        raise NotImplementedError

    def line_of_sight(self, p, q, storey: str) -> bool:
        """Whether nothing that blocks sight lies between two ground points on a storey."""
        raise NotImplementedError

    def blocked_doors(self, for_actor: str | None = None) -> frozenset[str]:
        """Ids of doors and hidden exits not passable now."""
        raise NotImplementedError

    def within_reach(self, actor: Actor, object_id: str) -> bool:
        """Whether an object or door is close enough for the actor to use."""
        raise NotImplementedError

    def state_hash(self) -> str:
        """A sha256 hex digest of everything that determines what happens next."""
        raise NotImplementedError


__all__ = ["InvalidRequestError", "PlayerIntent", "System", "UnknownIdError", "World", "np"]
