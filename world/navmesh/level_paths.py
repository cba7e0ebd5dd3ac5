"""Level-aware path answers: which door blocks a route and what opens it.

`PathFinder` knows door ids only as edge flags; this module adds what the level
says about each door (its key, its panel), so a blocked route can be explained.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from world.level.model import Level
from world.navmesh.build import build_navmesh
from world.navmesh.query import PathFinder


@dataclass(frozen=True)
class DoorBlock:
    """A door that stands in the way of a route, and what would open it.

    Attributes:
        door: Id of the exit (door or hidden passage) that blocks the route.
        key: Id of the key object that unlocks it, if it has one.
        panel: Id of the panel that opens it, if it is handle-less.
    """

    door: str
    key: str | None
    panel: str | None


class LevelPaths:
    """A PathFinder over a level's navigation mesh that can explain blocked routes."""

    def __init__(self, level: Level, finder: PathFinder | None = None) -> None:
        self.level = level
        self.finder = finder or PathFinder(build_navmesh(level))

    def blocking_doors(
        self, start: Sequence[float], goal: Sequence[float], blocked_doors: frozenset[str]
    ) -> tuple[DoorBlock, ...]:
        """The blocked doors on the route that would exist with every door open.

        Args:
            start: Start point, (x, y, z) or (x, z).
            goal: Goal point, (x, y, z) or (x, z).
            blocked_doors: Door ids closed to this route now.

        Returns:
            The doors in the order the open route meets them; empty when the route is
            open already or when no route exists even with every door open.
        """
        blocks = []
        for door_id in self.finder.blocked_by(start, goal, blocked_doors):
            door = self.level.exit(door_id).door
            key = door.key if door else None
            panel = door.panel if door else None
            blocks.append(DoorBlock(door=door_id, key=key, panel=panel))
        return tuple(blocks)
