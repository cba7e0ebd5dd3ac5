"""Read-only questions about the world: areas, sight, blocked doors, paths, the hash."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

import numpy as np

from world.navmesh.build import build_navmesh
from world.navmesh.mesh import NavMesh
from world.navmesh.query import PathFinder
from world.recent import RecentCache
from world.sim.actors import Actor
from world.sim.hashing import state_hash

# One path finder per mesh, shared by the worlds over it (the episodes of one level reuse
# the level's cached mesh): a finder answers from the mesh alone and its caches hold exact
# answers, so a later episode reads the searches and snaps of earlier ones instead of
# building the finder's indexes and searching again. The entry holds the mesh, so its id
# is not reused while it is kept.
_FINDERS: RecentCache[tuple[NavMesh, PathFinder]] = RecentCache(16)


def shared_path_finder(mesh: NavMesh) -> PathFinder:
    """The path finder over a mesh, made on first use and kept for the next world."""
    return _FINDERS.get(id(mesh), lambda: (mesh, PathFinder(mesh)))[1]


if TYPE_CHECKING:  # the attributes `World` sets, named for the type checker only
    from world.level.model import Level
    from world.sim.doors import Doors
    from world.sim.layout import Layout
    from world.sim.sight import Sight
    from world.sim.world import World


class WorldQueries:
    """Queries `World` inherits; they never change the world (the navmesh is built lazily)."""

    # Set by `World.__init__`; declared here so the queries' uses are checked.
    level: Level
    layout: Layout
    sight: Sight
    doors_system: Doors
    _navmesh: NavMesh | None
    _paths: PathFinder | None

    def area_at(self, x: float, z: float, storey: str) -> str | None:
        """The area containing a ground point on a storey, or None."""
        return self.layout.area_at(x, z, storey)

    def actor_area(self, actor: Actor) -> str | None:
        """The area an actor stands in now (None on stairs or outside every area)."""
        return self.layout.area_at(actor.x, actor.z, actor.storey, actor.area)

    def line_of_sight(self, p: Sequence[float], q: Sequence[float], storey: str) -> bool:
        """Whether nothing that blocks sight lies between two points on a storey.

        Points are (x, z) or (x, y, z); only the ground coordinates count.
        """
        return self.sight.line_of_sight(p, q, storey)

    def visible_from(self, p: Sequence[float], points: np.ndarray, storey: str) -> np.ndarray:
        """Line of sight from one point to many (an (n, 2) array) at once."""
        return self.sight.visible_from(p, points, storey)

    def blocked_doors(self, for_actor: str | None = None) -> frozenset[str]:
        """Ids of doors and hidden exits not passable now.

        With an actor id, doors that actor could open itself by pressing use (plain
        closed doors, locked doors it has the key for) are left out.
        """
        actor = cast("World", self).actor(for_actor) if for_actor is not None else None
        return self.doors_system.blocked(actor)

    @property
    def navmesh(self) -> NavMesh:
        """The level's navigation mesh, built on first use."""
        if self._navmesh is None:
            self._navmesh = build_navmesh(self.level)
        return self._navmesh

    @property
    def paths(self) -> PathFinder:
        """A path finder over the navigation mesh, built on first use."""
        if self._paths is None:
            self._paths = shared_path_finder(self.navmesh)
        return self._paths

    def state_hash(self) -> str:
        """A sha256 hex digest of everything that determines what happens next."""
        return state_hash(cast("World", self))
