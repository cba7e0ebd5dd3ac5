"""Path queries over a NavMesh: shortest paths, reachability, doors in the way.

Points are ``(x, y, z)`` (y = height, used to pick a storey where floors overlap) or
``(x, z)`` (the lowest floor is assumed, see ``PointLocator.locate``).
"""

from __future__ import annotations

import math
from collections import OrderedDict, deque
from collections.abc import Sequence
from dataclasses import dataclass

from world.navmesh.lift import Lifter, length_along
from world.navmesh.locate import PointLocator
from world.navmesh.mesh import NavMesh
from world.navmesh.search import PlanePath, PolyanyaSearch
from world.navmesh.search_trace import Trace, trace_segment

Point3 = tuple[float, float, float]
_COMPONENT_CACHE_SIZE = 32
_NO_DOORS: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Path:
    """A shortest walkable path.

    Attributes:
        waypoints: (x, y, z) points: start, turning points, goal, plus the points
            where the path passes onto or off a slope (so straight 3D legs follow
            ramps and stairs). Each y is the floor height there.
        length: 3D length along the waypoints.
        plane_length: Length in the ground plane (what the search minimises).
        doors: Door ids crossed, in order.
        storeys: Storey ids passed, in order (consecutive repeats removed).
        against: One-way doors crossed from their shut side, in order (only a path
            found with one-way doors open both ways has any).
    """

    waypoints: tuple[Point3, ...]
    length: float
    plane_length: float
    doors: tuple[str, ...]
    storeys: tuple[str, ...]
    against: tuple[str, ...] = ()


def _split(point: Sequence[float]) -> tuple[float, float | None, float]:
    if len(point) == 3:
        return float(point[0]), float(point[1]), float(point[2])
    if len(point) == 2:
        return float(point[0]), None, float(point[1])
    raise ValueError(f"a point is (x, y, z) or (x, z), got {tuple(point)!r}")


# Paths remembered by exact query (least recently used go first).
_PATH_CACHE = 256


class PathFinder:
    """Shortest paths and reachability on one mesh, with doors blockable per query."""

    def __init__(self, mesh: NavMesh) -> None:
        """Index the mesh for point location and search.

        Args:
            mesh: The mesh to query.
        """
        self.mesh = mesh
        self.locator = PointLocator(mesh)
        self.search = PolyanyaSearch(mesh, self.locator.eps, self.locator.sides)
        self._planes = [tuple(float(c) for c in row) for row in mesh.planes]
        # A mesh without doors, one-way walls, storeys or slopes (a benchmark map, an
        # open field) gives a re-walk of the path's legs nothing to find.
        self._plain = (
            not mesh.one_way_walls
            and all(d is None for row in mesh.doors for d in row)
            and len(set(mesh.storeys)) <= 1
            and len(set(self._planes)) <= 1
        )
        self._components: OrderedDict[frozenset[str], list[int]] = OrderedDict()
        # Answers by exact query: a character that re-plans from where it stands toward
        # the same goal asks the same question again, and the mesh never changes.
        self._paths: OrderedDict[tuple, Path | None] = OrderedDict()
        self._lifter = Lifter(self._planes, list(mesh.storeys), mesh.doors, mesh.one_way_walls,
                              self.locator.locate, self._trace)

    def locate(self, point: Sequence[float]) -> int:
        """Polygon containing ``point`` (storey chosen by its height), or -1.

        Args:
            point: (x, y, z) or (x, z).

        Returns:
            The polygon index, or -1 off the mesh.
        """
        x, y, z = _split(point)
        return self.locator.locate(x, z, y)

    def is_walkable(self, point: Sequence[float], max_height_gap: float = 0.5) -> bool:
        """Whether ``point`` stands on the mesh.

        Args:
            point: (x, y, z) or (x, z); with a height, the floor there must be
                within ``max_height_gap`` of it.
            max_height_gap: Largest accepted vertical distance to the floor.

        Returns:
            True when a polygon contains the point (at a matching height).
        """
        x, y, z = _split(point)
        poly = self.locator.locate(x, z, y)
        if poly < 0:
            return False
        return y is None or abs(self.mesh.height_at(poly, x, z) - y) <= max_height_gap

    def components(self, blocked_doors: frozenset[str] = _NO_DOORS) -> list[int]:
        """Connected-component label per polygon with ``blocked_doors`` as walls.

        Labels are cached per door set (LRU), which makes "no path" answers instant.
        They are drawn on undirected connectivity (a one-way door joins its two
        sides), so a different label rules a path out; the same label does not
        promise one when the way runs through a one-way door from its shut side.

        Args:
            blocked_doors: Door ids treated as walls.

        Returns:
            One label per polygon; equal labels mean mutually reachable.
        """
        key = frozenset(blocked_doors)
        labels = self._components.get(key)
        if labels is not None:
            self._components.move_to_end(key)
            return labels
        nbrs = self.search.both_ways_neighbours(key)
        labels = [-1] * self.mesh.polygon_count
        label = 0
        for seed in range(len(labels)):
            if labels[seed] >= 0:
                continue
            labels[seed] = label
            queue = deque([seed])
            while queue:
                p = queue.popleft()
                for q in nbrs[p]:
                    if q >= 0 and labels[q] < 0:
                        labels[q] = label
                        queue.append(q)
            label += 1
        self._components[key] = labels
        if len(self._components) > _COMPONENT_CACHE_SIZE:
            self._components.popitem(last=False)
        return labels

    def _polygons_with(self, poly: int, x: float, z: float, nbrs: list) -> list[int]:
        # Polygons around ``poly`` (by adjacency, so on the same storey) that also
        # contain the point: several when it lies on an edge or a vertex.
        found = [poly]
        seen = {poly}
        i = 0
        while i < len(found):
            for q in nbrs[found[i]]:
                if q >= 0 and q not in seen:
                    seen.add(q)
                    if self.locator.contains(q, x, z):
                        found.append(q)
            i += 1
        return found

    def path(
        self,
        start: Sequence[float],
        goal: Sequence[float],
        blocked_doors: frozenset[str] = _NO_DOORS,
    ) -> Path | None:
        """Exact shortest path from ``start`` to ``goal``.

        Args:
            start: (x, y, z) or (x, z).
            goal: (x, y, z) or (x, z).
            blocked_doors: Door ids treated as walls for this query.

        Returns:
            The path, or None when either point is off the mesh or the goal is
            unreachable.
        """
        return self._cached_path(start, goal, frozenset(blocked_doors), True)

    def _cached_path(self, start: Sequence[float], goal: Sequence[float],
                     blocked_doors: frozenset[str], one_way: bool) -> Path | None:
        sx, sy, sz = _split(start)
        gx, gy, gz = _split(goal)
        key = (sx, sy, sz, gx, gy, gz, blocked_doors, one_way)
        cache = self._paths
        if key in cache:
            cache.move_to_end(key)
            return cache[key]
        found = self._path(sx, sy, sz, gx, gy, gz, blocked_doors, one_way)
        cache[key] = found
        if len(cache) > _PATH_CACHE:
            cache.popitem(last=False)
        return found

    def _path(self, sx: float, sy: float | None, sz: float, gx: float, gy: float | None,
              gz: float, blocked_doors: frozenset[str], one_way: bool) -> Path | None:
        sp = self.locator.locate(sx, sz, sy)
        gp = self.locator.locate(gx, gz, gy)
        if sp < 0 or gp < 0:
            return None
        labels = self.components(blocked_doors)
        if labels[sp] != labels[gp]:
            return None
        nbrs = self.search.open_neighbours(blocked_doors, one_way)
        starts = self._polygons_with(sp, sx, sz, nbrs)
        goals = self._polygons_with(gp, gx, gz, nbrs)
        plane, first = self._straight(sx, sz, gx, gz, starts, goals, nbrs)
        if plane is None:
            first = None
            plane = self.search.find((sx, sz), starts, (gx, gz), goals, blocked_doors, one_way)
        if plane is None:
            return None
        return self._lift(plane, starts, goals, nbrs, first)

    def length(
        self,
        start: Sequence[float],
        goal: Sequence[float],
        blocked_doors: frozenset[str] = _NO_DOORS,
    ) -> float | None:
        """3D length of the shortest path, or None when there is none.

        Args:
            start: (x, y, z) or (x, z).
            goal: (x, y, z) or (x, z).
            blocked_doors: Door ids treated as walls.

        Returns:
            ``Path.length`` of the shortest path, or None.
        """
        found = self.path(start, goal, blocked_doors)
        return None if found is None else found.length

    def blocked_by(
        self,
        start: Sequence[float],
        goal: Sequence[float],
        blocked_doors: frozenset[str],
    ) -> tuple[str, ...]:
        """Blocked doors that stand between ``start`` and ``goal``.

        Args:
            start: (x, y, z) or (x, z).
            goal: (x, y, z) or (x, z).
            blocked_doors: Doors currently blocked.

        Returns:
            When no path exists under ``blocked_doors`` but one exists with every
            door open (one-way doors open both ways, as they stand once opened from
            their side): the blocked doors that open path crosses, in order.
            Otherwise an empty tuple.
        """
        if not blocked_doors or self.path(start, goal, blocked_doors) is not None:
            return ()
        open_path = self._cached_path(start, goal, _NO_DOORS, False)
        if open_path is None:
            return ()
        return tuple(
            d for d in open_path.doors if d in blocked_doors or d in open_path.against
        )

    def nearest_reachable(
        self,
        point: Sequence[float],
        from_point: Sequence[float] | None = None,
        max_distance: float = 2.0,
        blocked_doors: frozenset[str] = _NO_DOORS,
    ) -> tuple[Point3, float] | None:
        """Nearest point of the mesh to ``point`` within ``max_distance``.

        With a height, only the storey whose floor is nearest in height (among the
        polygons in range) is considered; with ``from_point``, only polygons
        reachable from it under ``blocked_doors``.

        Args:
            point: (x, y, z) or (x, z).
            from_point: Optional point the result must be reachable from.
            max_distance: Largest plane distance to move.
            blocked_doors: Door ids treated as walls for the reachability test.

        Returns:
            ``((x, y, z), moved)`` with the plane distance moved, or None when
            nothing qualifies.
        """
        x, y, z = _split(point)
        labels: list[int] | None = None
        allowed = -1
        if from_point is not None:
            fp = self.locate(from_point)
            if fp < 0:
                return None
            if self.mesh.one_way_walls:
                labels = self._reach_labels(fp, blocked_doors)
            else:
                labels = self.components(blocked_doors)
            allowed = labels[fp]
        hits = []
        for p in self.locator.polygons_near(x, z, max_distance):
            if labels is not None and labels[p] != allowed:
                continue
            cx, cz, d = self.locator.closest_point(p, x, z)
            if d <= max_distance:
                hy = self.mesh.height_at(p, cx, cz)
                hits.append((d, abs(hy - y) if y is not None else 0.0, p, cx, hy, cz))
        if not hits:
            return None
        if y is not None:
            storeys = self.mesh.storeys
            best_gap: dict[str, float] = {}
            for hit in hits:
                s = storeys[hit[2]]
                best_gap[s] = min(best_gap.get(s, math.inf), hit[1])
            storey = min(best_gap, key=lambda s: (best_gap[s], s))
            hits = [h for h in hits if storeys[h[2]] == storey]
        d, _, _, cx, hy, cz = min(hits)
        return (cx, hy, cz), d

    def _reach_labels(self, start: int, blocked_doors: frozenset[str]) -> list[int]:
        # Where one-way doors make reach directed, components overstate it: walk the
        # directed table from the start instead (1 = reached, -1 = not).
        nbrs = self.search.open_neighbours(frozenset(blocked_doors))
        labels = [-1] * self.mesh.polygon_count
        labels[start] = 1
        queue = deque([start])
        while queue:
            for q in nbrs[queue.popleft()]:
                if q >= 0 and labels[q] < 0:
                    labels[q] = 1
                    queue.append(q)
        return labels

    def _lift(self, plane: PlanePath, starts: list[int], goals: list[int], nbrs: list,
              first: Trace | None = None) -> Path:
        # Re-walk each straight leg to learn doors, storeys and the floor height; the
        # first leg's walk is `first` when already made (a straight path's).
        if self._plain:
            return self._plain_path(plane, starts[0])
        walk = self._lifter.walk(plane, starts, goals, nbrs, first)
        return Path(tuple(walk.waypoints), length_along(walk.waypoints), plane.length,
                    tuple(walk.doors), tuple(walk.storeys), tuple(walk.against))

    def _plain_path(self, plane: PlanePath, poly: int) -> Path:
        # One floor plane, no doors: the turning points are the whole path.
        waypoints = [(x, self._height(poly, (x, z)), z) for x, z in plane.points]
        return Path(tuple(waypoints), length_along(waypoints), plane.length, (),
                    (self.mesh.storeys[poly],), ())

    def _straight(self, sx: float, sz: float, gx: float, gz: float, starts: list[int],
                  goals: list[int], nbrs: list) -> tuple[PlanePath | None, Trace | None]:
        # A straight segment that stays on the mesh from start to goal is the shortest
        # path: one walk along it costs far less than a search (a fighter in the open).
        # Also returns the first walk found from the starts in their order: the one
        # `_lift` would make again for the straight path's only leg.
        s = self.search
        first = None
        for c in starts:
            trace = trace_segment(s.vx, s.vz, s.verts, nbrs, c, (sx, sz), (gx, gz),
                                  self.locator.eps, s.sides)
            if trace is None:
                continue
            if first is None:
                first = trace
            if trace.end_polygon in goals:
                return PlanePath(((sx, sz), (gx, gz)), math.hypot(gx - sx, gz - sz)), first
        return None, None

    def _trace(
        self,
        poly: int,
        alternatives: list[int] | None,
        p: tuple[float, float],
        q: tuple[float, float],
        nbrs: list,
    ) -> Trace | None:
        s = self.search
        trace = trace_segment(s.vx, s.vz, s.verts, nbrs, poly, p, q, self.locator.eps, s.sides)
        if trace is not None:
            return trace
        # The leg leaves its turning point through another polygon around it: only
        # then are they looked for (most legs go on from where the last one ended).
        if not alternatives:
            alternatives = self._polygons_with(poly, p[0], p[1], nbrs)
        for c in alternatives:
            if c == poly:
                continue
            trace = trace_segment(s.vx, s.vz, s.verts, nbrs, c, p, q, self.locator.eps, s.sides)
            if trace is not None:
                return trace
        return None

    def _height(self, poly: int, point: tuple[float, float]) -> float:
        a, b, c = self._planes[poly]
        return a * point[0] + b * point[1] + c
