"""What the player asks of one tick, and the plug-in interface of per-tick systems."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from world.sim.world import World

Target = str | tuple[float, float, float]


@dataclass(frozen=True)
class PlayerIntent:
    """What the player wants to do during one tick.

    Attributes:
        move_to: The next waypoint (x, z) to walk toward at the player's speed; None stands.
        face: A heading in radians to turn to; None faces the walking direction.
        fire_at: A character or object id, or a 3D point, to shoot at this tick.
        use: An object, door or character id to press use on (it must be within reach).
        equip: A carried object id to take in hand.
        automatic: Whether `fire_at` was chosen by automatic return fire rather than
            asked for by the agent (the world then emits `fired_back` before the shot).
    """

    move_to: tuple[float, float] | None = None
    face: float | None = None
    fire_at: Target | None = None
    use: str | None = None
    equip: str | None = None
    automatic: bool = False


class Minds(Protocol):
    """What the characters system tells the rest of the world about characters' minds."""

    def alertness(self, actor_id: str) -> str:
        """The alertness level name of a character."""
        ...

    def fighting(self) -> list[str]:
        """Ids of the characters in combat."""
        ...


class System(Protocol):
    """A plug-in that runs once per tick (character AI, objectives, ...).

    A system that keeps state of its own hands `World.add_system` its `state_items`,
    which the state hash then covers.
    """

    def update(self, world: World) -> None:
        """Advance the system's own state by one tick, reading and changing the world."""
        ...


# A system's own state as nested tuples of plain values, for the state hash.
StateItems = Callable[[], tuple]
