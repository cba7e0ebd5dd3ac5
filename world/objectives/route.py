"""Distance along the navigation mesh, for route progress and the RL progress figure.

Route progress is ``1 - remaining / initial`` clamped to 0..1, where both lengths are
shortest walkable paths with every door treated as open (the reference route, so a
locked door does not make progress jump) and `initial` is measured from where the
route started (the player's start, or where it stood when the goal became current).
A point with no path (off the mesh, or no route even with doors open) gives 0, as the
GTAGym reward does for an unreachable final position.

A report built for the player (`seen_by(sight)`, issue 34) counts a route only toward a
place the player has located: before that its progress is 0, afterwards it is
``1 - remaining / located`` with `located` the length left at the first such report
that found the place located. Walking toward a goal nobody has seen earns nothing, so
the figure is no hot/cold signal for the unseen.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from typing import Protocol

from shapely.geometry import Polygon

from world.level.model import Level
from world.navmesh.query import PathFinder
from world.objectives.base import Point3, WorldView, clamp01
from world.recent import RecentCache

_ALL_DOORS_OPEN: frozenset[str] = frozenset()
# What a route heads for, as the player's sight knows it: (PLACE_OBJECTIVE, objective id),
# located when the player knows that objective's place, or (PLACE_AREA, area id).
Place = tuple[str, str]
PLACE_OBJECTIVE = "objective"
PLACE_AREA = "area"


class Sight(Protocol):
    """What the player has located, for a report built for the player."""

    def located(self, place: Place) -> bool:
        """Whether the player knows where a place is."""
        ...


# The sight the report being built counts routes by; None: the judge's full figures. A
# context variable rather than an argument, so that verifiers need not pass it along.
_SIGHT: ContextVar[Sight | None] = ContextVar("route_sight", default=None)


@contextmanager
def seen_by(sight: Sight | None) -> Iterator[None]:
    """Within the block, route progress counts only toward places `sight` located."""
    token = _SIGHT.set(sight)
    try:
        yield
    finally:
        _SIGHT.reset(token)


# How far (in agent radii) a point may be moved onto the mesh: objects stand near
# walls, inside the margin the mesh is eroded by.
_SNAP_RADII = 4.0


@cache
def _anchor(polygon: tuple[tuple[float, float], ...]) -> tuple[float, float]:
    # representative_point is always inside the polygon, unlike the centroid.
    point = Polygon(polygon).representative_point()
    return (float(point.x), float(point.y))


def area_anchor(level: Level, area_id: str) -> Point3:
    """An interior point of an area at its floor height: where routes to it end.

    Args:
        level: The level.
        area_id: The area.

    Returns:
        (x, y, z) inside the area.
    """
    x, z = _anchor(level.area(area_id).polygon)
    return (x, level.area_y(area_id), z)


def object_point(level: Level, object_id: str) -> Point3 | None:
    """Where a placed object stands, at its area's floor height; None if carried.

    Args:
        level: The level.
        object_id: The object.

    Returns:
        (x, y, z), or None for objects that start in an inventory.
    """
    obj = level.object(object_id)
    if obj.area is None or obj.at is None:
        return None
    return (obj.at[0], level.area_y(obj.area), obj.at[1])


def _snap_reach(world: WorldView) -> float:
    """How far across the plane a route's end is moved at most to meet the mesh."""
    return _SNAP_RADII * world.level.navmesh.agent_radius


def path_length(world: WorldView, start: Point3, goal: Point3) -> float | None:
    """Shortest walkable length between two points with every door open.

    Both points are first moved onto the mesh if they lie just off it.

    Args:
        world: The world (its `paths` answers the query).
        start: (x, y, z).
        goal: (x, y, z).

    Returns:
        The length, or None when there is no route.
    """
    paths = world.paths
    # The entry holds `paths`, so its id is not reused while the entry is kept.
    return _LENGTHS.get((id(paths), start, goal),
                        lambda: (paths, _length(paths, start, goal, _snap_reach(world))))[1]


def _length(paths: PathFinder, start: Point3, goal: Point3, reach: float) -> float | None:
    ends = []
    for point in (start, goal):
        snapped = _snap(paths, point, reach)
        if snapped is None:
            return None
        ends.append(snapped)
    return paths.length(ends[0], ends[1], _ALL_DOORS_OPEN)


# A length with every door open depends only on the mesh and its two ends, so the last
# few are kept: a verifier's meter and the goal's meter toward the same place ask the
# same question, and the player's report and the judge's report ask it again.
_LENGTHS: RecentCache[tuple[PathFinder, float | None]] = RecentCache(16)


# A snap depends only on the mesh and the point (no door state, no origin), so recent
# answers are kept: every meter of a report snaps the same player position, and each
# goal is snapped again on every report.
_SNAPS: RecentCache[tuple[PathFinder, Point3 | None]] = RecentCache(64)


def _snap(paths: PathFinder, point: Point3, reach: float) -> Point3 | None:
    # The entry holds `paths`, so its id is not reused while the entry is kept.
    return _SNAPS.get((id(paths), point, reach), lambda: (paths, _nearest(paths, point, reach)))[1]


def _nearest(paths: PathFinder, point: Point3, reach: float) -> Point3 | None:
    found = paths.nearest_reachable(point, max_distance=reach)
    return None if found is None else found[0]


class RouteMeter:
    """Route progress toward one fixed goal, from a fixed origin.

    The initial length is measured once; the remaining length is cached for the last
    position asked about, so building several reports in one tick costs one query.
    """

    def __init__(self, goal: Point3, origin: Point3, place: Place | None = None) -> None:
        """Remember the goal and where the route starts.

        Args:
            goal: The place to reach.
            origin: Where the route is measured from.
            place: What the player must have located for the route to count in a report
                built for the player (None: never counts there).
        """
        self.goal = goal
        self.origin = origin
        self.place = place
        # The length left when a report for the player first found the place located.
        self._located: float | None = None
        self._initial: float | None = None
        self._measured_initial = False
        self._last: tuple[Point3, float | None] | None = None

    def remaining(self, world: WorldView, here: Point3) -> float | None:
        """Walkable length from `here` to the goal (None when there is no route)."""
        if self._last is None or self._last[0] != here:
            self._last = (here, path_length(world, here, self.goal))
        return self._last[1]

    def initial(self, world: WorldView) -> float | None:
        """Walkable length from the origin to the goal (None when there is no route)."""
        if not self._measured_initial:
            self._initial = path_length(world, self.origin, self.goal)
            self._measured_initial = True
        return self._initial

    def progress(self, world: WorldView, here: Point3) -> float:
        """``1 - remaining / initial`` clamped to 0..1; 0 without a route.

        Args:
            world: The world.
            here: The current position of whoever walks the route.

        Returns:
            The fraction of the route closed.
        """
        sight = _SIGHT.get()
        if sight is not None:
            return self._seen_progress(world, here, sight)
        initial = self.initial(world)
        if not initial:
            # Starting on the goal leaves nothing to measure; arrival itself is judged
            # by the verifier, so no credit is claimed here.
            return 0.0
        if self._no_closer(world, here, initial):
            return 0.0
        left = self.remaining(world, here)
        if left is None:
            return 0.0
        return clamp01(1.0 - left / initial)

    def _seen_progress(self, world: WorldView, here: Point3, sight: Sight) -> float:
        # Nothing is measured before the place is located: no path search, no signal.
        if self.place is None or not sight.located(self.place):
            return 0.0
        if self._located is not None and self._no_closer(world, here, self._located):
            return 0.0
        left = self.remaining(world, here)
        if left is None:
            return 0.0
        if self._located is None:
            self._located = left
        return clamp01(1.0 - left / self._located) if self._located else 0.0

    def _no_closer(self, world: WorldView, here: Point3, length: float) -> bool:
        # Whether every route from `here` is surely at least `length` long, so that the
        # progress `1 - left / length` clamps to 0 whatever the search would find: a
        # route between the two points snapped onto the mesh (each moved at most `reach`
        # across the plane) is no shorter than the straight line between them. The
        # margin is far above the rounding of a route's length. Answered without a search.
        if not length:
            return False
        reach = _snap_reach(world)
        crow = math.hypot(here[0] - self.goal[0], here[2] - self.goal[2]) - 2.0 * reach
        return crow >= length * (1.0 + 1e-9) + 1e-6
