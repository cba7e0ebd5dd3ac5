"""Exact any-angle shortest paths on a NavMesh with Polyanya.

Polyanya (Cui, Harabor and Grastien, 2017) searches over nodes made of a root point
and an interval of a polygon edge that is visible from it; the h-value is the length
of the shortest root -> interval -> goal path ignoring walls, so the first goal node
popped is optimal. Neighbours come only from the mesh's topological adjacency, so
storeys that overlap in projection are searched correctly: each path is straight in
its own unfolded plane.

What keeps it fast (see docs/performance.md, "Path search speed"): the search walks
the mesh's polygons merged where the union stays convex (`search_mesh.py`), never
enters a dead-end pocket that holds neither end (`dead_ends`), prunes a node whose root
vertex was reached more cheaply (root-level pruning), follows a lone successor with the
same root inside the successor step without building its node (intermediate pruning),
clips only the edges a path can leave a polygon by, listed once per door set
(`entry_tables`; the dead ends a query needs are added to a copy), and lets the step
push its successors onto the open list itself.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections import OrderedDict, deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from world.navmesh.mesh import NavMesh
from world.navmesh.search_intervals import (
    build_edges,
    entry_tables,
    heuristic,
    make_expand,
    query_entries,
)
from world.navmesh.search_mesh import merge_for_search
from world.navmesh.search_trace import Side

_TABLE_CACHE_SIZE = 16
# Entry tables with a query's dead ends opened, kept per door set (each is a list as long
# as the mesh's polygon count, sharing every row but the opened ones).
_OPENED_CACHE_SIZE = 32


@dataclass(frozen=True)
class PlanePath:
    """A shortest path in the plane.

    Attributes:
        points: Start, turning points and goal as (x, z).
        length: Euclidean length in the plane.
    """

    points: tuple[tuple[float, float], ...]
    length: float


class PolyanyaSearch:
    """Reusable Polyanya searcher over one mesh.

    Per blocked-door set the flat tables (neighbours with blocked doors as walls, both
    of the mesh and of the merged search polygons, corner flags, dead ends) are built
    once and kept in a small LRU cache.
    """

    def __init__(self, mesh: NavMesh, eps: float, sides: list[tuple[Side, ...]]) -> None:
        """Precompute the mesh tables.

        Args:
            mesh: The mesh to search.
            eps: Geometric tolerance in plane units.
            sides: `edge_sides` of the mesh for ``eps`` (the point locator keeps them).
        """
        self.mesh = mesh
        self.eps = eps
        self.vx = [float(v) for v in mesh.points[:, 0]]
        self.vz = [float(v) for v in mesh.points[:, 1]]
        self.verts = list(mesh.polygons)
        self.sides = sides
        self.merged = merge_for_search(mesh)
        self._verts = list(self.merged.polygons)
        self._twin = _twins(self.merged.polygons, self.merged.neighbours)
        self._edges = build_edges(self.vx, self.vz, self._verts, self._twin, eps)
        self._door_edges: dict[str, list[tuple[int, int]]] = {}
        self._merged_door_edges: dict[str, list[tuple[int, int]]] = {}
        for table, rows in ((self._door_edges, mesh.doors), (self._merged_door_edges,
                                                              self.merged.doors)):
            for p, row in enumerate(rows):
                for k, door in enumerate(row):
                    if door is not None:
                        table.setdefault(door, []).append((p, k))
        self._tables: OrderedDict[tuple[frozenset[str], bool], tuple] = OrderedDict()

    def add_group(self, name: str, edges: list[tuple[int, int]]) -> None:
        """Name a set of (polygon, edge) pairs that a query may block like a door.

        Args:
            name: The group's name, used in ``blocked_doors`` (never a door id).
            edges: The edges it turns into walls; a name given twice keeps the first.
        """
        if name not in self._door_edges:
            self._door_edges[name] = list(edges)

    def open_neighbours(
        self, blocked_doors: frozenset[str], one_way: bool = True
    ) -> list[tuple[int, ...]]:
        """Neighbour table with the edges of ``blocked_doors`` turned into walls.

        Args:
            blocked_doors: Door ids to treat as walls.
            one_way: Whether the mesh's one-way walls apply (then the table is
                directed: a polygon may list a neighbour that does not list it).

        Returns:
            Per polygon, the neighbour across each edge (-1 = wall or blocked door).
        """
        return self._tables_for(blocked_doors, one_way)[0]

    def both_ways_neighbours(self, blocked_doors: frozenset[str]) -> list[tuple[int, ...]]:
        """Neighbour table with blocked doors as walls and one-way doors open both ways.

        Args:
            blocked_doors: Door ids to treat as walls.

        Returns:
            A symmetric table: what connects at all, whichever way it may be crossed.
        """
        return self._tables_for(blocked_doors, False)[0]

    def _tables_for(self, blocked_doors: frozenset[str], one_way: bool = True) -> tuple:
        # (mesh neighbours, search neighbours, corner flags, dead ends, their ways out,
        # a slot for the entry tables and their copies with dead ends opened) for a door
        # set. The entry tables are made at a search's first need: reachability
        # questions read only the neighbour rows.
        one_way = one_way and bool(self.mesh.one_way_walls)
        key = (frozenset(d for d in blocked_doors if d in self._door_edges), one_way)
        cached = self._tables.get(key)
        if cached is not None:
            self._tables.move_to_end(key)
            return cached
        mesh, merged = self.mesh, self.merged
        mesh_rows, _, _ = _open_rows(
            mesh.neighbours, self._door_edges, key[0], mesh.one_way_walls if one_way else ()
        )
        nbr_rows, dead_end, way_out = _open_rows(
            merged.neighbours, self._merged_door_edges, key[0],
            merged.one_way_walls if one_way else (),
        )
        # Ends of one-way walls count as corners too: a path may turn around a jamb.
        corner = [False] * len(self.vx)
        for p, row in enumerate(nbr_rows):
            ring = self._verts[p]
            n = len(ring)
            for k, q in enumerate(row):
                if q < 0:
                    corner[ring[k]] = True
                    corner[ring[(k + 1) % n]] = True
        cached = (mesh_rows, nbr_rows, corner, dead_end, way_out, [])
        self._tables[key] = cached
        if len(self._tables) > _TABLE_CACHE_SIZE:
            self._tables.popitem(last=False)
        return cached

    def find(
        self,
        start: tuple[float, float],
        start_polys: Iterable[int],
        goal: tuple[float, float],
        goal_polys: Iterable[int],
        blocked_doors: frozenset[str] = frozenset(),
        one_way: bool = True,
    ) -> PlanePath | None:
        """Find the exact shortest path from ``start`` to ``goal``.

        Args:
            start: Start point (x, z).
            start_polys: Every polygon containing the start (several when it lies on
                an edge or vertex).
            goal: Goal point (x, z).
            goal_polys: Every polygon containing the goal.
            blocked_doors: Door ids treated as walls.
            one_way: Whether one-way doors may be crossed only from their open side.

        Returns:
            The path, or None when the goal cannot be reached.
        """
        sx, sz = start
        gx, gz = goal
        of = self.merged.of
        starts = list(dict.fromkeys(of[p] for p in start_polys))
        goals = frozenset(of[p] for p in goal_polys)
        if not starts or not goals:
            return None
        if goals.intersection(starts):
            # Both points lie in one convex polygon: the straight line is optimal.
            return PlanePath(((sx, sz), (gx, gz)), math.hypot(gx - sx, gz - sz))
        _, nbr_rows, corner, dead_end, way_out, slot = self._tables_for(blocked_doors, one_way)
        if not slot:
            slot.extend((entry_tables(self._edges, nbr_rows, dead_end, corner), OrderedDict()))
        tables, opened = slot
        # Dead ends on the way out from the start and in to the goal stay open.
        allowed = set(goals)
        for p in (*starts, *goals):
            while p >= 0 and dead_end[p]:
                allowed.add(p)
                p = way_out[p]
        root_g: dict[int, float] = {}
        # Queries from one place (route progress asks from the player's spot toward each
        # goal, again and again) open the same dead ends: their tables are kept per set.
        open_dead = frozenset(p for p in allowed if dead_end[p])
        entries = opened.get(open_dead)
        if entries is None:
            entries = query_entries(tables, self._edges, nbr_rows, dead_end, corner, open_dead)
            opened[open_dead] = entries
            if len(opened) > _OPENED_CACHE_SIZE:
                opened.popitem(last=False)
        else:
            opened.move_to_end(open_dead)
        vx, vz, twin, verts, eps = self.vx, self.vz, self._twin, self._verts, self.eps
        start_rec = (sx, sz, None)
        heap: list[tuple] = []
        tick = itertools.count(1).__next__
        for p in starts:
            ring = verts[p]
            n = len(ring)
            for k in range(n):
                nb = nbr_rows[p][k]
                if nb < 0 or (dead_end[nb] and nb not in allowed):
                    continue
                r, q = ring[k], ring[(k + 1) % n]
                node: tuple[Any, ...] | None = (sx, sz, -1, start_rec, 0.0, vx[q], vz[q], q,
                                                vx[r], vz[r], r, nb, twin[p][k])
                h = heuristic(sx, sz, vx[q], vz[q], vx[r], vz[r], gx, gz)
                heapq.heappush(heap, (h, tick(), node))

        def finish(node: tuple) -> tuple[float, tuple]:
            return _goal_entry(node, gx, gz, eps, vx, vz, verts)

        expand = make_expand(entries, eps, root_g, goals, (gx, gz), heap, tick, finish)
        pop, inf = heapq.heappop, math.inf
        while heap:
            node = pop(heap)[2]
            if node[11] < 0:
                return _plane_path(node)
            rid = node[2]
            if rid >= 0 and node[4] > root_g.get(rid, inf) + eps:
                continue
            while node is not None:
                node = expand(node)
        return None


def _goal_entry(
    node: tuple, gx: float, gz: float, eps: float, vx: list, vz: list, verts: list
) -> tuple[float, tuple]:
    # The goal is in the polygon being entered; convexity means the best way on is
    # straight from the best point of the interval.
    rx, rz, _, rec, g, lx, lz, _, qx, qz, _, poly, k = node
    ring = verts[poly]
    a, b = ring[k], ring[(k + 1) % len(ring)]
    ex, ez = vx[b] - vx[a], vz[b] - vz[a]
    side = ex * (rz - vz[a]) - ez * (rx - vx[a])
    if side < -eps * math.hypot(ex, ez):
        scale = math.hypot(qx - rx, qz - rz) + math.hypot(gx - rx, gz - rz)
        if (qx - rx) * (gz - rz) - (qz - rz) * (gx - rx) < -eps * scale:
            d = math.hypot(qx - rx, qz - rz) + math.hypot(gx - qx, gz - qz)
            return g + d, ((qx, qz, rec), (gx, gz))
        scale = math.hypot(lx - rx, lz - rz) + math.hypot(gx - rx, gz - rz)
        if (lx - rx) * (gz - rz) - (lz - rz) * (gx - rx) > eps * scale:
            d = math.hypot(lx - rx, lz - rz) + math.hypot(gx - lx, gz - lz)
            return g + d, ((lx, lz, rec), (gx, gz))
        return g + math.hypot(gx - rx, gz - rz), (rec, (gx, gz))
    u = ((rx - vx[a]) * ex + (rz - vz[a]) * ez) / (ex * ex + ez * ez)
    if u < -eps or u > 1.0 + eps:
        # Root on the edge's line but beyond it: go along the side to the nearer end.
        if (lx - rx) ** 2 + (lz - rz) ** 2 > (qx - rx) ** 2 + (qz - rz) ** 2:
            lx, lz = qx, qz
        d = math.hypot(lx - rx, lz - rz) + math.hypot(gx - lx, gz - lz)
        return g + d, ((lx, lz, rec), (gx, gz))
    return g + math.hypot(gx - rx, gz - rz), (rec, (gx, gz))


def _plane_path(goal_node: tuple) -> PlanePath:
    tail, length = goal_node[0], goal_node[1]
    rec, goal = tail
    points = [goal]
    while rec is not None:
        x, z, rec = rec
        if points[-1] != (x, z):
            points.append((x, z))
    points.reverse()
    if len(points) == 1:
        points.append(points[0])
    return PlanePath(tuple(points), length)


def _open_rows(
    neighbours: tuple[tuple[int, ...], ...],
    door_edges: dict[str, list[tuple[int, int]]],
    blocked: frozenset[str],
    one_way_walls: Iterable[tuple[int, int]],
) -> tuple[list[tuple[int, ...]], list[bool], list[int]]:
    # Neighbour rows with blocked doors and one-way walls as walls, the dead ends and
    # each dead end's way out.
    nbrs = [list(row) for row in neighbours]
    for door in blocked:
        for p, k in door_edges.get(door, ()):
            nbrs[p][k] = -1
    # A dead end is judged both ways: a polygon left only through the far side of
    # a one-way door is still a way through for a walker entering by that door.
    dead, way_out = dead_ends(nbrs)
    for p, k in one_way_walls:
        nbrs[p][k] = -1
    return [tuple(row) for row in nbrs], dead, way_out


def dead_ends(nbrs: Sequence[Sequence[int]]) -> tuple[list[bool], list[int]]:
    """Polygons in dead ends: pockets left only by the edge they are entered by.

    Polyanya prunes polygons with a single open edge; stripping them repeatedly (what
    is left is the adjacency graph's 2-core) also catches pockets of several polygons,
    the bulk of a map with ragged walls. A shortest path never enters such a pocket
    unless it starts or ends there: it would have to leave by the edge it came in.

    Args:
        nbrs: Open neighbour per polygon edge (-1 = wall).

    Returns:
        Per polygon, whether it is in a dead end, and for those its way out: the
        neighbour toward the rest of the mesh (-1 for the last polygon left of a
        component that is all dead end).
    """
    degree = [sum(1 for q in row if q >= 0) for row in nbrs]
    dead = [d <= 1 for d in degree]
    done = [False] * len(nbrs)
    way_out = [-1] * len(nbrs)
    queue = deque(p for p, d in enumerate(dead) if d)
    while queue:
        p = queue.popleft()
        done[p] = True
        # `degree` counts the neighbours not yet stripped, so at most one is left.
        for q in nbrs[p]:
            if q >= 0 and not done[q]:
                way_out[p] = q
                degree[q] -= 1
                if not dead[q] and degree[q] <= 1:
                    dead[q] = True
                    queue.append(q)
    return dead, way_out


def _twins(
    polygons: tuple[tuple[int, ...], ...], neighbours: tuple[tuple[int, ...], ...]
) -> list[tuple[int, ...]]:
    # For each edge, its index in the neighbour's ring (found by the reversed
    # vertex pair, never by geometry).
    index: dict[tuple[int, int], int] = {}
    for ring in polygons:
        n = len(ring)
        for k in range(n):
            index[(ring[k], ring[(k + 1) % n])] = k
    twins = []
    for p, ring in enumerate(polygons):
        n = len(ring)
        row = []
        for k in range(n):
            if neighbours[p][k] < 0:
                row.append(-1)
            else:
                row.append(index[(ring[(k + 1) % n], ring[k])])
        twins.append(tuple(row))
    return twins
