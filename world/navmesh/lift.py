"""Lifting a plane path onto the mesh: doors, storeys and floor heights along its legs.

A shortest path's legs after its first turning point depend only on that turning point,
the polygon the first leg ends in and the turning points after it, never on where the
path started: a player walking toward a fixed goal asks again and again for paths that
differ only in their first leg. `Lifter` re-walks the first leg of every path and keeps
the walk of the rest per (turning points, polygon, what the walk carries over), so a
path is lifted to exactly the waypoints, doors and storeys a full walk gives.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from world.navmesh.search import PlanePath
from world.navmesh.search_trace import Trace

Point3 = tuple[float, float, float]
Point2 = tuple[float, float]
# Walks of the rest of a path remembered (least recently used go first).
_REST_CACHE = 256


def _near(p: Point2, q: Point2) -> bool:
    return abs(p[0] - q[0]) <= 1e-9 and abs(p[1] - q[1]) <= 1e-9


@dataclass
class Walk:
    """What a walk along a path's legs has found so far."""

    waypoints: list[Point3]
    storeys: list[str]
    doors: list[str] = field(default_factory=list)
    against: list[str] = field(default_factory=list)


# (polygon, alternatives, from, to, neighbours) -> the trace of one leg, or None.
TraceLeg = Callable[[int, "list[int] | None", Point2, Point2, list], "Trace | None"]


class Lifter:
    """Walks plane paths' legs over one mesh (see the module docstring)."""

    def __init__(self, planes: list, storeys: list[str],
                 doors_table: Sequence[Sequence[str | None]], one_way: frozenset | set,
                 locate: Callable[[float, float, float], int],
                 trace: TraceLeg) -> None:
        self.planes, self.storeys, self.doors_table = planes, storeys, doors_table
        self.one_way, self.locate, self.trace = one_way, locate, trace
        self._rests: OrderedDict[tuple, tuple[list, Walk, int]] = OrderedDict()

    def height(self, poly: int, point: Point2) -> float:
        """The floor height of a polygon's plane at a point."""
        a, b, c = self.planes[poly]
        return a * point[0] + b * point[1] + c

    def walk(self, plane: PlanePath, starts: list[int], goals: list[int], nbrs: list,
             first: Trace | None = None) -> Walk:
        """The walk of a whole path; `first` is its first leg's trace when already made."""
        pts = plane.points
        poly = starts[0]
        walk = Walk([(pts[0][0], self.height(poly, pts[0]), pts[0][1])], [self.storeys[poly]])
        if len(pts) < 2:
            return walk
        trace = first if first is not None else self.trace(poly, starts, pts[0], pts[1], nbrs)
        poly = self._leg(walk, pts, 1, poly, trace, goals)
        if len(pts) > 2:
            rest = self._rest(walk, pts, poly, goals, nbrs)
            walk.waypoints += rest.waypoints[1:]
            walk.storeys += rest.storeys[1:]
            walk.doors += rest.doors[1:] if walk.doors else rest.doors
            walk.against += rest.against
        return walk

    def _rest(self, walk: Walk, pts: tuple[Point2, ...], poly: int, goals: list[int],
              nbrs: list) -> Walk:
        # The legs from the first turning point on: what they find depends on the
        # turning points, the polygon reached, the goal polygon a failed walk falls back
        # on, and only the last door and storey found before (the walk drops repeats).
        last_door = walk.doors[-1] if walk.doors else None
        key = (id(nbrs), pts[1:], poly, goals[0], last_door, walk.storeys[-1])
        hit = self._rests.get(key)
        if hit is not None:  # the entry holds `nbrs`, so its id is not reused meanwhile
            self._rests.move_to_end(key)
            return hit[1]
        rest = Walk([walk.waypoints[-1]], [walk.storeys[-1]],
                    [] if last_door is None else [last_door])
        for i in range(2, len(pts)):
            trace = self.trace(poly, None, pts[i - 1], pts[i], nbrs)
            poly = self._leg(rest, pts, i, poly, trace, goals)
        self._rests[key] = (nbrs, rest, poly)
        if len(self._rests) > _REST_CACHE:
            self._rests.popitem(last=False)
        return rest

    def _leg(self, walk: Walk, pts: tuple[Point2, ...], i: int, poly: int,
             trace: Trace | None, goals: list[int]) -> int:
        """Add the leg to point i to the walk; the polygon it ends in."""
        waypoints, storeys, doors = walk.waypoints, walk.storeys, walk.doors
        if trace is None:
            # Cannot happen on a consistent mesh; keep heights right regardless.
            poly = (goals[0] if i == len(pts) - 1
                    else self.locate(pts[i][0], pts[i][1], waypoints[-1][1]))
        else:
            for visited in trace.polygons:
                if self.storeys[visited] != storeys[-1]:
                    storeys.append(self.storeys[visited])
            for c in trace.crossings:
                door = self.doors_table[c.polygon][c.edge]
                if door is not None and (not doors or doors[-1] != door):
                    doors.append(door)
                    if (c.polygon, c.edge) in self.one_way:
                        walk.against.append(door)
                if self.planes[c.polygon] != self.planes[c.entered] and not (
                        _near(c.point, pts[i - 1]) or _near(c.point, pts[i])):
                    cx, cz = c.point
                    waypoints.append((cx, self.height(c.entered, c.point), cz))
            poly = trace.end_polygon
        waypoints.append((pts[i][0], self.height(poly, pts[i]), pts[i][1]))
        return poly


def length_along(waypoints: list[Point3] | tuple[Point3, ...]) -> float:
    """The 3D length along waypoints, summed leg by leg from the start."""
    return sum(math.dist(waypoints[j - 1], waypoints[j]) for j in range(1, len(waypoints)))
