"""What the player knows, as the world's actions use it: the place a session fills in.

A session that keeps the player's knowledge (`world.observe.session`) puts it on its
world (`World.planning.mind`); every action then plans over the floor the player knows
and takes in its surroundings as it goes (`world.actions.routes`,
`world.actions.driver`). A bare world (tests of the simulation) has none and plans
over the whole level.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from world.sim.world import World


class PlayerMind(Protocol):
    """What the player knows, as far as planning and perceiving need it."""

    @property
    def areas(self) -> Collection[str]:
        """Areas the player knows."""
        ...

    @property
    def objects(self) -> Collection[str]:
        """Objects the player knows."""
        ...

    @property
    def characters(self) -> Mapping[str, Any]:
        """Character id -> its last sighting (seen, or heard)."""
        ...

    @property
    def gone(self) -> Mapping[str, str]:
        """Object id -> why the player knows it gone (a template)."""
        ...

    def door_state(self, world: World, door_id: str) -> str:
        """A door's state as the player last perceived it."""
        ...

    def update(self, world: World) -> None:
        """Take in what the player perceives now."""
        ...


@dataclass
class Planning:
    """A world's planning state: the player's mind, and what plans derive from it.

    Attributes:
        mind: What the player knows (None: plans use the whole level).
        entering: Areas a plan made meanwhile may use beyond the known floor (the one a
            listed way out leads into, `world.actions.routes.entering`).
        place_groups: The mesh's edge groups walling off each place, once registered
            (None: not yet, or `()` wrapped: the mesh was not built from the areas).
    """

    mind: PlayerMind | None = None
    entering: set[str] = field(default_factory=set)
    place_groups: tuple[frozenset[str] | None] | None = None
